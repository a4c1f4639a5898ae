#include "backends/opencl/cl_program_cache.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "backends/opencl/cl_binary_entry.hpp"
#include "core/atomic_file.hpp"
#include "core/embedded_sources.hpp"
#include "core/env.hpp"
#include "core/error.hpp"
#include "core/fault_injection.hpp"
#include "core/hash.hpp"

namespace tessera::opencl {

namespace {

std::string build_log(const cl::Program& p, const cl::Device& d) {
  std::string log;
  p.getBuildInfo(d, CL_PROGRAM_BUILD_LOG, &log);
  return log;
}

// Options appended to every build (TESSERA_CL_OPTIONS), for diagnostics such
// as NVIDIA's -cl-nv-verbose (registers and spills in the build log) or
// -cl-nv-maxrregcount=N; part of the cache key like any option.
std::string extra_options() {
  const auto e = env_string("TESSERA_CL_OPTIONS");
  return e ? " " + *e : std::string();
}

}  // namespace

ProgramCache::ProgramCache(cl::Context ctx, cl::Device dev, std::string device_key)
    : context_(std::move(ctx)), device_(std::move(dev)), device_key_(std::move(device_key)) {}

std::filesystem::path ProgramCache::directory() {
  if (env_choice("TESSERA_CL_CACHE", "on", {"on", "off"}) == "off") return {};
  if (const auto d = env_string("TESSERA_CACHE_DIR")) return std::filesystem::path(*d) / "opencl";
  if (const auto x = env_string("XDG_CACHE_HOME"))
    return std::filesystem::path(*x) / "tessera" / "opencl";
  if (const auto h = env_string("HOME"))
    return std::filesystem::path(*h) / ".cache" / "tessera" / "opencl";
  return {};
}

const cl::Program& ProgramCache::get(const std::string& name, const std::string& given) {
  const std::string options = given + extra_options();
  const std::string key = name + '\n' + options;
  if (auto it = programs_.find(key); it != programs_.end()) return it->second;

  const std::string source = expand_includes(name);
  std::uint64_t h = fnv1a64(source);
  h = fnv1a64(options, h);
  h = fnv1a64(device_key_, h);
  std::filesystem::path dir = directory(), file;
  cl::Program program;
  bool loaded = false;
  // An injected build failure (TESSERA_FAULT=opencl_build) must reach the build.
  if (!dir.empty() && !fault::armed(fault::Point::opencl_build)) {
    file = dir / fmt::format("{:016x}.bin", h);
    loaded = try_load_binary(file, options, program);
  }
  if (!loaded) {
    program = build_from_source(name, source, options);
    if (!dir.empty()) store_binary(file, program);
  }
  return programs_.emplace(key, std::move(program)).first->second;
}

cl::Program ProgramCache::build_from_source(const std::string& name, const std::string& source,
                                            const std::string& options) {
  cl_int err = CL_SUCCESS;
  cl::Program program(context_, source, false, &err);
  cl_check(err, "clCreateProgramWithSource", "creating program " + name);
  err = fault::inject(fault::Point::opencl_build)
            ? CL_BUILD_PROGRAM_FAILURE
            : program.build(std::vector<cl::Device>{device_}, options.c_str());
  if (err != CL_SUCCESS)
    throw BuildError(fmt::format("OpenCL build of '{}' failed ({}) with options '{}':\n{}", name,
                                 error_name(err), options, build_log(program, device_)));
  // TESSERA_CL_BUILD_LOG=1: every build's log on stderr (a cached program is
  // not built: TESSERA_CL_CACHE=off builds each one)
  if (env_flag("TESSERA_CL_BUILD_LOG", false))
    fmt::print(stderr, "OpenCL build log of '{}' with options '{}':\n{}\n", name, options,
               build_log(program, device_));
  return program;
}

bool ProgramCache::try_load_binary(const std::filesystem::path& file, const std::string& options,
                                   cl::Program& out) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) return false;
  const auto size = static_cast<std::uint64_t>(in.tellg());
  if (size > kMaxBinaryEntryBytes + 24) return false;
  std::string entry(size, '\0');
  in.seekg(0);
  if (!in.read(entry.data(), static_cast<std::streamsize>(entry.size()))) return false;
  const auto bin = parse_binary_entry(entry);
  if (!bin) return false;  // truncated, foreign or corrupt: rebuild from source
  cl::Program::Binaries binaries{std::vector<unsigned char>(bin->begin(), bin->end())};
  std::vector<cl_int> status;
  cl_int err = CL_SUCCESS;
  cl::Program program(context_, {device_}, binaries, &status, &err);
  if (err != CL_SUCCESS) return false;
  if (program.build(std::vector<cl::Device>{device_}, options.c_str()) != CL_SUCCESS) return false;
  out = std::move(program);
  return true;
}

void ProgramCache::store_binary(const std::filesystem::path& file, const cl::Program& program) {
  cl::Program::Binaries binaries;
  if (program.getInfo(CL_PROGRAM_BINARIES, &binaries) != CL_SUCCESS || binaries.empty() ||
      binaries[0].empty())
    return;  // the driver offers no binary; nothing to cache
  const auto& b = binaries[0];
  const std::string data =
      format_binary_entry(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
  try {
    std::filesystem::create_directories(file.parent_path());
    write_file_atomic(file, data);
  } catch (const std::exception&) {
    // A read-only or full cache directory costs a rebuild next time, nothing more.
  }
}

}  // namespace tessera::opencl
