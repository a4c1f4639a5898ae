// User functions of the skeletons. C++ callables (functor objects; on CUDA
// their operator() must be TS_FN, i.e. __host__ __device__) run on the CPU and
// CUDA backends; OpenCL runs OpenCL C source text, around which the library
// generates the kernel (as SkelCL does). Portable<F> pairs both, so one
// skeleton call runs on every backend (docs/skeleton.md shows the per-point
// function written once, in a C99 header, for all three).
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

namespace tessera::skeleton {

/// An OpenCL C function given as source text: `name` is the function the
/// kernel calls; `source` may define helpers too; `origin` names the source
/// in compiler messages (lines are the user's: the kernel is generated around
/// it with #line markers).
struct ClFunction {
  std::string source;
  std::string name;
  std::string origin = "user function";
  /// Extra OpenCL build options, e.g. -cl-fp32-correctly-rounded-divide-sqrt
  /// where the function must give the bits of IEEE division.
  std::string options = {};
};

/// A C++ functor and the same function as OpenCL C source.
template <class F>
struct Portable {
  F cxx;
  ClFunction cl;
};
template <class F>
Portable<F> portable(F f, ClFunction cl) {
  return {std::move(f), std::move(cl)};
}

namespace detail {
[[noreturn]] void throw_no_cl();
template <class Fn>
struct UserFn {  // a C++ functor only
  static constexpr bool has_cxx = true, has_cl = false;
  static const Fn& cxx(const Fn& f) { return f; }
  static const ClFunction& cl(const Fn&) { throw_no_cl(); }
};
template <>
struct UserFn<ClFunction> {
  static constexpr bool has_cxx = false, has_cl = true;
  static int cxx(const ClFunction&) { return 0; }
  static const ClFunction& cl(const ClFunction& f) { return f; }
};
template <class F>
struct UserFn<Portable<F>> {
  static constexpr bool has_cxx = true, has_cl = true;
  static const F& cxx(const Portable<F>& f) { return f.cxx; }
  static const ClFunction& cl(const Portable<F>& f) { return f.cl; }
};
}  // namespace detail

/// The OpenCL C name of an element type (scalars only; specialise for your
/// own types together with a `declaration` to prepend).
template <class T>
struct ClType {
  static constexpr const char* name = nullptr;
  static constexpr const char* declaration = "";
};
#define TS_SKEL_CL_TYPE(T, N)                      \
  template <>                                      \
  struct ClType<T> {                               \
    static constexpr const char* name = N;         \
    static constexpr const char* declaration = ""; \
  };
TS_SKEL_CL_TYPE(float, "float")
TS_SKEL_CL_TYPE(double, "double")
TS_SKEL_CL_TYPE(std::int8_t, "char")
TS_SKEL_CL_TYPE(std::uint8_t, "uchar")
TS_SKEL_CL_TYPE(std::int16_t, "short")
TS_SKEL_CL_TYPE(std::uint16_t, "ushort")
TS_SKEL_CL_TYPE(std::int32_t, "int")
TS_SKEL_CL_TYPE(std::uint32_t, "uint")
TS_SKEL_CL_TYPE(std::int64_t, "long")
TS_SKEL_CL_TYPE(std::uint64_t, "ulong")
#undef TS_SKEL_CL_TYPE

}  // namespace tessera::skeleton
