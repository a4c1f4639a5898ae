// Generated OpenCL skeleton kernels: the user's OpenCL C source between the
// prelude (skel_prelude.cl) and the kernel template (skel_template.cl), with
// #line markers so that compiler messages carry the user's line numbers.
// Programs are built per device and kept in memory (user source is not an
// embedded file, so the on-disk cache of ProgramCache does not apply).
#include "skeleton/kernels/skel_opencl.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <mutex>

#include <fmt/format.h>

#include "backends/opencl/cl_device.hpp"
#include "core/embedded_sources.hpp"
#include "core/error.hpp"
#include "skeleton/kernels/skel_access.h"  // TS_SKEL_Z_CELLS

namespace tessera::skeleton::kernels::cl {

namespace {

struct Cache {
  std::mutex mutex;
  std::map<std::pair<const Device*, std::string>,
           std::pair<std::weak_ptr<const Device>, ::cl::Program>>
      programs;
  // Binaries per physical device: logical replicas of one device (separate
  // contexts, as multi-device tests use) load them instead of recompiling.
  std::map<std::pair<cl_device_id, std::string>, std::vector<unsigned char>> binaries;
};
Cache& cache() {
  static Cache c;
  return c;
}

std::string build_log(const ::cl::Program& p, const ::cl::Device& d) {
  std::string log;
  p.getBuildInfo(d, CL_PROGRAM_BUILD_LOG, &log);
  return log;
}

/// Compilers that ignore #line (NVIDIA's reports "<kernel>:N:") number lines
/// in the generated program: rewrite those in the user's part as origin:line.
std::string user_lines(const std::string& log, const std::string& origin, long first, long count) {
  static const std::regex position(R"(<kernel>:(\d+):)");
  std::string out;
  auto last = log.cbegin();
  for (std::sregex_iterator it(log.begin(), log.end(), position), end; it != end; ++it) {
    const long line = std::stol((*it)[1].str()) - first + 1;
    out.append(last, (*it)[0].first);
    out += line >= 1 && line <= count ? fmt::format("{}:{}:", origin, line) : (*it)[0].str();
    last = (*it)[0].second;
  }
  out.append(last, log.cend());
  return out;
}

/// The kernel `kernel` of the program made of `f` and the template with `defines`.
::cl::Kernel generated(Device& dev, const ClFunction& f, const std::string& element_type,
                       const std::string& declaration, const std::string& defines,
                       const char* kernel, const std::string& extra_source = {}) {
  const std::string options = defines + fmt::format(" -DTS_SKEL_F={} {}", f.name, f.options);
  // What decides the program, without the templates' text, which does not
  // change within a process: every launch looks its program up, and
  // building and comparing the whole 76 kB source each time cost ~85 us of
  // host time per launch (docs/skeleton.md, "Performance").
  const std::string key =
      fmt::format("{}\n{}\n{}\n{}\n", options, element_type, declaration, f.origin) + f.source +
      '\n' + extra_source;
  auto& ocl = opencl::device_of(dev);
  auto& c = cache();
  std::lock_guard lock(c.mutex);
  // A cl::Program holds its context: drop those of devices that are gone, or
  // every opened-and-closed device leaks a context (NVIDIA's driver refuses
  // new contexts with CL_OUT_OF_HOST_MEMORY after a few dozen).
  std::erase_if(c.programs, [](const auto& e) { return e.second.first.expired(); });
  auto it = c.programs.find({&dev, key});
  if (it == c.programs.end()) {
    const bool fp64 = defines.find("double") != std::string::npos || element_type == "double";
    std::string src = fmt::format("#define ts_real {}\n{}{}\n", element_type,
                                  fp64 ? "#define TS_DOUBLE 1\n" : "", declaration);
    src += expand_includes("skeleton/kernels/skel_prelude.cl");
    src += fmt::format("\n#line 1 \"{}\"\n", f.origin);
    const long user_first_line = 1 + static_cast<long>(std::count(src.begin(), src.end(), '\n'));
    const long user_line_count =
        1 + static_cast<long>(std::count(f.source.begin(), f.source.end(), '\n'));
    src += f.source;
    src += "\n" + extra_source;
    src += expand_includes("skeleton/kernels/skel_template.cl");
    ::cl::Program program;
    auto bin = c.binaries.find({ocl.native()(), key});
    bool loaded = false;
    if (bin != c.binaries.end()) {
      cl_int err = CL_SUCCESS;
      std::vector<cl_int> status;
      program = ::cl::Program(ocl.context(), {ocl.native()}, ::cl::Program::Binaries{bin->second},
                              &status, &err);
      loaded = err == CL_SUCCESS && program.build(std::vector<::cl::Device>{ocl.native()},
                                                  options.c_str()) == CL_SUCCESS;
    }
    if (!loaded) {
      cl_int err = CL_SUCCESS;
      program = ::cl::Program(ocl.context(), src, false, &err);
      opencl::cl_check(err, "clCreateProgramWithSource", "creating the program of " + f.origin);
      err = program.build(std::vector<::cl::Device>{ocl.native()}, options.c_str());
      if (err != CL_SUCCESS)
        throw BuildError(
            fmt::format("OpenCL build of the skeleton kernel around '{}' ({}) failed ({}); the "
                        "compiler's messages name '{}' with the line numbers of your source:\n{}",
                        f.name, f.origin, opencl::error_name(err), f.origin,
                        user_lines(build_log(program, ocl.native()), f.origin, user_first_line,
                                   user_line_count)));
      ::cl::Program::Binaries binaries;
      if (program.getInfo(CL_PROGRAM_BINARIES, &binaries) == CL_SUCCESS && binaries.size() == 1 &&
          !binaries[0].empty())
        c.binaries[{ocl.native()(), key}] = std::move(binaries[0]);
    }
    it = c.programs
             .insert_or_assign({&dev, key},
                               std::make_pair(std::weak_ptr<const Device>(dev.shared_from_this()),
                                              std::move(program)))
             .first;
  }
  cl_int err = CL_SUCCESS;
  ::cl::Kernel k(it->second.second, kernel, &err);
  opencl::cl_check(err, "clCreateKernel",
                   fmt::format("{} around '{}': is the function name right?", kernel, f.name));
  return k;
}

std::size_t sz(index_t v) { return static_cast<std::size_t>(v); }

/// Work-items along z: each takes TS_SKEL_Z_CELLS cells (skel_access.h).
std::size_t z_items(const Box& b) {
  return sz((b.extent(2) + TS_SKEL_Z_CELLS - 1) / TS_SKEL_Z_CELLS);
}

/// The launch parameters of box b of a part whose local (0, 0, 0) is global lo.
ts_skel_box box_params(const Box& b, const Index3& lo) {
  return {
      {b.lo[0], b.lo[1], b.lo[2]}, {b.extent(0), b.extent(1), b.extent(2)}, {lo[0], lo[1], lo[2]}};
}

}  // namespace

void map(Device& dev, Queue& q, const ClFunction& f, MapKind kind, int dims, const ClView& a,
         const ClView* b, const ClView& out, const Box& box, const Index3& lo, int components) {
  if (box.empty()) return;
  const ClView& vb = b ? *b : a;
  const std::string defines = fmt::format(
      "-DTS_SKEL_KIND={} -DTS_SKEL_DIMS={} -DTS_SKEL_T={} -DTS_SKEL_U={} -DTS_SKEL_R={}",
      static_cast<int>(kind), dims, a.type, vb.type, out.type);
  const std::string decl = a.declaration + vb.declaration + out.declaration;
  ::cl::Kernel k = generated(dev, f, a.type, decl, defines, "ts_skel_map");
  opencl::set_args(k, box_params(box, lo), cl_int(components), opencl::mem(a.handle), a.params(),
                   opencl::mem(vb.handle), vb.params(), opencl::mem(out.handle), out.params());
  opencl::queue_of(q).launch(k, ::cl::NDRange(sz(box.extent(0)), sz(box.extent(1)), z_items(box)),
                             ::cl::NullRange, "skeleton map/zip");
}

void stencil(Device& dev, Queue& q, const ClFunction& f, const ClBoundary& bd, bool fill,
             const ClView& in, const ClView& out, const BoxList& boxes, const Index3& lo) {
  std::string defines = fmt::format("-DTS_SKEL_KIND=4 -DTS_SKEL_FILL={}", fill ? 1 : 0);
  std::string extra;
  if (fill && bd.user) {
    defines += " -DTS_SKEL_USER_BOUNDARY=" + bd.user->name;
    if (bd.user->source != f.source)
      extra = fmt::format("#line 1 \"{}\"\n{}\n", bd.user->origin, bd.user->source);
  }
  ::cl::Kernel k = generated(dev, f, in.type, in.declaration, defines,
                             fill ? "ts_skel_fill" : "ts_skel_stencil", extra);
  for (int i = 0; i < boxes.count; ++i) {
    const Box& b = boxes.box[i];
    if (b.empty()) continue;
    if (fill) {
      opencl::set_args(k, box_params(b, lo), opencl::mem(in.handle), in.params(), bd.bounds);
      opencl::set_arg(k, 4, bd.neutral.size(), bd.neutral.data());  // an element of any type
      opencl::queue_of(q).launch(k,
                                 ::cl::NDRange(sz(b.extent(0)), sz(b.extent(1)), sz(b.extent(2))),
                                 ::cl::NullRange, "skeleton stencil ghost fill");
    } else {
      opencl::set_args(k, box_params(b, lo), opencl::mem(in.handle), in.params(),
                       opencl::mem(out.handle), out.params());
      opencl::queue_of(q).launch(k, ::cl::NDRange(sz(b.extent(0)), sz(b.extent(1)), z_items(b)),
                                 ::cl::NullRange, "skeleton stencil");
    }
  }
}

void reduce_rows(Device& dev, Queue& q, const ClFunction& f, const ClView& in, index_t len,
                 index_t rows_y, index_t rows, void* out_handle, index_t chunks) {
  if (rows == 0) return;
  ::cl::Kernel k =
      generated(dev, f, in.type, in.declaration, "-DTS_SKEL_KIND=5", "ts_skel_reduce_rows");
  opencl::set_args(k, opencl::mem(in.handle), in.params(), cl_long(len), cl_long(rows_y),
                   opencl::mem(out_handle), cl_long(chunks));
  opencl::queue_of(q).launch(k, ::cl::NDRange(sz(rows * chunks) * TS_REDUCE_THREADS),
                             ::cl::NDRange(TS_REDUCE_THREADS), "skeleton fold");
}

}  // namespace tessera::skeleton::kernels::cl
