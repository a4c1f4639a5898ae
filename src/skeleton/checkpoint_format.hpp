// The byte format of a skeleton field checkpoint (DA, DM, DC or a Field), on
// io/checkpoint_container: magic "TSSKLCK1", a JSON header and the field's
// values gathered into the global compact order (component-major, x fastest,
// as Field::gather returns them). That order belongs to no backend and no
// decomposition, so a checkpoint written on one part restarts on any part
// count, backend or rank count. Device-free, so that it can be fuzzed.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "skeleton/extents.hpp"

namespace tessera::skeleton {

/// What a checkpoint holds besides its values.
struct FieldCheckpointHeader {
  Extents extents;
  int components = 1;
  std::string element;  ///< "float32", "float64", "int32", ... or "bytes<N>" (element_name<T>)
  std::uint64_t element_bytes = 0;
  std::uint64_t step = 0;  ///< the caller's step count, restored with the values (at most 2^53)
  bool operator==(const FieldCheckpointHeader&) const = default;
};

/// The checkpoint bytes; `values` must hold volume * components * element_bytes bytes.
std::string format_field_checkpoint(const FieldCheckpointHeader& h, std::string_view values);

struct FieldCheckpointContents {
  FieldCheckpointHeader header;
  std::string_view values;  ///< a view into the parsed bytes
};

/// Validates signature, checksum, header fields and the payload size (before
/// anything is allocated); errors read "<source>: not a valid skeleton
/// checkpoint: <why>". Meaning: the step lies in 0..2^53, the element name
/// agrees with element_bytes, the order is the one written. The values are
/// the caller's and are not judged.
FieldCheckpointContents parse_field_checkpoint(std::string_view data, const std::string& source);

/// Why a checkpoint cannot restore a field of this shape and element (empty
/// when it can): "extents 9x8x8 in the file, 8x8x8 in the field; ...".
std::string field_checkpoint_mismatch(const FieldCheckpointHeader& file,
                                      const FieldCheckpointHeader& field);

}  // namespace tessera::skeleton
