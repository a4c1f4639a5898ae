#include "core/progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tessera {

namespace {

bool env_is(const char* value) {
  const char* v = std::getenv("TESSERA_PROGRESS");
  return v && std::strcmp(v, value) == 0;
}

}  // namespace

Progress::Progress(std::string label, int total)
    : label_(std::move(label)),
      total_(total),
      mode_(env_is("log")   ? Mode::log
            : env_is("off") ? Mode::off
            : ::isatty(STDERR_FILENO) == 1 ? Mode::bar
                                            : Mode::off) {}

Progress::~Progress() {
  if (mode_ == Mode::bar && done_ > 0) std::fprintf(stderr, "\r\033[K");
}

void Progress::step(const std::string& what) {
  ++done_;
  if (mode_ == Mode::off) return;
  if (mode_ == Mode::log) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "%s [%d/%d] %s (at %.1f s)\n", label_.c_str(), done_, total_, what.c_str(), s);
  } else {
    std::fprintf(stderr, "\r\033[K%s [%d/%d] %s", label_.c_str(), done_, total_, what.c_str());
  }
  std::fflush(stderr);
}

void Progress::note(const std::string& what) {
  if (mode_ != Mode::log) return;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::fprintf(stderr, "%s   %s (at %.1f s)\n", label_.c_str(), what.c_str(), s);
  std::fflush(stderr);
}

}  // namespace tessera
