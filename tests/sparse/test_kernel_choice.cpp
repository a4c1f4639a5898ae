// --kernel auto (sparse/kernel_choice.hpp): the rule's decision on the
// matrix families it was written for, and the reason it gives.
#include <gtest/gtest.h>

#include "sparse/convert.hpp"
#include "sparse/kernel_choice.hpp"
#include "sparse/laplacian.hpp"
#include "sparse/matrix_families.hpp"
#include "sparse/trace_generator.hpp"

namespace tessera::sparse {
namespace {

TEST(KernelChoice, EachFamilyGetsItsKernel) {
  struct Want {
    const char* spec;
    Kernel kernel;
    const char* says;
  } cases[] = {
      {"stencil2d5:60", Kernel::sell, "rows of up to 5 entries, mean 4.9"},
      {"stencil3d27:12", Kernel::sell, "even rows"},
      {"banded:3000,width=15", Kernel::sell, "even rows"},
      {"uniform:5000,mean=8", Kernel::sell, "even rows"},
      {"fem3:6", Kernel::bell_bi, "3x3 blocks 100% full"},
      {"powerlaw:20000,alpha=2.2", Kernel::csr_merge, "uneven rows"},
      {"powerlaw:20000,alpha=3", Kernel::csr_merge, "uneven rows"},
      {"arrow:3000,dense=2", Kernel::csr_merge, "rows of up to 3000 entries"},
      {"emptyrows:20000", Kernel::csr_merge, "95% empty: mostly empty rows"},
      {"emptyrows:20000,mean=4", Kernel::csr_merge, "95% empty"},
  };
  for (const auto& w : cases) {
    SCOPED_TRACE(w.spec);
    const KernelChoice c = choose_kernel(generate_family<double>(w.spec), Backend::cuda);
    EXPECT_EQ(c.kernel, w.kernel) << c.reason;
    EXPECT_NE(c.reason.find(w.says), std::string::npos) << c.reason;
    if (c.kernel == Kernel::bell_bi) EXPECT_EQ(c.options.block_r * c.options.block_c, 9);
  }
  EXPECT_EQ(choose_kernel(laplacian_7pt<float>(10, 9, 8), Backend::opencl).kernel, Kernel::sell);
  // TRACE's 5x5 blocks as CSR: bell-bi with 5x5 blocks
  const KernelChoice t = choose_kernel(
      to_csr(generate_trace_block<double>(parse_trace_case("trace:3x5x4"), 0), Zeros::keep),
      Backend::cuda);
  EXPECT_EQ(t.kernel, Kernel::bell_bi) << t.reason;
  EXPECT_EQ(t.options.block_r, 5);
  // the CPU takes rows whatever their lengths
  EXPECT_EQ(choose_kernel(generate_family<double>("powerlaw:2000"), Backend::cpu).kernel,
            Kernel::csr_scalar);
}

TEST(KernelChoice, BlocksMustBeFullAndEmptyMatricesAreHandled) {
  // 2x2 blocks with one of four slots filled: not a block matrix
  Csr<double> sparse_blocks;
  sparse_blocks.rows = sparse_blocks.cols = 400;
  for (size64 i = 0; i < 400; ++i) {
    for (size64 k = 0; k < 4; ++k) {
      sparse_blocks.col.push_back(static_cast<index_t>((2 * (i / 2) + 2 * 37 * k) % 400 / 2 * 2));
      sparse_blocks.val.push_back(1.0);
    }
    std::sort(sparse_blocks.col.end() - 4, sparse_blocks.col.end());
    sparse_blocks.row_ptr.push_back(static_cast<index_t>(sparse_blocks.col.size()));
  }
  const KernelChoice sb = choose_kernel(sparse_blocks, Backend::cuda);
  EXPECT_NE(sb.kernel, Kernel::bell_bi) << sb.reason;
  EXPECT_NE(sb.kernel, Kernel::bcsr_warp) << sb.reason;
  EXPECT_EQ(sb.reason.find("blocks"), std::string::npos) << sb.reason;
  Csr<double> none;
  none.rows = none.cols = 5;
  none.row_ptr.assign(6, 0);
  EXPECT_NE(choose_kernel(none, Backend::cuda).reason.find("no entries"), std::string::npos);
  const Bcsr<std::complex<float>> b =
      to_bcsr(generate_trace_block<std::complex<float>>(parse_trace_case("trace:3x5x4"), 0));
  EXPECT_EQ(choose_kernel(b, Backend::cuda).kernel, Kernel::bell_bi);
}

}  // namespace
}  // namespace tessera::sparse
