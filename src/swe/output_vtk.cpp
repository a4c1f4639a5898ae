// Legacy VTK (the thesis's format), .vti and .pvd writers.
#include <cstring>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
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
  fmt::format_to(std::back_inserter(b),
                 "# vtk DataFile Version 1.0\nShallow water surface at time {}\nASCII\n"
                 "DATASET RECTILINEAR_GRID\nDIMENSIONS {} {} 1\n",
                 s.step, s.nx + 1, s.ny + 1);
  coords("X", s.nx, s.dx, s.x0);
  coords("Y", s.ny, s.dy, s.y0);
  fmt::format_to(std::back_inserter(b), "Z_COORDINATES 1 float\n{:.16f}\nCELL_DATA {}\n"
                 "SCALARS depth float\nLOOKUP_TABLE default\n", 0.0, s.nx * s.ny);
  for (long j = 0; j < s.ny; ++j)  // VTK order: x fastest
    for (long i = 0; i < s.nx; ++i) fmt::format_to(std::back_inserter(b), "{:.16f}\n", s.h[i * s.ny + j]);
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
  const char* names[] = {"h", "u", "v", "eta", "z"};
  std::string head = fmt::format(
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"1.0\" "
      "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      "  <ImageData WholeExtent=\"0 {0} 0 {1} 0 0\" Origin=\"{2:.17g} {3:.17g} 0\" "
      "Spacing=\"{4:.17g} {5:.17g} 1\">\n    <Piece Extent=\"0 {0} 0 {1} 0 0\">\n"
      "      <FieldData>\n        <DataArray type=\"Float64\" Name=\"TimeValue\" "
      "NumberOfTuples=\"1\" format=\"ascii\">{6:.17g}</DataArray>\n      </FieldData>\n"
      "      <CellData Scalars=\"h\">\n",
      s.nx, s.ny, s.x0, s.y0, s.dx, s.dy, s.time);
  const std::uint64_t bytes = n * sizeof(double);
  for (int a = 0; a < 5; ++a)
    head += fmt::format("        <DataArray type=\"Float64\" Name=\"{}\" format=\"appended\" offset=\"{}\"/>\n",
                        names[a], a * (bytes + sizeof(std::uint64_t)));
  head += "      </CellData>\n    </Piece>\n  </ImageData>\n  <AppendedData encoding=\"raw\">\n   _";
  std::string data = head;
  std::vector<double> col(n);
  for (int a = 0; a < 5; ++a) {
    for (long j = 0; j < s.ny; ++j)
      for (long i = 0; i < s.nx; ++i) {
        const std::size_t k = static_cast<std::size_t>(i * s.ny + j);
        const double v = a == 0 ? s.h[k] : a == 1 ? s.u(k) : a == 2 ? s.v(k) : a == 3 ? s.eta(k)
                                                                                  : (s.z.empty() ? 0.0 : s.z[k]);
        col[static_cast<std::size_t>(j * s.nx + i)] = v;
      }
    data.append(reinterpret_cast<const char*>(&bytes), sizeof bytes);  // little-endian hosts
    data.append(reinterpret_cast<const char*>(col.data()), bytes);
  }
  data += "\n  </AppendedData>\n</VTKFile>\n";
  write_file_atomic(path, data);
}

void write_pvd(const std::string& path, const std::vector<std::pair<double, std::string>>& entries) {
  std::string x = "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n";
  for (const auto& [t, file] : entries)
    x += fmt::format("    <DataSet timestep=\"{:.17g}\" part=\"0\" file=\"{}\"/>\n", t, file);
  x += "  </Collection>\n</VTKFile>\n";
  write_file_atomic(path, x);
}

}  // namespace tessera::swe
