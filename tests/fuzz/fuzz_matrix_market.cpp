// Matrix Market reader: banner, size line, entries of every object, format,
// field and symmetry, read as real or complex, and (mode 3) through
// read_file_bytes, which inflates gzip data. Only tessera::Error may escape
// the reader; anything else (another exception, a sanitizer report) is a bug.
#include <complex>
#include <cstdint>
#include <string_view>

#include "core/error.hpp"
#include "fuzz_support.hpp"
#include "sparse/matrix_market.hpp"

using namespace tessera;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const int mode = data[0] & 3;
  sparse::MmReadOptions opt;
  opt.allow_non_finite = (data[0] & 4) != 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    switch (mode) {
      case 0:
        (void)sparse::parse_matrix_market<double>(text, "fuzz.mtx", nullptr, opt);
        break;
      case 1:
        (void)sparse::parse_matrix_market<std::complex<double>>(text, "fuzz.mtx", nullptr, opt);
        break;
      case 2:
        (void)sparse::parse_matrix_market<float>(text, "fuzz.mtx", nullptr, opt);
        break;
      default: {
        static const auto file = fuzz::scratch_file(".mtx.gz");
        fuzz::put_file(file, data + 1, size - 1);
        (void)sparse::read_matrix_market_any(file, opt);
      }
    }
  } catch (const Error&) {
  }
  return 0;
}
