// Clean interruption of long runs (docs/reliability.md). After
// install_interrupt_handlers(), the first SIGINT or SIGTERM only sets a flag
// that time-stepping drivers poll at step boundaries: they finish the step,
// write a checkpoint and the outputs due, say where they are, and exit with
// 128 + the signal (130 for SIGINT, 143 for SIGTERM). A second signal restores
// the default action and re-raises it: the process ends at once. Files are
// never half-written either way (write_file_atomic renames complete files).
#pragma once

#include "core/error.hpp"

namespace tessera {

/// Installs the SIGINT/SIGTERM handlers (idempotent).
void install_interrupt_handlers();

/// The first signal received since start, or 0.
int interrupted() noexcept;

/// 128 + signal: the conventional shell exit code of a run a signal stopped.
int interrupt_exit_code(int signal) noexcept;

/// "SIGINT", "SIGTERM", or "a signal": what the interruption messages say.
const char* signal_name(int signal) noexcept;

/// Thrown by a driver that stopped cleanly because of a signal, after it has
/// saved its state; main() prints the message and exits with exit_code().
class Interrupted : public Error {
 public:
  Interrupted(int signal, const std::string& what) : Error(what), signal_(signal) {}
  int signal() const noexcept { return signal_; }
  int exit_code() const noexcept override { return interrupt_exit_code(signal_); }

 private:
  int signal_;
};

/// For tests: forget a received signal.
void reset_interrupted() noexcept;

}  // namespace tessera
