#include "core/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace tessera {

Progress::Progress(std::string label, int total)
    : label_(std::move(label)), total_(total), active_(::isatty(STDERR_FILENO) == 1) {}

Progress::~Progress() {
  if (active_ && done_ > 0) std::fprintf(stderr, "\r\033[K");
}

void Progress::step(const std::string& what) {
  ++done_;
  if (!active_) return;
  std::fprintf(stderr, "\r\033[K%s [%d/%d] %s", label_.c_str(), done_, total_, what.c_str());
  std::fflush(stderr);
}

}  // namespace tessera
