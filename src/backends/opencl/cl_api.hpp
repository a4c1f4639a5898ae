// The Khronos C++ bindings, configured once for the whole project. Exceptions
// of the bindings are off: every call's status is checked by cl_check().
#pragma once
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 300
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#endif
#include <CL/opencl.hpp>

#include <string>
#include <string_view>

namespace tessera::opencl {

const char* error_name(cl_int code) noexcept;
[[noreturn]] void throw_cl_error(cl_int code, const char* call, std::string_view what);

/// Throws BackendError("OpenCL", call, code, what) unless code == CL_SUCCESS.
inline void cl_check(cl_int code, const char* call, std::string_view what) {
  if (code != CL_SUCCESS) [[unlikely]]
    throw_cl_error(code, call, what);
}

}  // namespace tessera::opencl
