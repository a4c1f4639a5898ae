// Run-time compilation of embedded OpenCL programs with a two-level cache:
// in memory per device, and on disk keyed by a hash of the expanded source,
// the build options, the device and the driver version. A disk entry carries a
// checksum; a corrupt or stale entry is rebuilt from source, never trusted.
#pragma once
#include <filesystem>
#include <map>
#include <string>

#include "backends/opencl/cl_api.hpp"

namespace tessera::opencl {

class ProgramCache {
 public:
  ProgramCache(cl::Context ctx, cl::Device dev, std::string device_key);
  /// The built program `name` (an embedded source path) with `options`.
  /// Throws BuildError with the compiler log when compilation fails.
  const cl::Program& get(const std::string& name, const std::string& options);

  /// Where binaries are cached: $TESSERA_CACHE_DIR, else $XDG_CACHE_HOME/tessera,
  /// else ~/.cache/tessera; empty (no disk cache) if TESSERA_CL_CACHE=off.
  static std::filesystem::path directory();

 private:
  cl::Program build_from_source(const std::string& name, const std::string& source,
                                const std::string& options);
  bool try_load_binary(const std::filesystem::path& file, const std::string& options,
                       cl::Program& out);
  void store_binary(const std::filesystem::path& file, const cl::Program& program);

  cl::Context context_;
  cl::Device device_;
  std::string device_key_;
  std::map<std::string, cl::Program> programs_;
};

}  // namespace tessera::opencl
