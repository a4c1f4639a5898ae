#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/atomic_file.hpp"
#include "core/embedded_sources.hpp"
#include "core/enum_names.hpp"
#include "core/error.hpp"

namespace tessera {
namespace {

TEST(Errors, FormatBytes) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(format_bytes(3ull << 30), "3.00 GiB");
}

TEST(Errors, ExitCodes) {
  EXPECT_EQ(Error("x").exit_code(), 1);
  EXPECT_EQ(UsageError("x").exit_code(), 2);
  OutOfMemory oom("cuda:0", 10ull << 30, 1ull << 30);
  EXPECT_EQ(oom.exit_code(), 1);
  EXPECT_NE(std::string(oom.what()).find("needed 10.00 GiB"), std::string::npos) << oom.what();
  BackendError be("CUDA", "cudaMalloc", 2, "cudaErrorMemoryAllocation", "allocating x");
  EXPECT_STREQ(be.what(),
               "CUDA error in cudaMalloc (code 2: cudaErrorMemoryAllocation) while allocating x");
}

// Includes are expanded where they stand, as the C preprocessor would: the
// shared header is inlined, the guarded portability header wherever it is
// included (its guard keeps the later copies empty), and a header without a
// guard each time (tests/krylov: krylov.cl takes krylov_basis.h twice).
TEST(EmbeddedSources, IncludesExpandedWhereTheyStandWithLineMarkers) {
  std::string s = expand_includes("dense/kernels/dense.cl");
  EXPECT_NE(s.find("ts_ew_triad"), std::string::npos);
  EXPECT_NE(s.find("#line 1 \"core/kernels/portable.h\""), std::string::npos);
  EXPECT_NE(s.find("#line 1 \"dense/kernels/dense_point.h\""), std::string::npos);
  EXPECT_EQ(s.find("#include \""), std::string::npos);
}

TEST(EmbeddedSources, MissingSourceIsAnError) {
  EXPECT_THROW(expand_includes("no/such/file.cl"), Error);
}

TEST(AtomicFile, WritesAndReplaces) {
  auto dir = std::filesystem::temp_directory_path() / "tessera_atomic_test";
  std::filesystem::create_directories(dir);
  auto f = dir / "out.txt";
  write_file_atomic(f, "first");
  write_file_atomic(f, "second");
  std::ifstream in(f);
  std::string s;
  in >> s;
  EXPECT_EQ(s, "second");
  for (auto& e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.path().filename(), "out.txt") << "temporary file left behind";
  std::filesystem::remove_all(dir);
}

TEST(AtomicFile, FailureNamesThePathAndKeepsNothing) {
  try {
    write_file_atomic("/nonexistent-dir/x.txt", "data");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/x.txt"), std::string::npos);
  }
}

enum class Colour { red, green, blue };
constexpr std::array<std::string_view, 3> kColours{"red", "green", "blue"};

TEST(EnumNames, NameLookupAndParse) {
  EXPECT_EQ(enum_name(Colour::green, kColours), "green");
  EXPECT_EQ(enum_name(static_cast<Colour>(7), kColours, "unknown"), "unknown");
  EXPECT_EQ(enum_lookup<Colour>("blue", kColours), Colour::blue);
  EXPECT_EQ(enum_lookup<Colour>("BLUE", kColours), std::nullopt);
  EXPECT_EQ(enum_lookup<Colour>("BLUE", kColours, /*ignore_case=*/true), Colour::blue);
  EXPECT_EQ(enum_parse<Colour>("red", kColours, "colour"), Colour::red);
  try {
    enum_parse<Colour>("mauve", kColours, "colour");
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "unknown colour 'mauve' (expected red, green or blue)");
  }
}

}  // namespace
}  // namespace tessera
