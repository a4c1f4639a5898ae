// Matrix Market: round trips for every field x symmetry x format, permissive
// details that real files have (CRLF, blank and comment lines, case), gzip,
// dense vectors, large files (parallel parse), and a corpus of malformed files
// each rejected with "<file>:<line>: <reason>".
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/file_bytes.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/analysis.hpp"
#include "sparse/validate.hpp"
#include "tests/sparse/sparse_test_util.hpp"

namespace tessera::sparse {
namespace {

namespace fs = std::filesystem;
using cd = std::complex<double>;

class MatrixMarket : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("tessera-mm-{}-{}", ::getpid(),
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path file(const std::string& name, std::string_view content) const {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  fs::path dir_;
};

/// A square matrix with the given symmetry (values small integers, no zeros).
template <Scalar T>
Csr<T> symmetric_matrix(MmSymmetry s, size64 n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Coo<T> c;
  c.rows = c.cols = n;
  for (size64 i = 0; i < n; ++i)
    for (size64 j = 0; j <= i; ++j) {
      if (s != MmSymmetry::general && (rng() % 3 != 0)) continue;
      if (i == j && s == MmSymmetry::skew_symmetric) continue;
      T v = test::small_int<T>(rng);
      if constexpr (is_complex_v<T>)
        if (i == j && s == MmSymmetry::hermitian) v = T(v.real(), 0);
      test::add(c, i, j, v);
      if (i == j) continue;
      T w = s == MmSymmetry::skew_symmetric ? -v : v;
      if constexpr (is_complex_v<T>)
        if (s == MmSymmetry::hermitian) w = std::conj(v);
      if (s == MmSymmetry::general) w = test::small_int<T>(rng);
      test::add(c, j, i, w);
    }
  return to_csr(c);
}

template <Scalar T>
void round_trip(const fs::path& path, MmField field, MmSymmetry sym, MmFormat format) {
  SCOPED_TRACE(fmt::format("{} {} {}", to_string(format), to_string(field), to_string(sym)));
  Csr<T> a = symmetric_matrix<T>(sym, 9, 7);
  if (field == MmField::pattern)
    for (auto& v : a.val) v = T(1);
  MmWriteOptions w;
  w.field = field;
  w.symmetry = sym;
  w.format = format;
  w.comments = {"written by tessera's tests", "second line\nthird line"};
  write_matrix_market(path, a, w);
  MmHeader h;
  const Coo<T> c = read_matrix_market<T>(path, &h);
  EXPECT_EQ(h.field, field);
  EXPECT_EQ(h.symmetry, sym);
  EXPECT_EQ(h.format, format);
  EXPECT_EQ(h.comments.size(), 3u);
  const Csr<T> b = drop_zeros(to_csr(c));  // array files list the zeros too
  EXPECT_TRUE(test::same_csr(b, a));
  if (format == MmFormat::coordinate) {
    EXPECT_EQ(c.nnz(), a.nnz());  // no duplicated diagonal
  }
}

TEST_F(MatrixMarket, RoundTripEveryFieldSymmetryAndFormat) {
  const MmField fields[] = {MmField::real, MmField::double_, MmField::integer, MmField::complex,
                            MmField::pattern};
  const MmSymmetry syms[] = {MmSymmetry::general, MmSymmetry::symmetric, MmSymmetry::skew_symmetric,
                             MmSymmetry::hermitian};
  int combos = 0;
  for (MmFormat format : {MmFormat::coordinate, MmFormat::array})
    for (MmField field : fields)
      for (MmSymmetry sym : syms) {
        if (sym == MmSymmetry::hermitian && field != MmField::complex) continue;
        if (field == MmField::pattern &&
            (format == MmFormat::array || sym == MmSymmetry::skew_symmetric))
          continue;
        const fs::path p = dir_ / fmt::format("m{}.mtx", combos++);
        if (field == MmField::complex) {
          round_trip<cd>(p, field, sym, format);
          continue;
        }
        round_trip<double>(p, field, sym, format);
        const Coo<double> r = read_matrix_market<double>(p);  // real data read as complex
        const Coo<cd> z = read_matrix_market<cd>(p);
        ASSERT_EQ(z.nnz(), r.nnz());
        for (size64 k = 0; k < r.nnz(); ++k) EXPECT_EQ(z.val[k], cd(r.val[k], 0));
      }
  EXPECT_EQ(combos, 15 + 13);  // valid combinations: 15 for coordinate, 13 for array
}

TEST_F(MatrixMarket, SymmetricExpansionKeepsTheDiagonalOnce) {
  const auto p =
      file("s.mtx",
           "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2\n2 1 5\n3 3 7\n3 2 -1\n");
  const Csr<double> a = to_csr(read_matrix_market<double>(p));
  EXPECT_EQ(test::dense(a), (std::vector<double>{2, 5, 0, 5, 0, -1, 0, -1, 7}));
  const auto k =
      file("k.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n2 1 3\n1 1 0\n");
  EXPECT_EQ(test::dense(to_csr(read_matrix_market<double>(k))), (std::vector<double>{0, -3, 3, 0}));
  const auto h = file(
      "h.mtx", "%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 4 0\n2 1 1 2\n");
  EXPECT_EQ(test::dense(to_csr(read_matrix_market<cd>(h))),
            (std::vector<cd>{{4, 0}, {1, -2}, {1, 2}, {0, 0}}));
  const auto pa =
      file("p.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n1 1\n2 1\n");
  EXPECT_EQ(test::dense(to_csr(read_matrix_market<float>(pa))), (std::vector<float>{1, 1, 1, 0}));
  const auto ar = file("a.mtx", "%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n");
  EXPECT_EQ(test::dense(to_csr(read_matrix_market<double>(ar))),
            (std::vector<double>{0, -1, -2, 1, 0, -3, 2, 3, 0}));
  const auto sa = file("sa.mtx", "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n");
  EXPECT_EQ(test::dense(to_csr(read_matrix_market<double>(sa))), (std::vector<double>{1, 2, 2, 3}));
}

TEST_F(MatrixMarket, PermissiveDetailsOfRealFiles) {
  const auto p = file("w.mtx",
                      "%%MatrixMarket MATRIX Coordinate REAL General\r\n"
                      "% a comment\r\n"
                      "\r\n"
                      "  3 3 3  \r\n"
                      "1 1 +1.5e0\r\n"
                      "\r\n"
                      "% comment between entries\r\n"
                      "\t2\t3\t-2\r\n"
                      "3 1 1e-400\r\n");  // underflow: 0
  MmHeader h;
  const Coo<double> c = read_matrix_market<double>(p, &h);
  EXPECT_EQ(h.comments, (std::vector<std::string>{" a comment"}));
  EXPECT_EQ(c.val, (std::vector<double>{1.5, -2, 0}));
  EXPECT_EQ(c.row, (std::vector<index_t>{0, 1, 2}));
  const auto f =
      file("f.mtx",
           "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1e-45");  // no final newline
  EXPECT_GT(read_matrix_market<float>(f).val[0], 0.0f);                         // a float subnormal
  EXPECT_EQ(read_matrix_market_header(p).rows, 3);
}

TEST_F(MatrixMarket, NonFiniteValuesOnlyWhenAllowed) {
  const auto p =
      file("n.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 nan\n2 2 -inf\n");
  EXPECT_THROW(read_matrix_market<double>(p), Error);
  const Coo<double> c = read_matrix_market<double>(p, nullptr, {true});
  EXPECT_TRUE(std::isnan(c.val[0]));
  EXPECT_TRUE(std::isinf(c.val[1]));
  Csr<double> a = to_csr(c);
  EXPECT_THROW(format_matrix_market(a), Error);  // the writer never produces them
}

TEST_F(MatrixMarket, ShortestRoundTripOfArbitraryValues) {
  const Csr<float> f = to_csr(test::random_coo<float>(40, 30, 0.2, 3, 0, false));
  write_matrix_market(dir_ / "f.mtx", f);
  EXPECT_TRUE(test::same_csr(to_csr(read_matrix_market<float>(dir_ / "f.mtx")), f));
  const Csr<cd> z = to_csr(test::random_coo<cd>(30, 40, 0.2, 4, 0, false));
  write_matrix_market(dir_ / "z.mtx", z);
  EXPECT_TRUE(test::same_csr(to_csr(read_matrix_market<cd>(dir_ / "z.mtx")), z));
}

TEST_F(MatrixMarket, GzipReadWriteAndCorruptStreams) {
  const Csr<double> a = to_csr(test::random_coo<double>(50, 50, 0.1, 5, 0, false));
  const fs::path gz = dir_ / "a.mtx.gz";
  write_matrix_market(gz, a);
  const std::string raw = [&] {
    std::ifstream in(gz, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  ASSERT_GE(raw.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(raw[0]), 0x1f);  // gzip magic
  EXPECT_EQ(static_cast<unsigned char>(raw[1]), 0x8b);
  EXPECT_TRUE(test::same_csr(to_csr(read_matrix_market<double>(gz)), a));
  // Recognised by content, whatever the name; concatenated members are one stream.
  const std::string text = format_matrix_market(a);
  const auto two = file("two_members.mtx", io::gzip_compress(text.substr(0, 100)) +
                                               io::gzip_compress(text.substr(100)));
  EXPECT_TRUE(test::same_csr(to_csr(read_matrix_market<double>(two)), a));
  const auto cut = file("cut.mtx.gz", raw.substr(0, raw.size() / 2));
  try {
    read_matrix_market<double>(cut);
    FAIL() << "a truncated gzip stream was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cut.mtx.gz"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("decompress"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_matrix_market<double>(dir_ / "missing.mtx"), Error);
}

TEST_F(MatrixMarket, DenseVectors) {
  const std::vector<cd> v = {{1, 2}, {0, 0}, {-3.5, 0.25}};
  write_matrix_market_vector<cd>(dir_ / "v.mtx", v);
  MmHeader h;
  EXPECT_EQ(read_matrix_market_vector<cd>(dir_ / "v.mtx", &h), v);
  EXPECT_EQ(h.format, MmFormat::array);
  EXPECT_EQ(h.cols, 1);
  const auto vo =
      file("vo.mtx", "%%MatrixMarket vector coordinate real general\n5 2\n2 1.5\n5 -1\n");
  EXPECT_EQ(read_matrix_market_vector<double>(vo), (std::vector<double>{0, 1.5, 0, 0, -1}));
  const auto va = file("va.mtx", "%%MatrixMarket vector array integer general\n3\n4\n5\n6\n");
  EXPECT_EQ(read_matrix_market_vector<float>(va), (std::vector<float>{4, 5, 6}));
  const auto row = file("row.mtx", "%%MatrixMarket matrix array real general\n1 3\n4\n5\n6\n");
  EXPECT_EQ(read_matrix_market_vector<double>(row), (std::vector<double>{4, 5, 6}));
  const auto m = file("m.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n");
  EXPECT_THROW(read_matrix_market_vector<double>(m), Error);
}

TEST_F(MatrixMarket, WriterRefusesWhatTheFileCannotSay) {
  auto opts = [](std::optional<MmField> f, MmSymmetry s, MmFormat m = MmFormat::coordinate) {
    MmWriteOptions o;
    o.field = f;
    o.symmetry = s;
    o.format = m;
    return o;
  };
  const auto general = MmSymmetry::general;
  Csr<double> a = symmetric_matrix<double>(MmSymmetry::general, 5, 1);
  EXPECT_THROW(format_matrix_market(a, opts(std::nullopt, MmSymmetry::symmetric)), Error);
  EXPECT_THROW(format_matrix_market(a, opts(MmField::pattern, general, MmFormat::array)), Error);
  a.val[0] = 0.5;
  EXPECT_THROW(format_matrix_market(a, opts(MmField::integer, general)), Error);
  const Csr<cd> z = symmetric_matrix<cd>(MmSymmetry::general, 4, 2);
  EXPECT_THROW(format_matrix_market(z, opts(MmField::real, general)), Error);
  const Csr<cd> h = symmetric_matrix<cd>(MmSymmetry::hermitian, 8, 3);
  EXPECT_THROW(format_matrix_market(h, opts(std::nullopt, MmSymmetry::symmetric)), Error);
  EXPECT_NO_THROW(format_matrix_market(h, opts(std::nullopt, MmSymmetry::hermitian)));
  Csr<double> ps =
      symmetric_matrix<double>(MmSymmetry::symmetric, 6, 5);  // symmetric structure only
  [&] {
    for (size64 i = 0; i < ps.rows; ++i)
      for (index_t p = ps.row_ptr[i]; p < ps.row_ptr[i + 1]; ++p)
        if (ps.col[p] != i) return void(ps.val[p] = 99);  // one off-diagonal value changed
    FAIL() << "no off-diagonal entry";
  }();
  EXPECT_THROW(format_matrix_market(ps, opts(std::nullopt, MmSymmetry::symmetric)), Error);
  EXPECT_NO_THROW(format_matrix_market(ps, opts(MmField::pattern, MmSymmetry::symmetric)));
  const Csr<double> r = to_csr(test::random_coo<double>(3, 4, 1.0, 4));
  EXPECT_THROW(format_matrix_market(r, opts(std::nullopt, MmSymmetry::skew_symmetric)),
               Error);  // not square
  EXPECT_THROW(write_matrix_market(dir_ / "no/such/dir/a.mtx", r), Error);
}

TEST_F(MatrixMarket, LargeFilesParseInParallelWithExactLineNumbers) {
  // Over 4 MiB, so the reader splits the entries into chunks.
  const Csr<double> a = to_csr(test::random_coo<double>(2000, 2000, 0.1, 6, 0, false));
  const std::string text = format_matrix_market(a);
  ASSERT_GT(text.size(), 5u << 20);
  EXPECT_TRUE(test::same_csr(to_csr(parse_matrix_market<double>(text, "big")), a));
  // Break one entry near the end: the message must name its line.
  std::string bad = text;
  size64 line = 1;
  std::size_t pos = 0;
  for (; line < 350000; ++line) pos = bad.find('\n', pos) + 1;
  bad.replace(pos, bad.find(' ', pos) - pos, "0");
  try {
    parse_matrix_market<double>(bad, "big.mtx");
    FAIL() << "an index 0 was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("big.mtx:350000: row index 0 out of range"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(MatrixMarket, LargeArrayFilesParseInParallel) {
  // Dense symmetric and skew-symmetric arrays over 4 MiB: every chunk must find
  // the (row, column) of its first value in the triangle's column-major order.
  for (MmSymmetry sym : {MmSymmetry::general, MmSymmetry::symmetric, MmSymmetry::skew_symmetric}) {
    SCOPED_TRACE(std::string(to_string(sym)));
    const size64 n = 900;
    std::mt19937_64 rng(11);
    Coo<double> c;
    c.rows = c.cols = n;
    for (size64 i = 0; i < n; ++i)
      for (size64 j = 0; j <= i; ++j) {
        if (i == j && sym == MmSymmetry::skew_symmetric) continue;
        const double v = test::uniform<double>(rng);
        test::add(c, i, j, v);
        if (i != j)
          test::add(c, j, i,
                    sym == MmSymmetry::skew_symmetric ? -v
                    : sym == MmSymmetry::symmetric    ? v
                                                      : test::uniform<double>(rng));
      }
    const Csr<double> a = to_csr(c);
    MmWriteOptions w;
    w.symmetry = sym;
    w.format = MmFormat::array;
    const std::string text = format_matrix_market(a, w);
    ASSERT_GT(text.size(), 4u << 20);
    EXPECT_TRUE(test::same_csr(drop_zeros(to_csr(parse_matrix_market<double>(text, "dense"))), a));
  }
}

struct Malformed {
  const char* name;
  std::string text;
  int line;
  const char* reason;
  bool complex_target = false;
};

TEST_F(MatrixMarket, MalformedFilesNameTheLineAndTheReason) {
  const std::string co = "%%MatrixMarket matrix coordinate real general\n";
  const std::vector<Malformed> corpus = {
      {"empty", "", 1, "empty file"},
      {"one_percent_banner", "%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n", 1,
       "bad banner"},
      {"no_banner", "1 1 1\n1 1 1\n", 1, "bad banner"},
      {"short_banner", "%%MatrixMarket matrix coordinate real\n1 1 0\n", 1, "incomplete banner"},
      {"long_banner", "%%MatrixMarket matrix coordinate real general extra\n1 1 0\n", 1,
       "unexpected text 'extra'"},
      {"bad_object", "%%MatrixMarket tensor coordinate real general\n1 1 0\n", 1,
       "unknown object 'tensor'"},
      {"bad_format", "%%MatrixMarket matrix sparse real general\n1 1 0\n", 1,
       "unknown format 'sparse'"},
      {"bad_field", "%%MatrixMarket matrix coordinate float general\n1 1 0\n", 1,
       "unknown field 'float'"},
      {"bad_symmetry", "%%MatrixMarket matrix coordinate real upper\n1 1 0\n", 1,
       "unknown symmetry 'upper'"},
      {"pattern_array", "%%MatrixMarket matrix array pattern general\n1 1\n", 1,
       "only allowed with format 'coordinate'"},
      {"hermitian_real", "%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", 1,
       "requires field 'complex'"},
      {"skew_pattern", "%%MatrixMarket matrix coordinate pattern skew-symmetric\n1 1 0\n", 1,
       "skew-symmetric"},
      {"no_size_line", co + "% only a comment\n\n", 3, "file ends before the size line"},
      {"short_size_line", co + "3 3\n", 2, "truncated size line"},
      {"garbage_size", co + "3 x 3\n", 2, "invalid columns 'x'"},
      {"negative_size", co + "-3 3 1\n", 2, "negative rows"},
      {"size_overflows_int64", co + "99999999999999999999 3 1\n", 2, "is too large"},
      {"rows_beyond_int32", co + "3000000000 3 1\n1 1 1\n", 2, "exceed the 32-bit index range"},
      {"entries_beyond_int32", co + "3 3 99999999999\n", 2,
       "entries exceed the 32-bit index range"},
      {"array_too_large", "%%MatrixMarket matrix array real general\n100000 100000\n", 2,
       "too many entries"},
      {"size_trailing_text", co + "3 3 1 4\n1 1 1\n", 2, "unexpected text '4'"},
      {"symmetric_not_square", "%%MatrixMarket matrix coordinate real symmetric\n3 4 0\n", 2,
       "must be square"},
      {"too_few_entries", co + "3 3 3\n1 1 1\n% trailing comment\n2 2 2\n\n", 6,
       "file ends after 2 of the 3 entries"},
      {"no_entries_at_all", co + "3 3 1\n", 2,
       "file ends after 0 of the 1 entries declared on line 2"},
      {"too_many_entries", co + "3 3 1\n1 1 1\n\n2 2 2\n3 3 3\n", 5,
       "more entries than the 1 declared on line 2"},
      {"two_entries_on_a_line", co + "3 3 3\n1 1 1 2 2 2\n3 3 3\n", 3,
       "unexpected text '2'"},  // before the count
      {"bad_line_before_surplus", co + "3 3 1\n1 x 1\n2 2 2\n", 3, "invalid column index 'x'"},
      {"index_zero", co + "3 3 1\n0 1 1\n", 3, "row index 0 out of range 1..3"},
      {"index_too_big", co + "3 3 2\n1 1 1\n1 5 1\n", 4, "column index 5 out of range 1..3"},
      {"index_not_integer", co + "3 3 1\n1.0 1 1\n", 3, "invalid row index '1.0'"},
      {"truncated_line", co + "3 3 1\n1 2\n", 3, "truncated line: 2 of 3 fields"},
      {"garbage_number", co + "3 3 1\n1 1 1.0abc\n", 3, "invalid number '1.0abc'"},
      {"fortran_exponent", co + "3 3 1\n1 1 1.0D0\n", 3, "invalid number '1.0D0'"},
      {"trailing_text", co + "3 3 1\n1 1 1.0 7\n", 3, "unexpected text '7'"},
      {"nan", co + "3 3 1\n1 1 nan\n", 3, "non-finite value 'nan'"},
      {"inf", co + "3 3 2\n1 1 1\n2 2 -inf\n", 4, "non-finite value '-inf'"},
      {"overflow", co + "3 3 1\n1 1 1e999\n", 3, "overflows double"},
      {"integer_not_integral", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n",
       3, "invalid integer value '1.5'"},
      {"integer_overflow",
       "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 99999999999999999999\n", 3,
       "does not fit in 64 bits"},
      {"upper_triangle", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 1\n1 2 3\n",
       4, "entry (1, 2) lies above the diagonal"},
      {"skew_diagonal", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1.0\n", 3,
       "must be zero"},
      {"hermitian_diagonal", "%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n1 1 1 1\n",
       3, "must be real", true},
      {"complex_missing_imag", "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1.0\n",
       3, "truncated line: 3 of 4 fields (i j re im)", true},
      {"pattern_with_value", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1.0\n",
       3, "unexpected text '1.0'"},
      {"array_too_few", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", 5,
       "file ends after 3 of the 4"},
      {"array_two_values", "%%MatrixMarket matrix array real general\n2 1\n1\n2 3\n", 4,
       "unexpected text '3'"},
      {"complex_into_real", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1,
       "cannot be read into a real matrix"},
      {"vector_symmetric", "%%MatrixMarket vector array real symmetric\n3\n", 1,
       "symmetry 'general'"},
  };
  for (const auto& m : corpus) {
    SCOPED_TRACE(m.name);
    const fs::path p = file(std::string(m.name) + ".mtx", m.text);
    const std::string where = fmt::format("{}:{}: ", p.string(), m.line);
    try {
      if (m.complex_target)
        read_matrix_market<cd>(p);
      else
        read_matrix_market<double>(p);
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(where, 0), 0u) << what;
      EXPECT_NE(what.find(m.reason), std::string::npos) << what;
    }
  }
}

// bzip2: written by the name, read by the magic bytes, truncated streams named
// (where this build has libbz2); refused by name otherwise.
TEST_F(MatrixMarket, Bzip2ReadWriteOrRefusedByName) {
  const Csr<double> a = to_csr(test::random_coo<double>(40, 30, 0.1, 6, 0, false));
  const fs::path bz = dir_ / "a.mtx.bz2";
  if (!io::bzip2_supported()) {
    try {
      write_matrix_market(bz, a);
      FAIL() << ".bz2 was written without libbz2";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("bzip2-compressed files are not supported"),
                std::string::npos)
          << e.what();
    }
    EXPECT_FALSE(fs::exists(bz));
    return;
  }
  write_matrix_market(bz, a);
  const std::string raw = [&] {
    std::ifstream in(bz, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  ASSERT_GE(raw.size(), 4u);
  EXPECT_EQ(raw.substr(0, 3), "BZh");  // bzip2 magic, not plain text
  EXPECT_TRUE(test::same_csr(to_csr(read_matrix_market<double>(bz)), a));
  // by content, whatever the name; two concatenated streams are one file
  const std::string text = format_matrix_market(a);
  const auto two = file("two_streams.mtx", io::bzip2_compress(text.substr(0, 70)) +
                                               io::bzip2_compress(text.substr(70)));
  EXPECT_TRUE(test::same_csr(to_csr(read_matrix_market<double>(two)), a));
  const auto cut = file("cut.mtx.bz2", raw.substr(0, raw.size() / 2));
  try {
    read_matrix_market<double>(cut);
    FAIL() << "a truncated bzip2 stream was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cut.mtx.bz2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("decompress"), std::string::npos) << e.what();
  }
}

// Compressed or binary data recognised by its magic bytes is named, never
// quoted as raw bytes; unsupported compression suffixes are refused on output
// before anything is written.
TEST_F(MatrixMarket, ForeignCompressionIsNamedNotDumped) {
  const std::pair<std::string, std::string> cases[] = {
      {std::string("\xFD"
                   "7zXZ\x00\x00\x04\xE6\xD6\xB4\x46",
                   12),
       "xz-compressed files are not supported"},
      {std::string("\x28\xB5\x2F\xFD\x24\x00\x01\x00", 8),
       "zstd-compressed files are not supported"},
      {std::string("PK\x03\x04\x14\x00\x00\x00", 8), "zip archive"},
      {std::string("\x89PNG\r\n\x1A\n\x00\x00", 10), "PNG image"},
  };
  int k = 0;
  for (const auto& [bytes, want] : cases) {
    const auto f = file(fmt::format("m{}.mtx", k++), bytes + std::string(100, '\x01'));
    try {
      read_matrix_market<double>(f);
      FAIL() << want << ": accepted";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(f.string()), std::string::npos) << msg;
      EXPECT_NE(msg.find(want), std::string::npos) << msg;
      for (char c : msg) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "raw byte in: " << msg;
    }
  }
  const Csr<double> a = to_csr(test::random_coo<double>(5, 5, 0.5, 7, 0, false));
  for (const char* name : {"a.mtx.xz", "a.mtx.zst", "a.mtx.zip", "a.mtx.7z", "a.mtx.lz4"}) {
    try {
      write_matrix_market(dir_ / name, a);
      FAIL() << name << " was written";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("files are not supported"), std::string::npos)
          << e.what();
    }
    EXPECT_FALSE(fs::exists(dir_ / name)) << name;
  }
  EXPECT_EQ(io::output_compression(dir_ / "a.mtx"), "");
  EXPECT_EQ(io::output_compression(dir_ / "a.mtx.gz"), "gzip");
}

// The statistics from entries alone agree with those from CSR.
TEST_F(MatrixMarket, RowStatsFromEntriesMatchCsr) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    Coo<double> coo = test::random_coo<double>(60 + seed, 45, 0.05, seed, seed % 2 ? 3 : 0, false);
    ASSERT_GT(coo.nnz(), 0);
    coo.row.push_back(coo.row[0]);  // a duplicate cancelling the first entry: an explicit zero
    coo.col.push_back(coo.col[0]);
    coo.val.push_back(-coo.val[0]);
    const RowStats e = row_stats(coo), c = row_stats(to_csr(coo));
    EXPECT_EQ(e.entries, c.entries);
    EXPECT_EQ(e.explicit_zeros, c.explicit_zeros);
    EXPECT_EQ(e.empty_rows, c.empty_rows);
    EXPECT_EQ(e.min_length, c.min_length);
    EXPECT_EQ(e.max_length, c.max_length);
    EXPECT_DOUBLE_EQ(e.mean_length, c.mean_length);
    EXPECT_NEAR(e.stddev_length, c.stddev_length, 1e-12);
    EXPECT_EQ(e.bandwidth, c.bandwidth);
    EXPECT_EQ(e.diagonals, c.diagonals);
  }
}

// A header declaring 2^31-1 rows and columns with one entry: reading, the
// statistics and the duplicate summing follow the entries, not the declared
// size (row_stats(Coo) allocates nothing per row), and a CSR, whose row
// pointers do follow the rows, is refused before it is allocated when the
// memory is not there.
TEST_F(MatrixMarket, DeclaredSizeDoesNotSizeTheWork) {
  const auto f = file("huge.mtx",
                      "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 3\n"
                      "1 1 1.5\n2147483647 5 2\n1 1 -1.5\n");
  const Coo<double> coo = read_matrix_market<double>(f);
  EXPECT_EQ(coo.rows, 2147483647);
  const RowStats s = row_stats(coo);
  EXPECT_EQ(s.entries, 2);  // (1,1) twice, summed
  EXPECT_EQ(s.explicit_zeros, 1);
  EXPECT_EQ(s.empty_rows, 2147483647 - 2);
  EXPECT_EQ(s.min_length, 0);
  EXPECT_EQ(s.max_length, 1);
  EXPECT_EQ(s.bandwidth, 2147483646 - 4);
  EXPECT_EQ(s.diagonals, 2);
  EXPECT_NEAR(s.mean_length, 2.0 / 2147483647.0, 1e-18);
  ::setenv("TESSERA_HOST_MEMORY", "64M", 1);
  try {
    (void)to_csr(coo);
    ::unsetenv("TESSERA_HOST_MEMORY");
    FAIL() << "a 2^31-row CSR was built under a 64 MiB limit";
  } catch (const Error& e) {
    ::unsetenv("TESSERA_HOST_MEMORY");
    EXPECT_NE(std::string(e.what()).find("2147483647-row"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("GiB"), std::string::npos) << e.what();
  }
  // a dense vector sized by its header
  const auto v = file("huge_vec.mtx",
                      "%%MatrixMarket matrix coordinate real general\n2147483647 1 1\n3 1 1\n");
  ::setenv("TESSERA_HOST_MEMORY", "64M", 1);
  EXPECT_THROW(read_matrix_market_vector<double>(v), Error);
  ::unsetenv("TESSERA_HOST_MEMORY");
}

}  // namespace
}  // namespace tessera::sparse
