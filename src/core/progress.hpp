// A one-line progress indicator on terminals; silent when stderr is a pipe or
// a file, so logs and --json output stay clean. TESSERA_PROGRESS=log prints
// one line per step with the seconds since the indicator was made instead (for
// batch runs whose log should say where the time went); TESSERA_PROGRESS=off
// silences it on terminals too; TESSERA_PROGRESS=auto (the default) is the
// bar on terminals only. Any other value is a usage error (core/env.hpp).
#pragma once
#include <chrono>
#include <string>

namespace tessera {

class Progress {
 public:
  Progress(std::string label, int total);
  ~Progress();
  void step(const std::string& what);
  /// A line in log mode only (a finished sub-step), without advancing the count.
  void note(const std::string& what);

  enum class Mode { off, bar, log };
  Mode mode() const { return mode_; }

 private:
  std::string label_;
  int total_, done_ = 0;
  Mode mode_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace tessera
