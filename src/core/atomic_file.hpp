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

/// `data` to standard output for "-" (the CLI's `--json -`), else to the
/// file `path` as write_file_atomic does; throws Error when either fails.
void write_output(const std::string& path, std::string_view data);

/// From now on what the program prints goes to standard error, and standard
/// output carries only what write_output("-") writes (`--json -` output that
/// a pipe can parse).
void reserve_stdout_for_output();

/// The bytes of `path`; throws Error "<path>: cannot open the <what>: <reason>"
/// or "... cannot read the <what> ..." (what: "checkpoint", "case file", ...).
std::string read_file(const std::filesystem::path& path, std::string_view what);

}  // namespace tessera
