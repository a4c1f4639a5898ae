// Checkpoint and restart of the skeleton's distributed fields (DA, DM, DC, or
// any Field): the values are gathered into the global compact order and
// written atomically (checkpoint_format.hpp), so a field saved on one part,
// backend or rank count restores on any other, bit for bit. Under MPI every
// rank gathers, rank 0 writes, and every rank learns whether it worked; on
// restore rank 0 reads the file and hands its bytes to the others, so every
// rank restores the same bytes or all fail together (no rank is left waiting
// in the next exchange).
#pragma once
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <type_traits>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "skeleton/checkpoint_format.hpp"
#include "skeleton/containers.hpp"

namespace tessera::skeleton {

/// The element name a checkpoint records: the arithmetic types by name, any
/// other trivially copyable type (a struct of populations, say) by its size.
template <class T>
std::string element_name() {
  static_assert(std::is_trivially_copyable_v<T>, "checkpoints store trivially copyable elements");
  if constexpr (std::is_same_v<T, float>)
    return "float32";
  else if constexpr (std::is_same_v<T, double>)
    return "float64";
  else if constexpr (std::is_integral_v<T>)
    return (std::is_signed_v<T> ? "int" : "uint") + std::to_string(8 * sizeof(T));
  else
    return "bytes" + std::to_string(sizeof(T));
}

template <class T>
FieldCheckpointHeader checkpoint_header(const Field<T>& f, std::uint64_t step = 0) {
  return {f.extents(), f.components(), element_name<T>(), sizeof(T), step};
}

namespace detail {
/// Every rank learns the first non-empty error of any rank (collective under MPI).
inline void agree_on_error(const Team& team, std::string error) {
  if (Comm* c = team.comm()) {
    const auto all = c->allgather(error.data(), error.size() + 1);  // each message with its '\0'
    error.clear();
    for (std::size_t i = 0; i < all.size() && error.empty(); ++i) {
      std::size_t j = i;
      while (j < all.size() && all[j] != std::byte{0}) ++j;
      error.assign(reinterpret_cast<const char*>(all.data()) + i, j - i);
      i = j;
    }
  }
  if (!error.empty()) throw Error(error);
}
}  // namespace detail

/// Writes the field and `step` to `path` (temporary file, fsync, rename).
template <class T>
void save_checkpoint(Field<T>& f, const std::filesystem::path& path, std::uint64_t step = 0) {
  const std::vector<T> all = f.gather_to_root();  // collective; the values land on rank 0 only
  std::string error;
  if (f.team().rank() == 0) {
    try {
      const std::string_view bytes(reinterpret_cast<const char*>(all.data()),
                                   all.size() * sizeof(T));
      write_file_atomic(path, format_field_checkpoint(checkpoint_header(f, step), bytes));
    } catch (const std::exception& e) {
      error = e.what();
      if (error.empty()) error = path.string() + ": the checkpoint could not be written";
    }
  }
  detail::agree_on_error(f.team(), std::move(error));
}

/// Restores the field's values from `path` and returns the step stored with
/// them. A file of another shape or element type is rejected with what
/// differs, and the field is left as it was.
template <class T>
std::uint64_t load_checkpoint(Field<T>& f, const std::filesystem::path& path) {
  const Team& team = f.team();
  std::string error, data;
  if (team.rank() == 0) {
    try {
      data = read_file(path, "checkpoint");
    } catch (const std::exception& e) {
      error = e.what();
      if (error.empty()) error = path.string() + ": the checkpoint could not be read";
    }
  }
  detail::agree_on_error(team, std::move(error));
  if (Comm* comm = team.comm()) {  // rank 0's bytes to every rank (the others contribute none)
    const auto all = comm->allgather(data.data(), team.rank() == 0 ? data.size() : 0);
    data.assign(reinterpret_cast<const char*>(all.data()), all.size());
  }
  // the same bytes everywhere: every rank parses and checks alike, and throws alike
  const FieldCheckpointContents c = parse_field_checkpoint(data, path.string());
  if (const std::string why = field_checkpoint_mismatch(c.header, checkpoint_header(f));
      !why.empty())
    throw UsageError(path.string() + ": the checkpoint does not fit this field: " + why);
  std::vector<T> values(c.values.size() / sizeof(T));
  std::memcpy(values.data(), c.values.data(), c.values.size());
  f.scatter(values);
  return c.header.step;
}

template <class T, int D>
void save_checkpoint(Distributed<T, D>& c, const std::filesystem::path& path,
                     std::uint64_t step = 0) {
  save_checkpoint(c.field(), path, step);
}
template <class T, int D>
std::uint64_t load_checkpoint(Distributed<T, D>& c, const std::filesystem::path& path) {
  return load_checkpoint(c.field(), path);
}

}  // namespace tessera::skeleton
