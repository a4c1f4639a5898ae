#include "io/vti.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "io/xml_escape.hpp"

namespace tessera::io {

namespace {

template <class T>
void append_raw(std::string& out, const std::vector<T>& v) {
  const std::uint64_t bytes = v.size() * sizeof(T);  // little-endian hosts
  out.append(reinterpret_cast<const char*>(&bytes), sizeof bytes);
  out.append(reinterpret_cast<const char*>(v.data()), bytes);
}

std::size_t bytes_of(const VtiArray& a) {
  return a.f64.empty() ? a.f32.size() * 4 : a.f64.size() * 8;
}

// Names and file names come from users (paths): escaped as XML attribute values.
std::string xml(const std::string& s) { return xml_escape(s); }

}  // namespace

void write_vti(const std::filesystem::path& path, const VtiImage& im) {
  const auto& e = im.extent;
  std::size_t values = 1;
  for (long n : e) values *= std::size_t(im.cell_data ? std::max(n, 1L) : n + 1);
  std::string data = fmt::format(
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" "
      "header_type=\"UInt64\">\n"
      "  <ImageData WholeExtent=\"0 {0} 0 {1} 0 {2}\" Origin=\"{3} {4} {5}\" Spacing=\"{6} {7} {8}\">\n"
      "    <Piece Extent=\"0 {0} 0 {1} 0 {2}\">\n",
      e[0], e[1], e[2], im.origin[0], im.origin[1], im.origin[2], im.spacing[0], im.spacing[1],
      im.spacing[2]);
  if (im.time)
    data += fmt::format(
        "      <FieldData>\n        <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" "
        "format=\"ascii\">{}</DataArray>\n      </FieldData>\n",
        *im.time);
  const char* kind = im.cell_data ? "CellData" : "PointData";
  data += fmt::format(
      "      <{}{}{}>\n", kind,
      im.active_scalars.empty() ? "" : fmt::format(" Scalars=\"{}\"", xml(im.active_scalars)),
      im.active_vectors.empty() ? "" : fmt::format(" Vectors=\"{}\"", xml(im.active_vectors)));
  std::uint64_t offset = 0;
  for (const VtiArray& a : im.arrays) {
    if (bytes_of(a) != values * std::size_t(a.components) * (a.f64.empty() ? 4 : 8))
      throw Error(
          fmt::format("{}: array '{}' holds {} bytes, the image needs {} values of {} components",
                      path.string(), a.name, bytes_of(a), values, a.components));
    data += fmt::format(
        "        <DataArray type=\"{}\" Name=\"{}\"{} format=\"appended\" offset=\"{}\"/>\n",
        a.f64.empty() ? "Float32" : "Float64", xml(a.name),
        a.components > 1 ? fmt::format(" NumberOfComponents=\"{}\"", a.components) : "", offset);
    offset += sizeof(std::uint64_t) + bytes_of(a);
  }
  data += fmt::format(
      "      </{}>\n    </Piece>\n  </ImageData>\n  <AppendedData encoding=\"raw\">\n   _", kind);
  for (const VtiArray& a : im.arrays) {
    if (a.f64.empty())
      append_raw(data, a.f32);
    else
      append_raw(data, a.f64);
  }
  data += "\n  </AppendedData>\n</VTKFile>\n";
  write_file_atomic(path, data);
}

void write_pvd(const std::filesystem::path& path,
               const std::vector<std::pair<double, std::string>>& entries) {
  std::string x =
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n";
  for (const auto& [t, file] : entries)
    x += fmt::format("    <DataSet timestep=\"{}\" part=\"0\" file=\"{}\"/>\n", t, xml(file));
  x += "  </Collection>\n</VTKFile>\n";
  write_file_atomic(path, x);
}

}  // namespace tessera::io
