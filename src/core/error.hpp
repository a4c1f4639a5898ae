// The error model: every failure becomes one of these exceptions, carrying enough
// context to act on. main() maps them to exit codes (1 runtime, 2 usage).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace tessera {

/// A runtime failure (exit code 1).
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
  virtual int exit_code() const noexcept { return 1; }
};

/// The user asked for something that cannot be (exit code 2): bad option,
/// unknown device id, backend not built in.
class UsageError : public Error {
 public:
  using Error::Error;
  int exit_code() const noexcept override { return 2; }
};

/// An OpenCL/CUDA call failed. Names the backend, the call, its code and what
/// tessera was doing at the time.
class BackendError : public Error {
 public:
  BackendError(std::string backend, std::string call, std::int64_t code, std::string code_name,
               std::string context);
  const std::string& backend() const noexcept { return backend_; }
  const std::string& call() const noexcept { return call_; }
  std::int64_t code() const noexcept { return code_; }

 private:
  std::string backend_, call_;
  std::int64_t code_;
};

/// An allocation that cannot fit. Says how much was needed and how much there is.
class OutOfMemory : public Error {
 public:
  OutOfMemory(std::string where, std::uint64_t requested, std::uint64_t available);
  std::uint64_t requested() const noexcept { return requested_; }

 private:
  std::uint64_t requested_;
};

/// A run-time kernel compilation failed; what() includes the compiler log.
class BuildError : public Error {
 public:
  using Error::Error;
};

/// "1.50 GiB" style formatting for messages.
std::string format_bytes(std::uint64_t bytes);

}  // namespace tessera
