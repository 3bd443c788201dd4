// R's default uniform generator, "Mersenne-Twister" (Matsumoto & Nishimura
// 1998), with R's rules for unif_rand() (a draw of 0 becomes half of
// 1 / (2^32 - 1)), runif() (redraw outside (0, 1)) and R_unif_index() under
// sample.kind = "Rejection" (16 bits per draw, from the top of each 32-bit
// word, until the number falls below dn). It runs on a copy of the state R
// keeps in .Random.seed (mti, then 624 words) and hands the state back, so a
// long series of draws costs an inlined generator instead of a call into R
// per number, with the same numbers and the same final state as R's own
// calls. Plain C++17, no R API; the glue decides when R's kinds allow it.
#pragma once

#include <cmath>
#include <cstdint>

namespace sideclust {

class MersenneTwisterR {
 public:
  static constexpr int kWords = 624;

  // Whether R's state word mti (the first of the 625) can be continued here;
  // R itself resets mti <= 0 and seeds afresh at mti = 625, which the caller
  // leaves to R.
  static bool continues(int mti) { return mti >= 1 && mti <= kWords; }

  // state: mti, then the 624 words (.Random.seed without its first element).
  explicit MersenneTwisterR(const int* state) : pos_(state[0]) {
    for (int k = 0; k < kWords; ++k) mt_[k] = static_cast<std::uint32_t>(state[k + 1]);
  }
  // Writes the state back in the same layout.
  void save(int* state) const {
    state[0] = pos_;
    for (int k = 0; k < kWords; ++k) state[k + 1] = static_cast<int>(mt_[k]);
  }

  // unif_rand(): a word / 2^32, with 0 moved inside (0, 1).
  double uniform() {
    const std::uint32_t y = next();
    return y == 0 ? 0.5 * 2.328306437080797e-10 : y * 2.3283064365386963e-10;
  }
  double uniform_open() {
    double u;
    do u = uniform(); while (u <= 0.0 || u >= 1.0);
    return u;
  }
  // R_unif_index(dn), rejection rule: floor(unif_rand() * 65536) of every
  // 16-bit chunk is exactly the word's top 16 bits (also for a word of 0).
  double unif_index(double dn) {
    if (dn <= 0) return 0.0;
    if (dn != last_dn_) {
      last_dn_ = dn;
      bits_ = static_cast<int>(std::ceil(std::log2(dn)));
      mask_ = (std::uint64_t(1) << bits_) - 1;
    }
    double dv;
    do {
      std::uint64_t v = 0;
      for (int b = 0; b <= bits_; b += 16) v = 65536 * v + (next() >> 16);
      dv = static_cast<double>(v & mask_);
    } while (dn <= dv);
    return dv;
  }

 private:
  std::uint32_t next() {
    if (pos_ >= kWords) twist();
    std::uint32_t y = mt_[pos_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
  }
  // The next 624 words, in place: word k from words k, k + 1 and k + 397,
  // indices past the end wrapping to the words already renewed.
  void twist() {
    constexpr int shift = 397;
    auto word = [this](int k, int k1, int km) {
      const std::uint32_t y = (mt_[k] & 0x80000000u) | (mt_[k1] & 0x7fffffffu);
      mt_[k] = mt_[km] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    };
    int k = 0;
    for (; k < kWords - shift; ++k) word(k, k + 1, k + shift);
    for (; k < kWords - 1; ++k) word(k, k + 1, k + shift - kWords);
    word(kWords - 1, 0, shift - 1);
    pos_ = 0;
  }

  std::uint32_t mt_[kWords];
  int pos_;
  double last_dn_ = -1.0;
  int bits_ = 0;
  std::uint64_t mask_ = 0;
};

}  // namespace sideclust
