#include "skeleton/checkpoint_format.hpp"

#include <bit>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "io/checkpoint_container.hpp"

namespace tessera::skeleton {

namespace {

constexpr std::string_view kMagic{"TSSKLCK1", 8};
const std::string kWhat = "skeleton checkpoint";
// The values, like the container's length and checksum, are stored in host
// byte order; the header says which. (A file of the other byte order fails at
// the container's checksum before this field is read.)
constexpr const char* kEndian = std::endian::native == std::endian::little ? "little" : "big";
constexpr long kMaxComponents = 4096, kMaxElementBytes = 1 << 20;

constexpr const char* kOrder = "component-major, x fastest";

std::string extents_text(const Extents& e) {
  return fmt::format("{}x{}x{}", e.n[0], e.n[1], e.n[2]);
}

// The size an element name (element_name<T>: float32, float64, int<bits>,
// uint<bits>, bytes<N>) implies, or 0 for a name of none of these forms.
std::uint64_t element_name_bytes(const std::string& e) {
  if (e == "float32") return 4;
  if (e == "float64") return 8;
  auto number = [&](std::size_t from) -> std::uint64_t {  // 1..9 digits, no leading zero
    if (e.size() <= from || e.size() > from + 9 || e[from] == '0' ||
        e.find_first_not_of("0123456789", from) != std::string::npos)
      return 0;
    return std::stoull(e.substr(from));
  };
  for (const char* prefix : {"int", "uint"})
    if (e.rfind(prefix, 0) == 0) {
      const std::uint64_t bits = number(std::char_traits<char>::length(prefix));
      return bits % 8 == 0 ? bits / 8 : 0;
    }
  if (e.rfind("bytes", 0) == 0) return number(5);
  return 0;
}

}  // namespace

std::string format_field_checkpoint(const FieldCheckpointHeader& h, std::string_view values) {
  // what parse_field_checkpoint accepts, so that no file is written that cannot be read
  if (h.components < 1 || h.components > kMaxComponents || h.element_bytes < 1 ||
      h.element_bytes > std::uint64_t(kMaxElementBytes) || h.step > std::uint64_t(io::kMaxCount))
    throw Error(fmt::format(
        "skeleton checkpoint: {} components of {} bytes at step {} cannot be saved (at most {} "
        "components of at most {} bytes, steps up to 2^53)",
        h.components, h.element_bytes, h.step, kMaxComponents, kMaxElementBytes));
  const nlohmann::json j = {{"extents", {h.extents.n[0], h.extents.n[1], h.extents.n[2]}},
                            {"dims", h.extents.dims},
                            {"components", h.components},
                            {"element", h.element},
                            {"element_bytes", h.element_bytes},
                            {"endian", kEndian},
                            {"order", kOrder},
                            {"step", h.step}};
  return io::format_container(kMagic, j, {values});
}

FieldCheckpointContents parse_field_checkpoint(std::string_view data, const std::string& source) {
  const io::ContainerReader in(data, kMagic, kWhat, source);
  FieldCheckpointContents out;
  FieldCheckpointHeader& h = out.header;
  in.read_header([&](const nlohmann::json& j) {
    const auto e = io::header_integers3(j.at("extents"), "extents");
    for (int a = 0; a < 3; ++a) {
      h.extents.n[a] = e[static_cast<std::size_t>(a)];
      if (h.extents.n[a] < 1)
        throw Error(fmt::format("'extents' has a side of {}", h.extents.n[a]));
    }
    const long dims = io::header_integer(j.at("dims"), "dims");
    if (dims < 1 || dims > 3) throw Error(fmt::format("'dims' is {} (1, 2 or 3)", dims));
    h.extents.dims = static_cast<int>(dims);
    for (int a = h.extents.dims; a < 3; ++a)
      if (h.extents.n[a] != 1)
        throw Error(
            fmt::format("a {}-D field with {} cells along axis {}", dims, h.extents.n[a], a));
    const long comps = io::header_integer(j.at("components"), "components");
    if (comps < 1 || comps > kMaxComponents)
      throw Error(fmt::format("'components' is {} (1..{})", comps, kMaxComponents));
    h.components = static_cast<int>(comps);
    h.element = io::header_string(j.at("element"), "element");
    const long eb = io::header_integer(j.at("element_bytes"), "element_bytes");
    if (eb < 1 || eb > kMaxElementBytes)
      throw Error(fmt::format("'element_bytes' is {} (1..2^20)", eb));
    h.element_bytes = static_cast<std::uint64_t>(eb);
    if (element_name_bytes(h.element) != h.element_bytes)
      throw Error(
          fmt::format("'element' is '{}' with 'element_bytes' {} (float32 4, float64 8, int<bits>, "
                      "uint<bits> or bytes<N> of that size)",
                      h.element, h.element_bytes));
    const std::string endian = io::header_string(j.at("endian"), "endian");
    if (endian != kEndian)
      throw Error(fmt::format("'endian' is '{}', this machine is {}-endian", endian, kEndian));
    const std::string order = io::header_string(j.at("order"), "order");
    if (order != kOrder)
      throw Error(fmt::format("'order' is '{}' (only '{}' is written)", order, kOrder));
    // the caller goes on counting from it (step + steps, file names)
    h.step = static_cast<std::uint64_t>(io::header_count(j.at("step"), "step"));
  });
  // The payload the header implies, overflow-checked, before anything is allocated.
  std::uint64_t cells = 0, values = 0, bytes = 0;
  if (!io::checked_size(std::uint64_t(h.extents.n[0]), std::uint64_t(h.extents.n[1]), 0, cells) ||
      !io::checked_size(cells, std::uint64_t(h.extents.n[2]), 0, cells) ||
      cells > std::uint64_t(std::numeric_limits<index_t>::max()) ||
      !io::checked_size(cells, std::uint64_t(h.components), 0, values) ||
      !io::checked_size(values, h.element_bytes, 0, bytes))
    throw in.bad(fmt::format("extents {} x {} components are too large", extents_text(h.extents),
                             h.components));
  if (in.payload().size() != bytes)
    throw in.bad(
        fmt::format("{} bytes of values, the header's field needs {}", in.payload().size(), bytes));
  out.values = in.payload();
  return out;
}

std::string field_checkpoint_mismatch(const FieldCheckpointHeader& file,
                                      const FieldCheckpointHeader& field) {
  std::string why;
  auto add = [&](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
  if (file.extents.dims != field.extents.dims)
    add(fmt::format("{}-D in the file, {}-D in the field", file.extents.dims, field.extents.dims));
  if (file.extents.n != field.extents.n)
    add(fmt::format("extents {} in the file, {} in the field", extents_text(file.extents),
                    extents_text(field.extents)));
  if (file.components != field.components)
    add(fmt::format("{} components in the file, {} in the field", file.components,
                    field.components));
  if (file.element != field.element || file.element_bytes != field.element_bytes)
    add(fmt::format("elements '{}' ({} bytes) in the file, '{}' ({} bytes) in the field",
                    file.element, file.element_bytes, field.element, field.element_bytes));
  return why;
}

}  // namespace tessera::skeleton
