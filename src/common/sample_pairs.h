// Random pairs as in the TVClust authors' code (Khashabi et al. 2015): m
// ordered pairs (a, b), a != b, drawn uniformly with replacement, each type
// flipped with probability `noise`; a pair drawn again overwrites its earlier
// draw. The draws come from the generator `gen` (RunHooks, or
// MersenneTwisterR for R's default generator inlined) in the order of the R
// code this replaces (all a, then all b, then one uniform per pair), so that
// with R's generator a seed gives the same pairs as sample.int() / runif()
// did. Plain C++17, no R API.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/run_hooks.h"

namespace sideclust {

struct SampledPairs {
  std::vector<int> i, j;  // 0-based, i < j, sorted by i then j, distinct
  std::vector<char> must, correct;
};

// Stable LSD radix sort of keys by their bits [1, 1 + bits) (bit 0 rides
// along), 8 bits per pass: a few streaming passes, where a counting sort over
// n buckets would cost two random memory accesses per key.
inline void radix_sort_keys(std::vector<std::uint64_t>& key, int bits) {
  std::vector<std::uint64_t> tmp(key.size());
  for (int shift = 1; shift < 1 + bits; shift += 8) {
    std::size_t count[257] = {0};
    for (std::uint64_t k : key) ++count[((k >> shift) & 255u) + 1];
    for (int d = 0; d < 256; ++d) count[d + 1] += count[d];
    for (std::uint64_t k : key) tmp[count[(k >> shift) & 255u]++] = k;
    key.swap(tmp);
  }
}

namespace detail {

// The scan after sorting, with the classes in the narrowest type that holds
// them: random reads of a small table stay in the caches.
template <class Code>
void keep_last_draws(const std::vector<std::uint64_t>& key, int bits,
                     const std::vector<Code>& code, SampledPairs& out) {
  const std::uint64_t mask = (std::uint64_t(1) << bits) - 1;
  const std::size_t m = key.size();
  std::size_t kept = 0;
  for (std::size_t e = 0; e < m; ++e) {
    if (e + 1 < m && (key[e + 1] >> 1) == (key[e] >> 1)) continue;  // a later draw wins
    const int lo = static_cast<int>(key[e] >> (bits + 1));
    const int hi = static_cast<int>((key[e] >> 1) & mask);
    const bool flip = (key[e] & 1u) != 0;
    out.i[kept] = lo;
    out.j[kept] = hi;
    out.must[kept] = (code[lo] == code[hi]) != flip;
    out.correct[kept] = !flip;
    ++kept;
  }
  out.i.resize(kept);
  out.j.resize(kept);
  out.must.resize(kept);
  out.correct.resize(kept);
}

template <class Code>
std::vector<Code> narrow_codes(const int* code, int n) {
  return std::vector<Code>(code, code + n);
}

}  // namespace detail

// code: the class of each of the n points, in 0 .. max_code. Each
// distinct unordered pair keeps the last of its draws: its type is "same
// class" xor "flipped", and correct = !flipped. Gen: unif_index(dn) and
// uniform_open() as RunHooks has them.
template <class Gen>
SampledPairs sample_pairs_with_replacement(const int* code, int n, int max_code, std::size_t m,
                                           double noise, Gen& hooks) {
  int bits = 1;
  while (bits < 31 && (std::int64_t(1) << bits) < n) ++bits;
  // One key per draw: smaller point, larger point, flip bit; sorting the
  // keys stably by (smaller, larger) keeps the draws of a pair in draw order.
  std::vector<std::uint64_t> key(m);
  for (std::size_t e = 0; e < m; ++e) key[e] = static_cast<std::uint64_t>(hooks.unif_index(n));
  for (std::size_t e = 0; e < m; ++e) {
    const std::uint64_t a = key[e];
    std::uint64_t b = static_cast<std::uint64_t>(hooks.unif_index(n - 1));
    b += b >= a;
    key[e] = (std::min(a, b) << (bits + 1)) | (std::max(a, b) << 1);
  }
  for (std::size_t e = 0; e < m; ++e) key[e] |= hooks.uniform_open() > 1.0 - noise ? 1u : 0u;
  radix_sort_keys(key, 2 * bits);

  SampledPairs out;
  out.i.resize(m);
  out.j.resize(m);
  out.must.resize(m);
  out.correct.resize(m);
  if (max_code < 256) {
    detail::keep_last_draws(key, bits, detail::narrow_codes<std::uint8_t>(code, n), out);
  } else if (max_code < 65536) {
    detail::keep_last_draws(key, bits, detail::narrow_codes<std::uint16_t>(code, n), out);
  } else {
    detail::keep_last_draws(key, bits, std::vector<int>(code, code + n), out);
  }
  return out;
}

}  // namespace sideclust
