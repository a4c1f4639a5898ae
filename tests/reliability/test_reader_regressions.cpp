// Regression tests for what fuzzing (tests/fuzz) and the sanitizer build found
// in the readers of external data, and unit tests of the reliability core
// (interrupt flag, OpenCL cache entry format, atomic writes). See
// docs/reliability.md for the list of findings.
#include <gtest/gtest.h>

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "backends/opencl/cl_binary_entry.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "test_support.hpp"
#include "core/hash.hpp"
#include "core/interrupt.hpp"
#include "io/npy.hpp"
#include "lbm/checkpoint_format.hpp"
#include "io/case_file.hpp"
#include "swe/cases.hpp"

namespace tessera {
namespace {

std::filesystem::path scratch(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("tessera_rel_" + std::to_string(::getpid()) + "_" + name);
}

std::filesystem::path put(const std::string& name, const std::string& bytes) {
  const auto p = scratch(name);
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

/// Runs f, expects a tessera::Error whose message contains `part`.
template <class F>
void expect_error(F&& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one mentioning '" << part << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

using test::npy_v1;

// Fuzzing: a shape of 2^39 elements in a 100-byte file made read_npy allocate
// 4 TiB before noticing the file was short.
TEST(ReaderRegressions, NpyForgedShapeIsRejectedBeforeAllocating) {
  const auto p = put(
      "shape.npy", npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (524288, 1048576), }",
                          std::string(16, '\0')));
  expect_error([&] { io::read_npy(p); }, "data truncated");
  std::filesystem::remove(p);
}

// Fuzzing: std::regex recursed once per character of an unterminated quoted
// value and overflowed the stack on a large header.
TEST(ReaderRegressions, NpyLongUnterminatedHeaderValueIsAnError) {
  std::string dict = "{'descr': '" + std::string(300000, 'x');
  std::string bytes("\x93NUMPY\x02\x00", 8);
  const std::uint32_t n = static_cast<std::uint32_t>(dict.size());
  bytes.append(reinterpret_cast<const char*>(&n), 4);
  const auto p = put("long.npy", bytes + dict);
  expect_error([&] { io::read_npy(p); }, "dtype missing");
  std::filesystem::remove(p);
}

// The hand-written header scanner still reads what NumPy writes.
TEST(ReaderRegressions, NpyHeaderScannerReadsNumpyHeaders) {
  const double v[3] = {1.5, -2, 3};
  const auto p = put("ok.npy", npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }",
                                      std::string(reinterpret_cast<const char*>(v), sizeof v)));
  const auto a = io::read_npy(p);
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{3}));
  EXPECT_EQ(a.data, (std::vector<double>{1.5, -2, 3}));
  std::filesystem::remove(p);
}

// Fuzzing: an ESRI header announcing 10^9 x 10^9 cells made read_asc reserve
// 8 * 10^18 bytes.
TEST(ReaderRegressions, AscForgedHeaderIsRejectedBeforeAllocating) {
  const auto p =
      put("big.asc",
          "ncols 1000000000\nnrows 1000000000\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n");
  expect_error([&] { swe::read_asc(p.string()); }, "more than the rest of the file");
  std::filesystem::remove(p);
}

