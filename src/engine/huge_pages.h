// Storage for a large table that a sweep reads at random places (LCVQE's
// distance records: 64 MB at n = 1e6). With 4 KiB pages nearly every such
// read also misses the TLB and waits for a page walk on top of the memory
// access; on Linux, where transparent huge pages are commonly enabled only
// on request, the table asks for 2 MiB pages (madvise(MADV_HUGEPAGE) before
// the first touch). Elsewhere, or when the request is refused, it is plain
// memory: only the speed differs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sideclust {

// Ask Linux for 2 MiB pages over the 2 MiB-aligned part of [p, p + bytes),
// memory just allocated and not yet written (such as a large R vector about
// to be filled): one page fault per 2 MiB instead of per 4 KiB when it is
// filled, and fewer translation misses when a sweep reads it out of order.
// Only advice: nothing changes but the speed, and nothing where it is refused.
inline void advise_huge_pages(void* p, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = std::uintptr_t(1) << 21;
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t lo = (a + huge - 1) / huge * huge, hi = (a + bytes) / huge * huge;
  if (hi > lo) (void)madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

class RandomAccessTable {
 public:
  // At least n doubles starting on a 64-byte boundary, contents undefined;
  // the memory is kept when a later call needs no more.
  double* reserve(std::size_t n) {
    if (n <= capacity_) return base_;
    const std::size_t align = n * sizeof(double) >= kAlign ? kAlign : 64;
    memory_.reset(std::malloc(n * sizeof(double) + align));  // large blocks are mapped, not yet touched
    if (!memory_) throw std::bad_alloc();
    const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(memory_.get());
    base_ = reinterpret_cast<double*>(addr + (align - addr % align) % align);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align == kAlign) {
      (void)madvise(base_, (n * sizeof(double)) / kAlign * kAlign, MADV_HUGEPAGE);
    }
#endif
    capacity_ = n;
    return base_;
  }

 private:
  static constexpr std::size_t kAlign = std::size_t(1) << 21;  // 2 MiB
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  std::unique_ptr<void, Free> memory_;
  double* base_ = nullptr;
  std::size_t capacity_ = 0;
};

// Memory just allocated and not yet written that the cores will read at
// random places (a large R vector about to be filled, a posterior read at a
// graph's neighbours): the engine's page advice for it (2 MiB pages, see
// advise_huge_pages()). Only the speed can differ.
inline void advise_random_reads(void* p, std::size_t bytes) { advise_huge_pages(p, bytes); }

// m.resize(rows, cols) for a matrix (Eigen's, or anything with resize(),
// data() and size()) that will be filled next and then read at random
// places: its new memory gets advise_random_reads() before the first write.
template <class Matrix, class Index>
void resize_for_random_reads(Matrix& m, Index rows, Index cols) {
  m.resize(rows, cols);
  advise_random_reads(m.data(), sizeof(*m.data()) * static_cast<std::size_t>(m.size()));
}

}  // namespace sideclust
