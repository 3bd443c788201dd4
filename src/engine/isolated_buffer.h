// Doubles that share no cache line with any other data. For what one thread
// writes at every point while another thread works nearby: two small heap
// blocks can share a 64-byte line, and each write then takes the line from
// the other core (PCK-means' two-thread sweep lost its gain to this until
// its sums and scratch moved into such buffers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sideclust {

class IsolatedBuffer {
 public:
  explicit IsolatedBuffer(std::size_t n = 0) { resize(n); }

  // n zeros (the earlier contents are dropped).
  void resize(std::size_t n) {
    store_.assign(n + 3 * kLine, 0.0);  // a line of padding before and after, and the alignment
    const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(store_.data() + kLine);
    const std::uintptr_t aligned = (a + kLineBytes - 1) / kLineBytes * kLineBytes;
    data_ = reinterpret_cast<double*>(aligned);
    size_ = n;
  }
  double* data() { return data_; }
  const double* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  static constexpr std::size_t kLineBytes = 64, kLine = kLineBytes / sizeof(double);
  std::vector<double> store_;
  double* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace sideclust
