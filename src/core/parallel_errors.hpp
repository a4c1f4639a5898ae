// An exception may not leave an OpenMP region (it would call std::terminate):
// the loop bodies of a region run through ParallelErrors::run, which keeps
// the first exception (std::bad_alloc, an Error) and drops the rest; the
// caller rethrows it after the region.
//
//   ParallelErrors errors;
//   #pragma omp parallel for
//   for (...) errors.run([&] { ... });
//   errors.rethrow();
#pragma once
#include <atomic>
#include <exception>
#include <mutex>

namespace tessera {

class ParallelErrors {
 public:
  template <class F>
  void run(F&& f) noexcept {
    if (failed_.load(std::memory_order_relaxed)) return;  // the region is failing: skip the work
    try {
      f();
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!first_) first_ = std::current_exception();
      failed_.store(true, std::memory_order_relaxed);
    }
  }
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  std::exception_ptr first_;
};

}  // namespace tessera
