// Checks for numeric options, shared by every sub-command. CLI11's own
// Range/PositiveNumber compare with < and >, which NaN passes; these refuse
// NaN and ±inf first, so a value the user gave is used or refused (exit 2,
// naming the option, the value and the allowed range), never read as "not
// given" by a sentinel test further down.
#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "io/case_file.hpp"

namespace tessera::app {

/// A finite number (no NaN, no ±inf). main() adds it to every FLOAT option of
/// every command (require_finite_everywhere), so a command need not.
CLI::Validator finite_number();

/// lo < x < hi, lo <= x < hi, ... : `open_lo`/`open_hi` exclude the ends.
/// The message names the interval in mathematical notation.
CLI::Validator interval(double lo, double hi, bool open_lo, bool open_hi);
inline CLI::Validator positive() { return interval(0, 1e308, true, false); }  ///< 0 < x (finite)
inline CLI::Validator non_negative() {
  return interval(0, 1e308, false, false);
}  ///< 0 <= x (finite)

/// The items of the comma-separated value `value` of option `option`
/// ("vti,png": {"vti", "png"}; "": none), as given (no trimming). An empty
/// item ("a,,b", ",a", "a,") is a UsageError (exit 2) naming the option and
/// the value. Every list-valued option and --param of the CLI splits here.
std::vector<std::string> split_list(const std::string& option, const std::string& value);

/// Adds finite_number() to every FLOAT option of `app` and its sub-commands
/// (also to values a case file hands over through run_callback()).
void require_finite_everywhere(CLI::App& app);

}  // namespace tessera::app

namespace tessera::app {

/// Before a command computes or writes anything: every output file it was
/// given (--json FILE, --checkpoint, --export, --out FILE, a positional `out`)
/// must go into an existing writable folder (or into the command's output
/// folder), and an output folder (--out of lbm, swe, report, demo) must exist
/// or be creatable under one; an
/// Error (exit 1, as for any unwritable path) names the option and the path
/// otherwise. Probed by
/// creating and removing a file in the nearest existing folder: nothing is
/// left behind, and a read-only or full filesystem is caught as well as a
/// path under a regular file.
void probe_output_paths(CLI::App& command);

/// `--config FILE`: the case file's top-level keys become the options of
/// `command` that the command line did not give (an array gives a
/// multi-value option its values); entries in tables are the command's own
/// business and skipped. An unknown key, `config` itself, or a value the
/// option refuses is a UsageError naming file:line.
void apply_case_file_options(CLI::App& cmd, const std::string& path,
                             const std::vector<io::CaseFileEntry>& entries,
                             const std::string& command);

}  // namespace tessera::app
