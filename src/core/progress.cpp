#include "core/progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "core/env.hpp"

namespace tessera {

namespace {

// TESSERA_PROGRESS: auto (the default: a bar on terminals, else the pulse), log or off
Progress::Mode mode_from_env() {
  const std::string m = env_choice("TESSERA_PROGRESS", "auto", {"auto", "log", "off"});
  if (m == "log") return Progress::Mode::log;
  if (m == "off") return Progress::Mode::off;
  return ::isatty(STDERR_FILENO) == 1 ? Progress::Mode::bar : Progress::Mode::pulse;
}

}  // namespace

Progress::Progress(std::string label, int total, double pulse_s)
    : label_(std::move(label)), total_(total), mode_(mode_from_env()), pulse_s_(pulse_s) {}

Progress::~Progress() {
  if (mode_ == Mode::bar && done_ > 0) std::fprintf(stderr, "\r\033[K");
}

void Progress::step(const std::string& what) {
  ++done_;
  if (mode_ == Mode::off) return;
  const auto now = std::chrono::steady_clock::now();
  if (mode_ == Mode::pulse) {
    if (std::chrono::duration<double>(now - last_line_).count() < pulse_s_) return;
    last_line_ = now;
  }
  if (mode_ == Mode::log || mode_ == Mode::pulse) {
    const double s = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "%s [%d/%d] %s (at %.1f s)\n", label_.c_str(), done_, total_, what.c_str(),
                 s);
  } else {
    std::fprintf(stderr, "\r\033[K%s [%d/%d] %s", label_.c_str(), done_, total_, what.c_str());
  }
  std::fflush(stderr);
}

void Progress::note(const std::string& what) {
  if (mode_ != Mode::log && mode_ != Mode::pulse) return;
  const auto now = std::chrono::steady_clock::now();
  if (mode_ == Mode::pulse) {
    if (std::chrono::duration<double>(now - last_line_).count() < pulse_s_) return;
    last_line_ = now;
  }
  const double s = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "%s   %s (at %.1f s)\n", label_.c_str(), what.c_str(), s);
  std::fflush(stderr);
}

}  // namespace tessera
