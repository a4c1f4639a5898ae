// Whole files in and out. Files are never half-written: write to a temporary
// name in the same directory, flush, then rename over the target.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace tessera {

/// Writes `data` to `path` atomically; throws Error naming the path and the
/// system's reason on failure, leaving any previous file intact.
void write_file_atomic(const std::filesystem::path& path, std::string_view data);

/// The bytes of `path`; throws Error "<path>: cannot open the <what>: <reason>"
/// or "... cannot read the <what> ..." (what: "checkpoint", "case file", ...).
std::string read_file(const std::filesystem::path& path, std::string_view what);

}  // namespace tessera
