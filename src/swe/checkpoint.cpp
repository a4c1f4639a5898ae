#include "swe/checkpoint.hpp"

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace tessera::swe {

void write_swe_checkpoint(const std::filesystem::path& path, const SweCheckpoint& c,
                          double thesis_dt) {
  write_file_atomic(path, format_swe_checkpoint(c, thesis_dt));
}

SweCheckpoint read_swe_checkpoint(const std::filesystem::path& path) {
  SweCheckpoint c = parse_swe_checkpoint(read_file(path, "checkpoint"), path.string());
  validate_swe_state(c, path.string());  // before any solver or device buffer exists
  return c;
}

void check_restart_config(const SweCheckpoint& c, const std::string& model,
                          const std::string& precision, long nx, long ny,
                          const nlohmann::ordered_json& config, const std::string& file) {
  auto differs = [&](const std::string& field, const std::string& theirs, const std::string& ours) {
    return UsageError(fmt::format(
        "{}: the checkpoint was written with {} {}, this run has {} {}; restart with the "
        "options of the run that wrote it",
        file, field, theirs, field, ours));
  };
  if (c.model() != model) throw differs("--model", c.model(), model);
  if (c.precision() != precision) throw differs("--precision", c.precision(), precision);
  if (c.nx() != nx || c.ny() != ny)
    throw differs("the grid", fmt::format("{}x{}", c.nx(), c.ny()), fmt::format("{}x{}", nx, ny));
  for (const auto& [key, ours] : config.items()) {
    if (!c.config.contains(key))
      throw Error(
          fmt::format("{}: the checkpoint's configuration has no '{}' (written by another tessera "
                      "version?)",
                      file, key));
    const nlohmann::json& theirs = c.config.at(key);
    if (theirs.dump() != ours.dump()) {  // both written by this code: equal values dump alike
      if (key == "bed")
        throw UsageError(
            fmt::format("{}: the bathymetry (bed elevation, cell size or origin) differs from the "
                        "checkpoint's run",
                        file));
      auto text = [](const auto& v) {
        return v.is_string() ? v.template get<std::string>() : v.dump();
      };
      throw differs("--" + key, text(theirs), text(ours));
    }
  }
}

}  // namespace tessera::swe
