#include "backends/opencl/cl_program_cache.hpp"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/embedded_sources.hpp"
#include "core/error.hpp"
#include "core/hash.hpp"

namespace tessera::opencl {

namespace {

constexpr char kMagic[8] = {'T', 'S', 'C', 'L', 'B', 'I', 'N', '1'};

struct BinaryHeader {
  char magic[8];
  std::uint64_t size;
  std::uint64_t checksum;
};

std::string build_log(const cl::Program& p, const cl::Device& d) {
  std::string log;
  p.getBuildInfo(d, CL_PROGRAM_BUILD_LOG, &log);
  return log;
}

}  // namespace

ProgramCache::ProgramCache(cl::Context ctx, cl::Device dev, std::string device_key)
    : context_(std::move(ctx)), device_(std::move(dev)), device_key_(std::move(device_key)) {}

std::filesystem::path ProgramCache::directory() {
  if (const char* off = std::getenv("TESSERA_CL_CACHE"); off && std::strcmp(off, "off") == 0)
    return {};
  if (const char* d = std::getenv("TESSERA_CACHE_DIR"); d && *d) return std::filesystem::path(d) / "opencl";
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::filesystem::path(x) / "tessera" / "opencl";
  if (const char* h = std::getenv("HOME"); h && *h)
    return std::filesystem::path(h) / ".cache" / "tessera" / "opencl";
  return {};
}

const cl::Program& ProgramCache::get(const std::string& name, const std::string& options) {
  const std::string key = name + '\n' + options;
  if (auto it = programs_.find(key); it != programs_.end()) return it->second;

  const std::string source = expand_includes(name);
  std::uint64_t h = fnv1a64(source);
  h = fnv1a64(options, h);
  h = fnv1a64(device_key_, h);
  std::filesystem::path dir = directory(), file;
  cl::Program program;
  bool loaded = false;
  if (!dir.empty()) {
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
  err = program.build(std::vector<cl::Device>{device_}, options.c_str());
  if (err != CL_SUCCESS)
    throw BuildError(fmt::format("OpenCL build of '{}' failed ({}) with options '{}':\n{}", name,
                                 error_name(err), options, build_log(program, device_)));
  return program;
}

bool ProgramCache::try_load_binary(const std::filesystem::path& file, const std::string& options,
                                   cl::Program& out) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  BinaryHeader hdr{};
  if (!in.read(reinterpret_cast<char*>(&hdr), sizeof hdr) ||
      std::memcmp(hdr.magic, kMagic, sizeof kMagic) != 0 || hdr.size == 0 || hdr.size > (1u << 30))
    return false;
  std::string bin(hdr.size, '\0');
  if (!in.read(bin.data(), static_cast<std::streamsize>(bin.size())) ||
      fnv1a64(bin) != hdr.checksum)
    return false;  // truncated or corrupt: rebuild from source
  cl::Program::Binaries binaries{std::vector<unsigned char>(bin.begin(), bin.end())};
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
  BinaryHeader hdr{};
  std::memcpy(hdr.magic, kMagic, sizeof kMagic);
  hdr.size = b.size();
  std::string_view bytes(reinterpret_cast<const char*>(b.data()), b.size());
  hdr.checksum = fnv1a64(bytes);
  std::string data(reinterpret_cast<const char*>(&hdr), sizeof hdr);
  data.append(bytes);
  try {
    std::filesystem::create_directories(file.parent_path());
    write_file_atomic(file, data);
  } catch (const std::exception&) {
    // A read-only or full cache directory costs a rebuild next time, nothing more.
  }
}

}  // namespace tessera::opencl
