#include "core/interrupt.hpp"

#include <atomic>
#include <csignal>
#include <mutex>

namespace tessera {

namespace {

// Only lock-free atomics and async-signal-safe calls in the handler.
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_signal(int sig) {
  int expected = 0;
  if (g_signal.compare_exchange_strong(expected, sig)) return;  // first: polled at the next step
  // Second signal: the user insists. Default action, re-raised: exit at once.
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

void install_interrupt_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;  // blocking I/O continues; the flag is polled
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
  });
}

int interrupted() noexcept { return g_signal.load(std::memory_order_relaxed); }

int interrupt_exit_code(int signal) noexcept { return 128 + signal; }

const char* signal_name(int signal) noexcept {
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal";
}

void reset_interrupted() noexcept { g_signal.store(0); }

}  // namespace tessera
