// Legacy VTK (the thesis's format), .vti and .pvd writers.
#include <cstring>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "io/vti.hpp"
#include "swe/output.hpp"

namespace tessera::swe {

void write_vtk_legacy(const std::string& path, const Snapshot& s) {
  fmt::memory_buffer b;
  auto coords = [&](const char* axis, long n, double d, double o) {
    fmt::format_to(std::back_inserter(b), "{}_COORDINATES {} float\n", axis, n + 1);
    for (long k = 0; k <= n; ++k)
      fmt::format_to(std::back_inserter(b), "{}{:.16f}", k ? " " : "", o + double(k) * d);
    b.push_back('\n');
  };
  // The title names what each number is: the step count and the simulated
  // time in seconds (the thesis's "at time 237" was the step number).
  fmt::format_to(std::back_inserter(b),
                 "# vtk DataFile Version 1.0\nShallow water surface at step {}, t = {} s\nASCII\n"
                 "DATASET RECTILINEAR_GRID\nDIMENSIONS {} {} 1\n",
                 s.step, s.time, s.nx + 1, s.ny + 1);
  coords("X", s.nx, s.dx, s.x0);
  coords("Y", s.ny, s.dy, s.y0);
  fmt::format_to(std::back_inserter(b),
                 "Z_COORDINATES 1 float\n{:.16f}\nCELL_DATA {}\n"
                 "SCALARS depth float\nLOOKUP_TABLE default\n",
                 0.0, s.nx * s.ny);
  for (long j = 0; j < s.ny; ++j)  // VTK order: x fastest
    for (long i = 0; i < s.nx; ++i)
      fmt::format_to(std::back_inserter(b), "{:.16f}\n", s.h[i * s.ny + j]);
  fmt::format_to(std::back_inserter(b), "VECTORS velocities float\n");
  for (long j = 0; j < s.ny; ++j)
    for (long i = 0; i < s.nx; ++i) {
      const std::size_t k = static_cast<std::size_t>(i * s.ny + j);
      fmt::format_to(std::back_inserter(b), "{:.16f} {:.16f} {:.16f}\n", s.u(k), s.v(k), 0.0);
    }
  write_file_atomic(path, std::string_view(b.data(), b.size()));
}

void write_vti(const std::string& path, const Snapshot& s) {
  const std::size_t n = static_cast<std::size_t>(s.nx * s.ny);
  io::VtiImage im;
  im.extent = {s.nx, s.ny, 0};
  im.cell_data = true;
  im.origin = {s.x0, s.y0, 0};
  im.spacing = {s.dx, s.dy, 1};
  im.time = s.time;
  im.active_scalars = "h";
  const char* names[] = {"h", "u", "v", "eta", "z"};
  for (int a = 0; a < 5; ++a) {
    io::VtiArray col{names[a], 1, std::vector<double>(n), {}};
    for (long j = 0; j < s.ny; ++j)  // x fastest; the snapshot is i * ny + j
      for (long i = 0; i < s.nx; ++i) {
        const std::size_t k = static_cast<std::size_t>(i * s.ny + j);
        col.f64[static_cast<std::size_t>(j * s.nx + i)] = a == 0   ? s.h[k]
                                                          : a == 1 ? s.u(k)
                                                          : a == 2 ? s.v(k)
                                                          : a == 3 ? s.eta(k)
                                                                   : (s.z.empty() ? 0.0 : s.z[k]);
      }
    im.arrays.push_back(std::move(col));
  }
  io::write_vti(path, im);
}

void write_pvd(const std::string& path,
               const std::vector<std::pair<double, std::string>>& entries) {
  io::write_pvd(path, entries);
}

}  // namespace tessera::swe
