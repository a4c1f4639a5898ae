// io/time_series: the CSV forms a flood modeller exports, the integrals the
// mass balance uses (against hand-computed areas), and every refusal with its
// file:line.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "io/time_series.hpp"

namespace tessera::io {
namespace {

namespace fs = std::filesystem;

class TimeSeriesFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("tessera-ts-{}-{}", ::getpid(),
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& content) {
    const fs::path p = dir_ / fmt::format("s{}.csv", n_++);
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  /// The message of the Error that reading `content` throws (must name the file).
  std::string error_of(const std::string& content, Between b = Between::linear) {
    const std::string p = file(content);
    try {
      const TimeSeries s = read_time_series(p, "discharge (m^3/s)", b);
      ADD_FAILURE() << "accepted " << s.t.size() << " rows of:\n" << content;
      return {};
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(p), std::string::npos) << "no file name in: " << what;
      return what;
    }
  }
  fs::path dir_;
  int n_ = 0;
};

TEST_F(TimeSeriesFile, ReadsHeadersCommentsAndEverySeparator) {
  for (const std::string& text : {std::string("time,q\n0,1\n60,2.5\n120,0\n"),
                                  std::string("# gauge 7\n\n0;1\n60;2.5\n120;0\n"),
                                  std::string("0\t1\n60  2.5\r\n  120 0  \n"),
                                  std::string("t [s], Q [m3/s]\n0, 1\n6e1, +2.5\n120,0")}) {
    const TimeSeries s = read_time_series(file(text), "discharge", Between::linear);
    ASSERT_EQ(s.t, (std::vector<double>{0, 60, 120})) << text;
    EXPECT_EQ(s.v, (std::vector<double>{1, 2.5, 0})) << text;
  }
  const TimeSeries s = read_time_series(file("# c\ntime,q\n0,1\n\n60,2\n"), "q", Between::step);
  EXPECT_EQ(s.line, (std::vector<long>{3, 5})) << "rows keep their file lines";
}

TEST_F(TimeSeriesFile, ValuesAndIntegralsFollowTheRows) {
  // linear: 0 -> 1 m3/s over [0, 60], 2.5 at 60, 0 at 120
  TimeSeries lin = read_time_series(file("0,1\n60,2.5\n120,0\n"), "q", Between::linear);
  EXPECT_DOUBLE_EQ(lin.at(30), 1.75);
  EXPECT_DOUBLE_EQ(lin.at(90), 1.25);
  EXPECT_DOUBLE_EQ(lin.at(120), 0.0);
  // trapezoids: 60 * (1 + 2.5) / 2 + 60 * 2.5 / 2 = 105 + 75
  EXPECT_DOUBLE_EQ(lin.integral(0, 120), 180.0);
  // [30, 90]: 30 * (1.75 + 2.5) / 2 + 30 * (2.5 + 1.25) / 2
  EXPECT_DOUBLE_EQ(lin.integral(30, 90), 63.75 + 56.25);
  // step: 1 on [0, 60), 2.5 on [60, 120)
  TimeSeries st = read_time_series(file("0,1\n60,2.5\n120,0\n"), "i", Between::step);
  EXPECT_EQ(st.at(59.999), 1.0);
  EXPECT_EQ(st.at(60), 2.5);
  EXPECT_DOUBLE_EQ(st.integral(0, 120), 60 * 1 + 60 * 2.5);
  EXPECT_DOUBLE_EQ(st.integral(30, 90), 30 * 1 + 30 * 2.5);
  EXPECT_EQ(st.integral(40, 40), 0.0);
}

TEST_F(TimeSeriesFile, BadRowsAreRefusedWithTheirLine) {
  EXPECT_NE(
      error_of("t,q\n0,1\n60,2\n30,1\n").find(":4: time 30 after 60 (line 3): times must increase"),
      std::string::npos);
  EXPECT_NE(error_of("0,1\n0,2\n").find(":2: time 0 after 0"), std::string::npos);
  EXPECT_NE(error_of("0,1\n60,nan\n").find(":2: discharge (m^3/s) nan is not finite"),
            std::string::npos);
  EXPECT_NE(error_of("0,1\n60,inf\n").find(":2:"), std::string::npos);
  EXPECT_NE(error_of("0,1\n60,1e999\n").find(":2:"), std::string::npos) << "overflow";
  EXPECT_NE(error_of("0,1\n60,-0.5\n").find(":2: discharge (m^3/s) -0.5 is below 0"),
            std::string::npos);
  EXPECT_NE(error_of("0,1,2\n60,1\n").find(":1: expected two fields"), std::string::npos);
  EXPECT_NE(error_of("0,1\n60\n").find(":2: expected two fields"), std::string::npos);
  EXPECT_NE(error_of("0,1\n60,1x\n").find(":2: discharge (m^3/s) '1x' is not a number"),
            std::string::npos);
  EXPECT_NE(error_of("0,1\nsixty,1\n").find(":2: time 'sixty' is not a number"), std::string::npos)
      << "only the first row may be a header";
  EXPECT_NE(error_of("0,1\n60,\n").find(":2:"), std::string::npos) << "an empty field";
  EXPECT_NE(error_of("t,q\n0,1\n").find("1 row; a series needs at least two"), std::string::npos);
  EXPECT_NE(error_of("").find("0 rows"), std::string::npos);
  EXPECT_NE(error_of(std::string("0,1\n6\0,1\n", 9)).find(":2: a NUL byte"), std::string::npos);
  const std::string missing = (dir_ / "none.csv").string();
  EXPECT_THROW(read_time_series(missing, "q", Between::step), Error);
}

TEST_F(TimeSeriesFile, ASeriesMustCoverTheRun) {
  const TimeSeries s = read_time_series(file("t,q\n10,1\n60,2\n"), "q", Between::linear);
  try {
    require_covers(s, 0, 30, "--inflow x-lo");
    ADD_FAILURE() << "a series starting at 10 s covered a run from 0";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--inflow x-lo " + s.path +
                                         ": the series starts at t = 10 s (line 2)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(require_covers(s, 10, 61, "--rain"), UsageError);
  EXPECT_NO_THROW(require_covers(s, 10, 60, "--rain"));
}

}  // namespace
}  // namespace tessera::io
