// Runs independent jobs on a pool of threads: TVClust's Markov chains, the
// sampled chunklets' samples, two parts of a set-up side by side. Each job owns its random stream, seeded by the
// host before the run, so the draws do not depend on how many threads run
// them or in which order. The calling thread
// only waits: it polls the host (interrupts, progress) and can ask the
// chains to stop, which they do at the end of their current sweep. No host
// API is called from a worker thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/run_hooks.h"

namespace sideclust {

// Thrown inside a chain when the host asked every chain to stop.
struct ChainStopped : std::runtime_error {
  ChainStopped() : std::runtime_error("the run was stopped") {}
};

// Hooks of one chain: its own SplitMix64 stream and the shared stop flag.
class ChainHooks : public RunHooks {
 public:
  ChainHooks(std::uint64_t seed, const std::atomic<bool>& stop) : rng_(seed), stop_(stop) {}
  double uniform() override { return rng_.uniform(); }
  void check_interrupt() override {
    if (stop_.load(std::memory_order_relaxed)) throw ChainStopped();
  }

 private:
  SplitMix64 rng_;
  const std::atomic<bool>& stop_;
};

// run_chain(chain, hooks) runs one chain to its end. poll() is called on the
// calling thread about every `poll_ms` milliseconds while chains run; when it
// returns false every chain is asked to stop. The first failure (by chain
// index, so the same one whatever the scheduling) is rethrown after all
// threads have joined.
inline void run_chains(const std::vector<std::uint64_t>& seeds, int threads,
                       const std::function<void(int, ChainHooks&)>& run_chain,
                       const std::function<bool()>& poll, int poll_ms = 100) {
  const int chains = static_cast<int>(seeds.size());
  if (threads < 1) threads = 1;
  if (threads > chains) threads = chains;
  std::atomic<bool> stop(false);
  std::atomic<int> next(0), finished(0);
  std::vector<std::exception_ptr> failure(chains);
  auto worker = [&]() {
    for (int c = next++; c < chains; c = next++) {
      try {
        ChainHooks hooks(seeds[c], stop);
        run_chain(c, hooks);
      } catch (const ChainStopped&) {
        // stopped because another chain failed or the host asked
      } catch (...) {
        failure[c] = std::current_exception();
        stop = true;  // no point finishing the others
      }
      ++finished;
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  bool stopped_by_host = false;
  while (finished.load() < chains) {
    std::this_thread::sleep_for(std::chrono::milliseconds(poll_ms));
    if (!stopped_by_host && !poll()) {
      stopped_by_host = true;
      stop = true;
    }
  }
  for (std::thread& t : pool) t.join();
  if (stopped_by_host) throw ChainStopped();
  for (const std::exception_ptr& e : failure) {
    if (e) std::rethrow_exception(e);
  }
}

// Runs jobs 0 .. jobs - 1 on up to `threads` threads and combines their
// results in job order: solve(job, slot, hooks) on a pool thread, with
// `slot` (0 .. threads - 1) naming a workspace no other running job holds;
// then commit(job, slot), one job at a time and in order 0, 1, ..., so
// whatever commit adds up does not depend on the number of threads. The
// calling thread polls the host every `poll_ms` milliseconds as
// run_chains() does.
inline void run_jobs_in_order(int jobs, int threads,
                              const std::function<void(int, int, RunHooks&)>& solve,
                              const std::function<void(int, int)>& commit,
                              const std::function<bool()>& poll, int poll_ms = 2) {
  if (threads > jobs) threads = jobs;
  if (threads < 1) threads = 1;
  std::mutex slot_mutex, order_mutex;
  std::condition_variable committed;
  std::vector<int> free_slots;
  for (int t = threads - 1; t >= 0; --t) free_slots.push_back(t);
  int next_commit = 0;
  auto run_job = [&](int job, ChainHooks& hooks) {
    int slot;
    {
      std::lock_guard<std::mutex> lock(slot_mutex);
      slot = free_slots.back();
      free_slots.pop_back();
    }
    struct Release {  // the slot goes back even when the job throws
      std::mutex& m;
      std::vector<int>& slots;
      int slot;
      ~Release() {
        std::lock_guard<std::mutex> lock(m);
        slots.push_back(slot);
      }
    } release{slot_mutex, free_slots, slot};
    solve(job, slot, hooks);
    std::unique_lock<std::mutex> lock(order_mutex);
    while (next_commit != job) {
      committed.wait_for(lock, std::chrono::milliseconds(poll_ms));
      if (next_commit != job) hooks.check_interrupt();  // an earlier job failed or the host stopped
    }
    commit(job, slot);
    ++next_commit;
    committed.notify_all();
  };
  run_chains(std::vector<std::uint64_t>(static_cast<std::size_t>(jobs), 0), threads, run_job, poll,
             poll_ms);
}

// Runs beside(hooks') on a new thread, with hooks of its own that never call
// the host, while here(hooks) runs on the calling thread: two independent
// jobs, such as the parts of a set-up that do not read each other's
// results. Both have ended when this returns; a failure of `beside` is
// rethrown here, and when `here` fails `beside` is asked to stop (at its
// next check_interrupt()) before the failure leaves.
template <class Beside, class Here>
void run_alongside(Beside&& beside, Here&& here, RunHooks& hooks) {
  std::atomic<bool> stop(false);
  std::exception_ptr failure;
  std::thread helper([&] {
    try {
      ChainHooks own(0, stop);
      beside(own);
    } catch (const ChainStopped&) {
      // asked to stop: `here` failed
    } catch (...) {
      failure = std::current_exception();
    }
  });
  struct Joiner {
    std::thread& t;
    std::atomic<bool>& stop;
    ~Joiner() {
      stop = true;
      if (t.joinable()) t.join();
    }
  } joiner{helper, stop};
  here(hooks);
  helper.join();
  if (failure) std::rethrow_exception(failure);
}

// Jobs 0 .. jobs - 1, each solved and then committed in job order, as
// run_jobs_in_order() does: with threads <= 1 on the calling thread, every
// job with workspace slot 0 and the host's own hooks; otherwise on a pool
// while the calling thread polls `hooks` for interrupts, and a stop the host
// asked for leaves as the host's own exception. solve(job, slot, hooks)
// must not draw random numbers (a pool's hooks have streams of their own),
// so the results do not depend on `threads`.
template <class Solve, class Commit>
void run_ordered_jobs(int jobs, int threads, Solve&& solve, Commit&& commit, RunHooks& hooks) {
  if (threads <= 1) {
    for (int job = 0; job < jobs; ++job) {
      solve(job, 0, hooks);
      commit(job, 0);
    }
    return;
  }
  std::exception_ptr host_stop;
  auto poll = [&]() {
    try {
      hooks.check_interrupt();
      return true;
    } catch (...) {
      host_stop = std::current_exception();
      return false;
    }
  };
  try {
    run_jobs_in_order(
        jobs, threads, [&](int job, int slot, RunHooks& h) { solve(job, slot, h); },
        [&](int job, int slot) { commit(job, slot); }, poll);
  } catch (const ChainStopped&) {
    if (host_stop) std::rethrow_exception(host_stop);
    throw;
  }
}

}  // namespace sideclust
