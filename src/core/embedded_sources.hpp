// Kernel sources embedded at build time (cmake/TesseraEmbed.cmake), so the
// OpenCL backend compiles them at run time with no files on disk.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace tessera {

struct EmbeddedSource {
  const char* name;  ///< path relative to src/, e.g. "dense/kernels/dense.cl"
  const char* text;
};
extern const EmbeddedSource kEmbeddedSources[];
extern const std::size_t kEmbeddedSourceCount;

/// The text of an embedded file; throws Error if there is none by that name.
std::string_view embedded_source(std::string_view name);

/// The embedded file with every `#include "x"` replaced by the text of x
/// (looked up beside the including file, then from src/), each once, with
/// #line markers so compiler messages name the original file and line.
std::string expand_includes(std::string_view name);

}  // namespace tessera