// Fuzzing found five inputs on which toml++ 3.3 (the case-file reader until
// 2026-11-23) reached __builtin_unreachable() or failed an internal assertion.
// The flat parser that replaced it must refuse each with file:line:column.
TEST(ReaderRegressions, CaseFileInputsThatCrashedTomlppAreRefusedWithPosition) {
  const struct {
    std::string name, bytes, message;
  } cases[] = {
      {"nonascii.toml",
       "case = \"ritter\"\ns\xc4\x8d"
       "1.0plng\n",
       "nonascii.toml:2:2: non-ASCII byte 0xC4"},
      {"nul.toml",
       std::string("flag = true\n[\0\0\0"
                   "1t\n",
                   19),
       "nul.toml:2:2: control character 0x00"},
      {"table.toml", "flag = true\n  [ = [0, 2]\n", "table.toml:2:3: tables"},
      {"array.toml", "# x = [\nel = [}e", "array.toml:2:6: arrays and inline tables"},
      {"datetime.toml", "  l =9920-00-09 0 7_7_;e3_2_ 5\ta==",
       "datetime.toml:1:6: '9920-00-09' is not a valid value: dates"},
  };
  for (const auto& c : cases) {
    const auto p = put(c.name, c.bytes);
    try {
      io::read_case_file(p.string());
      ADD_FAILURE() << c.name << " accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
    std::filesystem::remove(p);
  }
}

std::string reseal(std::string bytes) {
  const std::uint64_t sum = fnv1a64(std::string_view(bytes).substr(0, bytes.size() - 8));
  std::memcpy(bytes.data() + bytes.size() - 8, &sum, 8);
  return bytes;
}

std::string checkpoint_with_header(const std::string& json) {
  std::string out("TSLBMCK1", 8);
  const std::uint64_t n = json.size();
  out.append(reinterpret_cast<const char*>(&n), 8);
  return reseal(out + json + std::string(8, '\0'));
}

const char* kHeader =
    R"({"collision":"bgk","force":[0,0,0],"grid":[GRID],"lattice":"D3Q19","precision":"fp32",)"
    R"("rho_out":1,"tau":0.6,"time":TIME,"trt_magic":0.1875,"u_in":[0,0,0],"u_wall":[0,0,0]})";

std::string header(const std::string& grid, const std::string& time) {
  std::string h = kHeader;
  h.replace(h.find("GRID"), 4, grid);
  h.replace(h.find("TIME"), 4, time);
  return h;
}

// Fuzzing/review: read_checkpoint built a Solver (allocating the header's
// lattice) before comparing the file size with it, and converted JSON numbers
// to long without range checks (undefined behaviour for 1e300).
TEST(ReaderRegressions, LbmCheckpointForgedHeadersAreRejected) {
  expect_error(
      [&] {
        lbm::parse_checkpoint(checkpoint_with_header(header("100000,100000,100000", "0")), "c");
      },
      "the header's lattice needs");
  expect_error(
      [&] {
        lbm::parse_checkpoint(
            checkpoint_with_header(header("4294967296,4294967296,4294967296", "0")), "c");
      },
      "too large");
  expect_error(
      [&] { lbm::parse_checkpoint(checkpoint_with_header(header("2,2,2", "1e300")), "c"); },
      "'time' is not an integer");
  expect_error([&] { lbm::parse_checkpoint(checkpoint_with_header(header("2.5,2,2", "0")), "c"); },
               "'grid' is not an integer");
  expect_error([&] { lbm::parse_checkpoint(checkpoint_with_header(header("0,2,2", "0")), "c"); },
               "at least 1");
  expect_error([&] { lbm::parse_checkpoint(checkpoint_with_header("[1,2]"), "c"); },
               "not a JSON object");
}

TEST(ReaderRegressions, LbmCheckpointFormatRoundTrips) {
  lbm::Config c;
  c.lattice = lbm::Lattice::d2q9;
  c.grid = {3, 2, 1};
  const std::string flags(6, '\1');
  std::string pops(6 * 9 * 4, '\0');
  for (std::size_t k = 0; k < pops.size(); ++k) pops[k] = static_cast<char>(k * 7);
  const std::string bytes = lbm::format_checkpoint(c, 42, flags, pops);
  const auto back = lbm::parse_checkpoint(bytes, "c");
  EXPECT_EQ(back.time, 42);
  EXPECT_EQ(back.config.grid.nx, 3);
  EXPECT_EQ(std::string(back.flags.begin(), back.flags.end()), flags);
  EXPECT_EQ(std::string(back.populations.begin(), back.populations.end()), pops);
  std::string corrupt = bytes;
  corrupt[30] ^= 1;
  expect_error([&] { lbm::parse_checkpoint(corrupt, "c"); }, "checksum mismatch");
  expect_error(
      [&] {
        lbm::parse_checkpoint(bytes.substr(0, bytes.size() - 9) + bytes.substr(bytes.size() - 8),
                              "c");
      },
      "checksum");
}

TEST(ReaderRegressions, OpenclCacheEntryAcceptsOnlyExactEntries) {
  const std::string bin =
      "\x7f"
      "ELF binary";
  const std::string entry = opencl::format_binary_entry(bin);
  ASSERT_TRUE(opencl::parse_binary_entry(entry));
  EXPECT_EQ(*opencl::parse_binary_entry(entry), bin);
  EXPECT_FALSE(opencl::parse_binary_entry(entry + "x"));                        // trailing bytes
  EXPECT_FALSE(opencl::parse_binary_entry(entry.substr(0, entry.size() - 1)));  // truncated
  std::string flipped = entry;
  flipped.back() ^= 0x20;
  EXPECT_FALSE(opencl::parse_binary_entry(flipped));                          // checksum
  EXPECT_FALSE(opencl::parse_binary_entry(opencl::format_binary_entry("")));  // empty binary
  EXPECT_FALSE(opencl::parse_binary_entry("TSCLBIN1"));
}

TEST(Interrupt, FirstSignalOnlySetsTheFlag) {
  install_interrupt_handlers();
  reset_interrupted();
  EXPECT_EQ(interrupted(), 0);
  std::raise(SIGTERM);  // handled: the process goes on
  EXPECT_EQ(interrupted(), SIGTERM);
  EXPECT_EQ(Interrupted(SIGTERM, "x").exit_code(), 143);
  EXPECT_EQ(Interrupted(SIGINT, "x").exit_code(), 130);
  reset_interrupted();
}

// The second signal: the user insists, the process ends at once by that signal
// (default action), without waiting for the step boundary.
TEST(Interrupt, SecondSignalEndsTheProcessAtOnce) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh process: handlers installed there
  EXPECT_EXIT(
      {
        install_interrupt_handlers();
        reset_interrupted();
        std::raise(SIGINT);
        if (interrupted() != SIGINT) std::_Exit(3);  // the first one must only set the flag
        std::raise(SIGINT);
        std::_Exit(0);  // not reached
      },
      ::testing::KilledBySignal(SIGINT), "");
}

TEST(AtomicFile, FailureNamesThePathAndLeavesNoTemporary) {
  const auto dir = scratch("atomic");
  std::filesystem::create_directories(dir);
  write_file_atomic(dir / "f.txt", "first");
  expect_error([&] { write_file_atomic(dir / "missing" / "f.txt", "x"); }, "missing/f.txt");
  // Renaming over a directory fails at the rename step: the temporary goes.
  std::filesystem::create_directories(dir / "d");
  std::filesystem::create_directories(dir / "d" / "inside");
  expect_error([&] { write_file_atomic(dir / "d", "x"); }, "(rename)");
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 1);  // f.txt only
  std::ifstream in(dir / "f.txt");
  std::string s;
  in >> s;
  EXPECT_EQ(s, "first");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tessera
