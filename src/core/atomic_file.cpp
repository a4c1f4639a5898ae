#include "core/atomic_file.hpp"

#include <cstdio>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/fault_injection.hpp"

namespace tessera {

namespace {
[[noreturn]] void fail(const std::filesystem::path& path, const char* step, int err) {
  throw Error("cannot write '" + path.string() + "' (" + step + "): " + std::strerror(err));
}
}  // namespace

void write_file_atomic(const std::filesystem::path& path, std::string_view data) {
  std::random_device rd;
  auto tmp = path;
  tmp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rd());
  // fault::inject: test-only failures (TESSERA_FAULT=write_open|write|write_rename|write_<kind>).
  int fd = fault::inject(fault::Point::write_open)
               ? (errno = EACCES, -1)
               : ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "open", errno);
  // write_<kind> (write_png, write_json, ...): the disk fills up when half of
  // this file's bytes are written.
  const fault::Point kind = fault::write_point_for(path.filename().c_str());
  const std::size_t room =
      kind != fault::Point::count_ && fault::inject(kind) ? data.size() / 2 : data.size();
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t w = fault::inject(fault::Point::write) || done >= room
                    ? (errno = ENOSPC, -1)
                    : ::write(fd, data.data() + done, room - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      fail(path, "write", err);
    }
    done += static_cast<std::size_t>(w);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    fail(path, "fsync/close", err);
  }
  if (fault::inject(fault::Point::write_rename) ? (errno = EACCES, true)
                                                : ::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    fail(path, "rename", err);
  }
  // Make the rename itself durable (best effort: some file systems refuse
  // fsync on directories, and the data is already safe under either name).
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  if (int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

std::string read_file(const std::filesystem::path& path, std::string_view what) {
  const std::string head = path.string() + ": cannot ";
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error(head + "open the " + std::string(what) + ": it is a directory");
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw Error(head + "open the " + std::string(what) + ": " + std::strerror(errno));
  const std::streamoff size = in.tellg();
  if (size < 0) throw Error(head + "read the " + std::string(what) + " (its size is unknown)");
  std::string data(static_cast<std::size_t>(size), '\0');
  in.seekg(0);
  if (!in.read(data.data(), size))
    throw Error(head + "read the " + std::string(what) +
                fmt::format(" ({} of {} bytes read)", in.gcount(), size));
  return data;
}

namespace {
int output_fd = STDOUT_FILENO;  // where write_output("-") writes
}  // namespace

void reserve_stdout_for_output() {
  if (output_fd != STDOUT_FILENO) return;
  std::fflush(stdout);
  const int saved = ::dup(STDOUT_FILENO);
  if (saved < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    throw Error(std::string("standard output: cannot keep it for the JSON output: ") +
                std::strerror(errno));
  output_fd = saved;
}

void write_output(const std::string& path, std::string_view data) {
  if (path != "-") return write_file_atomic(path, data);
  std::fflush(stdout);
  for (std::size_t done = 0; done < data.size();) {
    const ssize_t n = ::write(output_fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw Error(std::string("standard output: cannot write the JSON output: ") +
                  std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace tessera
