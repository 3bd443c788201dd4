// Runs a loop over chunks of work in three stages on two threads, with the
// results of one thread: a helper thread prepares chunk c + 1 (work that
// needs nothing the loop decides) and finishes chunk c - 1 (work that reads
// those decisions) while the calling thread processes chunk c. Each stage
// runs on one thread and sees the chunks in order, so whatever it adds up
// it adds in the same order as run_chunks_serially() does; the results are
// the same doubles. prepare(c) may write buffer c % kChunkSlots:
// finish(c - kChunkSlots), the last reader of that buffer, has returned by
// then.
// prepare and finish run on the helper and must not call the host (R);
// process runs on the calling thread and may, and may throw: the helper is
// then stopped and joined before the exception leaves.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <thread>

namespace sideclust {

constexpr int kChunkSlots = 4;  // buffers of chunks in flight
constexpr int kSpinMicroseconds = 5;

template <class Prepare, class Process, class Finish>
void run_chunks_serially(int chunks, Prepare&& prepare, Process&& process, Finish&& finish) {
  for (int c = 0; c < chunks; ++c) {
    prepare(c);
    process(c);
    finish(c);
  }
}

// The two threads' progress: how many chunks are prepared and processed. A
// thread waits for the other by spinning for kSpinMicroseconds and then
// sleeping. A thread spinning on the other core slowed the sweep there
// (the cores may share execution units) and longer spins bought no
// wall-clock time for more processor time (bench/NOTES.md), so the helper
// sleeps soon; the chunk slots hide the time it takes to wake it. Lost
// wake-ups are ruled out by the sequentially consistent order of
// `advance`'s store of the count and load of `wanted` against the
// sleeper's store of `wanted` and load of the count, both made before it
// sleeps. Each part has cache lines of its own: the signals live on the
// calling thread's stack, next to the frames of its sweep, and a line the
// helper spins on that the sweep also writes to would be taken back and
// forth between the cores at every write.
struct ChunkSignals {
  // A count of chunks done, and what a thread sleeping on it waits for, so
  // that it is woken once, when that is reached.
  struct alignas(64) Progress {
    std::atomic<int> done{0};
    std::atomic<int> wanted{std::numeric_limits<int>::max()};
  };
  Progress prepared, processed;
  alignas(64) std::atomic<bool> stop{false};
  alignas(64) std::mutex mutex;
  std::condition_variable wake;

  void advance(Progress& p, int value) {
    p.done.store(value);
    if (value >= p.wanted.load()) notify();
  }
  void halt() {
    stop.store(true);
    notify();
  }
  // False when stopped before p reached `target`.
  bool wait_for(Progress& p, int target) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(kSpinMicroseconds);
    for (int spins = 1;; ++spins) {
      if (p.done.load(std::memory_order_acquire) >= target) return true;
      if (stop.load(std::memory_order_relaxed)) return false;
      pause();
      if (spins % 64 == 0 && std::chrono::steady_clock::now() > until) break;
    }
    std::unique_lock<std::mutex> lock(mutex);
    p.wanted.store(target);
    wake.wait(lock, [&] { return p.done.load() >= target || stop.load(); });
    p.wanted.store(std::numeric_limits<int>::max());
    return p.done.load() >= target;
  }

 private:
  void notify() {
    std::lock_guard<std::mutex> lock(mutex);
    wake.notify_all();
  }
  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
};

template <class Prepare, class Process, class Finish>
void run_chunk_pipeline(int chunks, Prepare&& prepare, Process&& process, Finish&& finish) {
  if (chunks < 2) return run_chunks_serially(chunks, prepare, process, finish);
  ChunkSignals sig;
  std::exception_ptr failure;
  // The helper keeps up to kChunkSlots chunks prepared and not yet finished
  // and, when it has nothing to do, sleeps until half of them are
  // processed: so the calling thread has work queued while the helper
  // wakes (waking a sleeping thread takes about as long as a chunk), and
  // the helper is woken once every few chunks.
  std::thread helper([&] {
    try {
      int prepared = 0, finished = 0;
      while (finished < chunks) {
        const int processed = sig.processed.done.load(std::memory_order_acquire);
        if (finished < processed) {
          finish(finished++);
        } else if (prepared < chunks && prepared - finished < kChunkSlots) {
          prepare(prepared++);
          sig.advance(sig.prepared, prepared);
        } else if (!sig.wait_for(sig.processed, std::min(chunks, finished + kChunkSlots / 2))) {
          return;
        }
      }
    } catch (...) {
      failure = std::current_exception();
      sig.halt();
    }
  });
  struct Joiner {  // stops and joins the helper however the caller leaves
    std::thread& t;
    ChunkSignals& sig;
    ~Joiner() {
      sig.halt();
      if (t.joinable()) t.join();
    }
  };
  {
    Joiner joiner{helper, sig};
    for (int c = 0; c < chunks; ++c) {
      if (!sig.wait_for(sig.prepared, c + 1)) break;  // the helper failed
      process(c);
      sig.advance(sig.processed, c + 1);
    }
    helper.join();  // it finishes the last chunk, or has failed
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace sideclust
