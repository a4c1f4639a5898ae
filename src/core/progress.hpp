// A one-line progress indicator on terminals. When stderr is a pipe or a
// file it prints a step's line only once `pulse_s` seconds (30) have passed
// since the last line: a short run's log stays clean, and a long one still
// says where it is. TESSERA_PROGRESS=log prints one line per step with the
// seconds since the indicator was made (for batch runs whose log should say
// where the time went); TESSERA_PROGRESS=off silences it; TESSERA_PROGRESS=
// auto (the default) is the bar on terminals, the pulse elsewhere. Any other
// value is a usage error (core/env.hpp).
#pragma once
#include <chrono>
#include <string>

namespace tessera {

class Progress {
 public:
  Progress(std::string label, int total, double pulse_s = 30);
  ~Progress();
  void step(const std::string& what);
  /// A finished sub-step, without advancing the count: a line in log mode,
  /// and in pulse mode once the interval has passed.
  void note(const std::string& what);

  enum class Mode { off, bar, log, pulse };
  Mode mode() const { return mode_; }

 private:
  std::string label_;
  int total_, done_ = 0;
  Mode mode_;
  double pulse_s_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_line_ = start_;
};

}  // namespace tessera
