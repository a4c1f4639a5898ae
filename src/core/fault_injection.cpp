#include "core/fault_injection.hpp"

#include <atomic>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace tessera::fault {

namespace {

constexpr int kPoints = static_cast<int>(Point::count_);
constexpr const char* kNames[] = {
    "device_alloc", "host_alloc",   "opencl_build",   "cuda_launch",     "write",
    "write_open",   "write_rename", "sigint_at_step", "sigterm_at_step", "write_vtk",
    "write_vti",    "write_pvd",    "write_png",      "write_npy",       "write_mtx",
    "write_json",   "write_ckpt",   "write_netcdf"};
static_assert(sizeof kNames / sizeof kNames[0] == kPoints, "one name per fault::Point");

struct Plan {
  long fail_at[kPoints] = {};  // 0: not armed
  std::atomic<long> calls[kPoints] = {};
  bool any = false;
};

// Parsed once; an unknown point name is reported (a test that silently injects
// nothing could never fail) and the process exits with the usage code.
Plan& plan() {
  static Plan* p = [] {
    auto* out = new Plan;  // intentionally never destroyed: used until exit
    const char* env = std::getenv("TESSERA_FAULT");
    if (!env || !*env) return out;
    std::string_view rest(env);
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      std::string_view item = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      const auto colon = item.find(':');
      const std::string_view point = item.substr(0, colon);
      // N: digits only (atol read "3x" as 3 and an overflow as anything)
      long n = 1;
      if (colon != std::string_view::npos) {
        const std::string_view digits = item.substr(colon + 1);
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        if (ec != std::errc() || end != digits.data() + digits.size()) n = 0;
      }
      int k = 0;
      while (k < kPoints && point != kNames[k]) ++k;
      if (k == kPoints || n < 1) {
        std::fprintf(
            stderr,
            "tessera: error: TESSERA_FAULT item '%.*s' is not point[:N] with a known point\n",
            static_cast<int>(item.size()), item.data());
        std::exit(2);
      }
      out->fail_at[k] = n;
      out->any = true;
    }
    return out;
  }();
  return *p;
}

}  // namespace

bool inject(Point p) {
  Plan& pl = plan();
  if (!pl.any) return false;
  const int k = static_cast<int>(p);
  if (pl.fail_at[k] == 0) return false;
  return pl.calls[k].fetch_add(1, std::memory_order_relaxed) + 1 == pl.fail_at[k];
}

bool armed(Point p) { return plan().fail_at[static_cast<int>(p)] != 0; }

Point write_point_for(const char* filename) {
  const std::string_view f(filename);
  struct Kind {
    std::string_view suffix;
    Point point;
  };
  static constexpr Kind kinds[] = {
      {".vtk", Point::write_vtk},    {".vti", Point::write_vti},   {".pvd", Point::write_pvd},
      {".png", Point::write_png},    {".npy", Point::write_npy},   {".mtx", Point::write_mtx},
      {".mtx.gz", Point::write_mtx}, {".json", Point::write_json}, {".ckpt", Point::write_ckpt}};
  for (const Kind& k : kinds)
    if (f.size() >= k.suffix.size() && f.substr(f.size() - k.suffix.size()) == k.suffix)
      return k.point;
  return Point::count_;
}

const char* name(Point p) { return kNames[static_cast<int>(p)]; }

void at_step_boundary() {
  if (inject(Point::sigint_at_step)) std::raise(SIGINT);
  if (inject(Point::sigterm_at_step)) std::raise(SIGTERM);
}

}  // namespace tessera::fault
