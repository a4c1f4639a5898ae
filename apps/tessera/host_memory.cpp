// The command line's global operator new/delete: malloc and free, as the
// default ones, except that a failed allocation records its size before
// throwing std::bad_alloc, so that main() can say how much host memory a run
// needed. delete is replaced too, so that allocation and release stay one
// malloc/free pair. Aligned new/delete stay the library's (they pair with
// each other; a failure there reports an unknown size). Under
// AddressSanitizer the replacement is left out: ASan's own operators check
// new/delete[]/free mismatches, which malloc/free underneath would hide.
#include <cstdlib>
#include <new>

#include "apps/tessera/host_memory.hpp"

namespace {
thread_local std::size_t g_failed = 0;
}  // namespace

std::size_t tessera::app::failed_host_allocation() noexcept { return g_failed; }

#if !defined(__SANITIZE_ADDRESS__)

void* operator new(std::size_t n) {
  const std::size_t bytes = n ? n : 1;
  for (;;) {
    if (void* p = std::malloc(bytes)) return p;
    if (std::new_handler h = std::get_new_handler()) {
      h();
      continue;
    }
    g_failed = n;
    throw std::bad_alloc();
  }
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif
