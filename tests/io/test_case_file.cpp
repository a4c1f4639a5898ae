// The TOML subset of case files (io/case_file): every scalar form, tables and
// arrays where a command allows them, and file:line:column on what is refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/case_file.hpp"

namespace tessera::io {
namespace {

namespace fs = std::filesystem;

fs::path write_text(const std::string& name, const std::string& text) {
  const fs::path d =
      fs::temp_directory_path() / ("tessera_case_file_" + std::to_string(::getpid()));
  fs::create_directories(d);
  const auto p = d / name;
  std::ofstream(p) << text;
  return p;
}

TEST(CaseFile, ReadsEveryScalarFormOfTheTomlSubset) {
  const auto p = write_text("case.toml",
                            "# a comment line\n"
                            "\n"
                            "model = \"physical\"   # trailing comment\n"
                            "case='ritter'\r\n"
                            "nx = 1_024\n"
                            "hex = 0xFf\n"
                            "oct = 0o17\n"
                            "bin = 0b101\n"
                            "neg = -42\n"
                            "plus = +7\n"
                            "t-end = 1.5e1\n"
                            "cfl = 0.45\n"
                            "tiny = -2E-3\n"
                            "big = 6.02e+23\n"
                            "inf = -inf\n"
                            "flag = true\n"
                            "off = false\n"
                            "escaped = \"a\\\"b\\\\c\\u0041\"\n"
                            "hash = \"x # not a comment\"\n"
                            "\tindented_key=3");
  const auto e = read_case_file(p.string());
  const std::vector<std::pair<std::string, std::string>> want = {{"model", "physical"},
                                                                 {"case", "ritter"},
                                                                 {"nx", "1024"},
                                                                 {"hex", "255"},
                                                                 {"oct", "15"},
                                                                 {"bin", "5"},
                                                                 {"neg", "-42"},
                                                                 {"plus", "7"},
                                                                 {"t-end", "15"},
                                                                 {"cfl", "0.45"},
                                                                 {"tiny", "-0.002"},
                                                                 {"big", "6.02e+23"},
                                                                 {"inf", "-inf"},
                                                                 {"flag", "true"},
                                                                 {"off", "false"},
                                                                 {"escaped", "a\"b\\cA"},
                                                                 {"hash", "x # not a comment"},
                                                                 {"indented_key", "3"}};
  ASSERT_EQ(e.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(e[i].key, want[i].first);
    EXPECT_EQ(e[i].value, want[i].second) << e[i].key;
  }
  EXPECT_EQ(e[0].line, 3);
  EXPECT_EQ(e.back().line, 20);
}

TEST(CaseFile, RejectsWhatIsNotFlatTomlWithFileLineAndColumn) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"x = 1\nx = 2\n", ":2: key 'x' is given twice"},
      {"a.b = 1\n", ":1:2: dotted keys"},
      {"\"q\" = 1\n", ":1:1: quoted keys"},
      {"nx 5\n", ":1:4: expected '=' after the key 'nx'"},
      {"nx =\n", ":1:5: key 'nx' has no value"},
      {"nx = 5 6\n", ":1:8: unexpected '6'"},
      {"nx = 05\n", ":1:6: '05' is not a valid value: leading zeros"},
      {"nx = 1__0\n", "'1__0' is not a valid value"},
      {"nx = _1\n", "'_1' is not a valid value"},
      {"nx = 9223372036854775808\n", "out of the 64-bit integer range"},
      {"nx = -0x5\n", "prefixed integers take no sign"},
      {"t = 1.\n", "a '.' needs digits on both sides"},
      {"t = .5\n", "'.5' is not a valid value"},
      {"t = 1e\n", "malformed exponent"},
      {"t = 1e999\n", "out of the double range"},
      {"d = 1979-05-27\n", "dates and times"},
      {"s = \"open\n", ":1:5: unterminated string"},
      {"s = 'open\n", ":1:5: unterminated string"},
      {"s = \"\"\"x\"\"\"\n", "multi-line strings"},
      {"s = \"\\q\"\n", "unknown escape '\\q'"},
      {"s = \"\\u00e9\"\n", "printable ASCII"},
      {"s = yes\n", "'yes' is not a valid value: not a number"},
      {"v = {a = 1}\n", ":1:5: arrays and inline tables"},
  };
  for (const auto& [text, message] : bad) {
    const auto p = write_text("bad.toml", text);
    try {
      read_case_file(p.string());
      ADD_FAILURE() << "accepted: " << text;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(p.string() + (message[0] == ':' ? "" : ":")),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos)
          << "for '" << text << "': " << e.what();
    }
  }
}

TEST(CaseFile, TablesAndArraysWhereTheCommandAllowsThem) {
  const auto p = write_text("tables.toml",
                            "lattice = \"D2Q9\"\n"
                            "size = [400, 100 , 1,]  # trailing comma\n"
                            "[units]\n"
                            "length = 0.1\n"
                            "[[body]]\n"
                            "shape = 'sphere'\n"
                            "centre = [0.5, -2.5e-1, \"x]\"]\n"
                            "[[ body ]]\n"
                            "shape = \"box\"\n"
                            "empty = []\n");
  const auto e = read_case_file(p.string(), {true, true});
  ASSERT_EQ(e.size(), 7u);
  EXPECT_EQ(e[0].table, "");
  EXPECT_EQ(e[0].value, "D2Q9");
  EXPECT_TRUE(e[1].is_array);
  EXPECT_EQ(e[1].items, (std::vector<std::string>{"400", "100", "1"}));
  EXPECT_EQ(e[2].table, "units");
  EXPECT_EQ(e[2].index, -1);
  EXPECT_EQ(e[2].value, "0.1");
  EXPECT_EQ(e[3].table, "body");
  EXPECT_EQ(e[3].index, 0);
  EXPECT_EQ(e[4].items, (std::vector<std::string>{"0.5", "-0.25", "x]"}));
  EXPECT_EQ(e[4].line, 7);
  EXPECT_EQ(e[5].index, 1);
  EXPECT_EQ(e[5].key, "shape");  // the same key again, in the next [[body]]
  EXPECT_TRUE(e[6].is_array);
  EXPECT_TRUE(e[6].items.empty());
  EXPECT_EQ(where(p.string(), e[4]), p.string() + ":7");
}

TEST(CaseFile, TablesAndArraysRefusedWithFileLineAndColumn) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"[units]\na = 1\n[units]\n", ":3: table [units] is given twice"},
      {"[b]\nx = 1\nx = 2\n", ":3: key 'x' is given twice in [b]"},
      {"[[b]]\n[b]\n", ":2: table [b] is given twice"},
      {"[b]\n[[b]]\n", ":2: [[b]] repeats the table [b]"},
      {"[a.b]\n", ":1:3: dotted table names"},
      {"[a\n", ":1:3: expected ']' to close the table name 'a'"},
      {"[[a]\n", ":1:4: expected ']]'"},
      {"[]\n", ":1:2: expected a table name"},
      {"[a] x\n", ":1:5: unexpected 'x' after the table header"},
      {"v = [1, 2\n", ":1:5: the array of 'v' must end with ']' on the same line"},
      {"v = [1 2]\n", ":1:8: expected ',' or ']' in the array of 'v', found '2'"},
      {"v = [[1], 2]\n", ":1:6: arrays of arrays"},
      {"v = [1, {a = 1}]\n", ":1:9: arrays of arrays or of tables"},
      {"v = [1, 05]\n", "'05' is not a valid value: leading zeros"},
      {"v = {a = 1}\n", ":1:5: arrays and inline tables"},
  };
  for (const auto& [text, message] : bad) {
    const auto p = write_text("bad_tables.toml", text);
    try {
      read_case_file(p.string(), {true, true});
      ADD_FAILURE() << "accepted: " << text;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos)
          << "for '" << text << "': " << e.what();
    }
  }
  // without the syntax (tessera swe): refused as before
  const auto p = write_text("flat_only.toml", "[units]\n");
  EXPECT_THROW(read_case_file(p.string()), UsageError);
  const auto q = write_text("flat_array.toml", "v = [1]\n");
  EXPECT_THROW(read_case_file(q.string(), {true, false}), UsageError);
}

}  // namespace
}  // namespace tessera::io
