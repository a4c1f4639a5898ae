// `tessera sparse info|convert|generate|spmv`: look at a Matrix Market file
// (size, row statistics, block structure, storage in every format), convert
// between Matrix Market flavours, write TRACE-like test matrices, run one SpMV
// kernel on a device.
#include <cstdio>
#include <memory>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/tessera/commands.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "sparse/analysis.hpp"
#include "sparse/host_memory.hpp"
#include "sparse/convert.hpp"
#include "sparse/device_run.hpp"
#include "io/file_bytes.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/storage.hpp"
#include "sparse/trace_generator.hpp"
#include "core/registry.hpp"

namespace tessera::app {

namespace {

using namespace tessera::sparse;

struct SparseArgs {
  std::string file, out, block = "auto", precision = "single", symmetry = "general", field,
                         format = "coordinate";
  std::string spec;
  std::string json;
  bool real = false;
  int grid_block = -1;
  // spmv
  std::string generate, device = "best";
  SpmvRunOptions run;
};

/// "RxC" or "N" (square) block size; "auto": 5x5 when it divides the matrix, else none.
std::pair<int, int> block_size(const std::string& s, size64 rows, size64 cols) {
  if (s == "auto")
    return rows % 5 == 0 && cols % 5 == 0 && rows > 0 ? std::pair{5, 5} : std::pair{0, 0};
  int r = 0, c = 0;
  char x = 0;
  int used1 = 0, used3 = 0;
  const int n = std::sscanf(s.c_str(), "%d%n%c%d%n", &r, &used1, &x, &c, &used3);
  if (n == 1 && std::size_t(used1) == s.size())
    c = r;
  else if (n != 3 || x != 'x' || std::size_t(used3) != s.size())
    throw UsageError(fmt::format("--block '{}': expected R, RxC or auto", s));
  if (r < 1 || c < 1 || r > 64 || c > 64)
    throw UsageError(fmt::format("--block '{}': out of range 1..64", s));
  return {r, c};
}

/// Storage of every format for matrix `a` (value type T). Formats whose
/// padding would exceed `limit` slots are reported, not built.
template <Scalar T>
nlohmann::json storage_table(const Csr<T>& a, std::pair<int, int> bs, const BlockStats& blocks) {
  nlohmann::json rows = nlohmann::json::array();
  const size64 limit = 16 * a.nnz() + (size64{1} << 20);
  auto add = [&](const std::string& name, size64 estimated_slots, auto&& build) {
    nlohmann::json j;
    j["format"] = name;
    if (estimated_slots > limit) {
      j["skipped"] = fmt::format("would store {} slots for {} entries", estimated_slots, a.nnz());
    } else {
      try {
        const Storage s = storage(build());
        if (name.empty()) j["format"] = s.format;
        j["value_bytes"] = s.value_bytes;
        j["index_bytes"] = s.index_bytes;
        j["total_bytes"] = s.total_bytes();
        j["slots"] = s.slots;
        j["zero_slots"] = s.zero_slots;
        j["slots_per_nonzero"] = s.slots_per_nonzero();
      } catch (const Error& e) {
        j["skipped"] = e.what();
      }
    }
    rows.push_back(j);
  };
  size64 longest = 0;
  for (size64 i = 0; i < a.rows; ++i)
    longest = std::max<size64>(longest, a.row_ptr[i + 1] - a.row_ptr[i]);
  add("COO", a.nnz(), [&] { return to_coo(a); });
  add("CSR", a.nnz(), [&] { return a; });
  add("DIA", a.rows * count_diagonals(a), [&] { return to_dia(a); });
  add("ELL", a.rows * longest, [&] { return to_ell(a); });
  add("ELL L=20, TRACE: no zeros, no empty rows", a.rows * (longest + 19), [&] {
    return to_ell(drop_zeros(a), {20, false, true});
  });
  size64 sell = 0;  // SELL-32-1's slots; sorting (sigma a multiple of 32) never needs more
  for (size64 s = 0; s < a.rows; s += 32) {
    size64 w = 0;
    for (size64 i = s; i < std::min(a.rows, s + 32); ++i)
      w = std::max<size64>(w, a.row_ptr[i + 1] - a.row_ptr[i]);
    sell += 32 * w;
  }
  add("SELL-32-1", sell, [&] { return to_sell(a, {32, 1}); });
  add("SELL-32-256", sell, [&] { return to_sell(a, {32, 256}); });
  add("", a.nnz(), [&] { return to_hyb(a); });
  if (bs.first > 0) {
    const auto [r, c] = bs;
    const size64 bcsr = blocks.slots;
    const size64 bell = (blocks.block_rows - blocks.empty_block_rows) * blocks.max_per_row * r * c;
    add(fmt::format("BCSR {}x{}", r, c), bcsr, [&] { return to_bcsr(a, {r, c}); });
    add(fmt::format("BCSR {}x{} compressed rows", r, c), bcsr, [&] {
      return to_bcsr(a, {r, c, BlockLayout::row_major, true});
    });
    add(fmt::format("gapped BCSR {}x{} (TRACE)", r, c), bcsr, [&] {
      return to_gapped(to_bcsr(a, {r, c, BlockLayout::row_major, true}));
    });
    add(fmt::format("BELL {}x{}, non-empty rows", r, c), bell, [&] {
      return to_bell(to_bcsr(a, {r, c, BlockLayout::row_major, true}));
    });
  }
  return rows;
}

/// Whether the declared size dwarfs the entries: the row pointers, diagonal
/// marks and per-format arrays would follow rows and columns, not the file.
bool size_dwarfs_entries(size64 rows, size64 cols, size64 entries) {
  return rows + cols > 8 * entries + (size64{1} << 22);
}

template <Scalar T>
int info(const SparseArgs& args, const MmHeader& h, const Coo<T>& coo) {
  // A matrix whose declared size dwarfs its entries (2^31 x 2^31 with one
  // entry) is described from its entries alone: time and memory follow the
  // entries; the formats with row pointers or padding are not built.
  const bool from_entries = size_dwarfs_entries(coo.rows, coo.cols, coo.nnz());
  const Csr<T> a = from_entries ? Csr<T>{} : to_csr(coo);
  const RowStats rs = from_entries ? row_stats(coo) : row_stats(a);
  const auto bs = from_entries ? std::pair{0, 0} : block_size(args.block, a.rows, a.cols);
  nlohmann::json j;
  j["file"] = args.file;
  j["banner"] = fmt::format("{} {} {} {}", to_string(h.object), to_string(h.format),
                            to_string(h.field), to_string(h.symmetry));
  j["rows"] = rs.rows;
  j["cols"] = rs.cols;
  j["file_entries"] = h.entries;
  j["nnz"] = rs.entries;
  j["explicit_zeros"] = rs.explicit_zeros;
  j["row_length"] = {{"min", rs.min_length},
                     {"mean", rs.mean_length},
                     {"max", rs.max_length},
                     {"stddev", rs.stddev_length},
                     {"empty_rows", rs.empty_rows}};
  j["bandwidth"] = rs.bandwidth;
  j["diagonals"] = rs.diagonals;
  BlockStats b;
  if (bs.first > 0) {
    b = block_stats(a, bs.first, bs.second);
    j["blocks"] = {
        {"size", fmt::format("{}x{}", b.r, b.c)},
        {"blocks", b.blocks},
        {"block_rows", b.block_rows},
        {"empty_block_rows", b.empty_block_rows},
        {"per_block_row",
         {{"min", b.min_per_row}, {"mean", b.mean_per_row}, {"max", b.max_per_row}}},
        {"zero_fraction",
         b.slots > 0 ? static_cast<double>(b.zero_slots) / static_cast<double>(b.slots) : 0.0}};
  }
  const bool single = args.precision == "single";
  j["value_type"] =
      fmt::format("{}{}", is_complex_v<T> ? "complex " : "", single ? "float" : "double");
  using Single = std::conditional_t<is_complex_v<T>, std::complex<float>, float>;
  if (from_entries) {
    const std::string why = fmt::format(
        "the declared {} x {} size dwarfs the {} entries: row pointers alone would take {}; described from the "
        "entries",
        rs.rows, rs.cols, rs.entries,
        format_bytes(static_cast<std::uint64_t>(rs.rows + 1) * sizeof(index_t)));
    nlohmann::json rows = nlohmann::json::array();
    const Storage s = storage(sorted_unique(coo));
    const size64 value_size = static_cast<size64>(single ? sizeof(Single) : sizeof(T));
    rows.push_back({{"format", "COO"},
                    {"value_bytes", s.slots * value_size},
                    {"index_bytes", s.index_bytes},
                    {"total_bytes", s.slots * value_size + s.index_bytes},
                    {"slots", s.slots},
                    {"zero_slots", s.zero_slots},
                    {"slots_per_nonzero", s.slots_per_nonzero()}});
    for (const char* f : {"CSR", "DIA", "ELL", "SELL", "HYB", "block formats"})
      rows.push_back({{"format", f}, {"skipped", why}});
    j["storage"] = rows;
    j["described_from_entries"] = true;
  } else {
    j["storage"] = single ? storage_table(cast_values<Single>(a), bs, b) : storage_table(a, bs, b);
  }
  if (!args.json.empty()) {
    write_output(args.json, j.dump(2) + "\n");
    if (args.json == "-") return 0;
  }
  std::printf("file         %s (%s)\n", args.file.c_str(), j["banner"].get<std::string>().c_str());
  std::printf(
      "size         %lld x %lld, %lld stored entries (%lld explicit zeros; the file lists %lld)\n",
      (long long)rs.rows, (long long)rs.cols, (long long)rs.entries, (long long)rs.explicit_zeros,
      (long long)h.entries);
  std::printf("rows         length min %lld, mean %.2f, max %lld, stddev %.2f; %lld empty\n",
              (long long)rs.min_length, rs.mean_length, (long long)rs.max_length, rs.stddev_length,
              (long long)rs.empty_rows);
  std::printf("shape        bandwidth %lld, %lld diagonals\n", (long long)rs.bandwidth,
              (long long)rs.diagonals);
  if (j.contains("blocks")) {
    const auto& b = j["blocks"];
    std::printf(
        "blocks %-5s %lld blocks in %lld block rows (%lld empty); per non-empty block row min %lld, "
        "mean %.2f, max %lld; %.1f%% zeros inside blocks\n",
        b["size"].get<std::string>().c_str(), (long long)b["blocks"].get<size64>(),
        (long long)b["block_rows"].get<size64>(), (long long)b["empty_block_rows"].get<size64>(),
        (long long)b["per_block_row"]["min"].get<size64>(),
        b["per_block_row"]["mean"].get<double>(),
        (long long)b["per_block_row"]["max"].get<size64>(), 100 * b["zero_fraction"].get<double>());
  }
  std::printf("\nstorage with %s values and 32-bit indices:\n",
              j["value_type"].get<std::string>().c_str());
  std::printf("  %-42s %12s %12s %12s %10s %8s\n", "format", "values", "indices", "total",
              "slots/nz", "zeros");
  for (const auto& s : j["storage"]) {
    if (s.contains("skipped")) {
      std::printf("  %-42s (not built: %s)\n", s["format"].get<std::string>().c_str(),
                  s["skipped"].get<std::string>().c_str());
      continue;
    }
    const auto slots = s["slots"].get<size64>(), zeros = s["zero_slots"].get<size64>();
    std::printf("  %-42s %12s %12s %12s %10.3f %7.1f%%\n", s["format"].get<std::string>().c_str(),
                format_bytes(s["value_bytes"].get<std::uint64_t>()).c_str(),
                format_bytes(s["index_bytes"].get<std::uint64_t>()).c_str(),
                format_bytes(s["total_bytes"].get<std::uint64_t>()).c_str(),
                s["slots_per_nonzero"].get<double>(),
                slots > 0 ? 100.0 * static_cast<double>(zeros) / static_cast<double>(slots) : 0.0);
  }
  return 0;
}

/// An output name whose compression suffix is not supported is a bad option
/// (exit 2), refused before the input is read or anything is written.
void check_output_name(const std::string& out) {
  if (out.empty()) throw UsageError("out: an empty file name (expected a .mtx or .mtx.gz file)");
  if (out == "-")
    throw UsageError("out '-': standard output is not supported (expected a .mtx or .mtx.gz file)");
  try {
    io::output_compression(out);
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

int convert(const SparseArgs& args) {
  check_output_name(args.out);
  MmMatrix m = read_matrix_market_any(args.file);
  MmWriteOptions w;
  w.symmetry = *parse_mm_symmetry(args.symmetry);
  w.format = *parse_mm_format(args.format);
  w.field = args.field.empty() ? m.header.field : *parse_mm_field(args.field);
  w.comments = m.header.comments;
  std::visit(
      [&](const auto& coo) {
        // Refused before anything follows the declared size: the CSR the
        // writer sums duplicates in and, for an array file, its text (at least
        // two bytes per listed entry, the zeros included).
        using T = typename std::decay_t<decltype(coo)>::value_type;
        std::uint64_t bytes = csr_build_bytes(coo.rows, coo.nnz(), sizeof(T));
        if (w.format == MmFormat::array)
          bytes += 2 * static_cast<std::uint64_t>(coo.rows) * static_cast<std::uint64_t>(coo.cols);
        require_host_memory(
            bytes,
            fmt::format("converting the declared {} x {} matrix ({} entries{})", coo.rows, coo.cols,
                        coo.nnz(), w.format == MmFormat::array ? ", every position written" : ""),
            args.file, "check the size line of the file, or convert on a machine with more memory");
        write_matrix_market(args.out, coo, w);
      },
      m.coo);
  std::printf("wrote %s (matrix %s %s %s)\n", args.out.c_str(), args.format.c_str(),
              std::string(to_string(*w.field)).c_str(), args.symmetry.c_str());
  return 0;
}

template <Scalar T>
int generate_as(const SparseArgs& args, const TraceCase& c) {
  std::vector<GappedBcsr<T>> blocks;
  if (args.grid_block >= 0) {
    if (args.grid_block >= c.grid_blocks)
      throw UsageError(fmt::format("--grid-block {} out of range: the case has {} grid blocks",
                                   args.grid_block, c.grid_blocks));
    blocks.push_back(generate_trace_block<T>(c, args.grid_block));
  } else {
    blocks = generate_trace<T>(c);
  }
  const TraceSizes s = trace_sizes(c);
  MmWriteOptions w;
  w.comments = {
      fmt::format(
          " tessera TRACE-like test matrix {} ({} stencil, {} grid block(s) written{})", c.name(),
          to_string(c.stencil), blocks.size(),
          args.grid_block >= 0 ? fmt::format(": number {}", args.grid_block) : std::string()),
      fmt::format(
          " grid block: {}x{}x{} interior cells (x, theta, r), ghost layers {} wide; {} cell slots with "
          "ghosts, numbered theta fastest, then x, then r",
          c.nx, c.ntheta, c.nr, c.ghost, s.slots_per_block),
      fmt::format(
          " {0}x{0} blocks; ghost cells have empty rows; grid blocks are uncoupled (block diagonal)",
          c.vars)};
  const Csr<T> a = block_diagonal(blocks);
  write_matrix_market(args.out, a, w);
  Storage st;
  for (const auto& b : blocks) {
    const Storage x = storage(b);
    st.slots += x.slots;
    st.zero_slots += x.zero_slots;
    st.value_bytes += x.value_bytes;
    st.index_bytes += x.index_bytes;
  }
  std::printf(
      "wrote %s: %s, %lld x %lld, %lld blocks of %dx%d (%.1f%% zeros inside blocks), "
      "%s in gapped BCSR\n",
      args.out.c_str(), c.name().c_str(), (long long)a.rows, (long long)a.cols,
      (long long)(st.slots / (c.vars * c.vars)), c.vars, c.vars, 100 * st.zero_fraction(),
      format_bytes(static_cast<std::uint64_t>(st.total_bytes())).c_str());
  return 0;
}

// A matrix family or laplace7 (real): the CSR matrix of --generate.
template <Scalar T>
int generate_family_as(const SparseArgs& args) {
  const HostMatrix<T> m = generate_matrix<T>(args.spec);
  MmWriteOptions w;
  w.comments = {fmt::format(" tessera generated matrix {} (tessera solve --generate {})", args.spec,
                            args.spec)};
  write_matrix_market(args.out, m.csr, w);
  std::printf("wrote %s: %s, %lld x %lld, %lld nonzeros\n", args.out.c_str(), args.spec.c_str(),
              (long long)m.csr.rows, (long long)m.csr.cols, (long long)m.csr.nnz());
  return 0;
}

int generate(const SparseArgs& args) {
  check_output_name(args.out);
  const bool single = args.precision == "single";
  if (!spec_is_complex(args.spec)) {  // the real families: their values are real
    if (args.grid_block >= 0)
      throw UsageError(fmt::format("--grid-block {}: only for TRACE cases, not '{}'",
                                   args.grid_block, args.spec));
    return single ? generate_family_as<float>(args) : generate_family_as<double>(args);
  }
  TraceCase c;
  try {
    c = parse_trace_case(args.spec);
  } catch (const UsageError& e) {
    throw UsageError(
        fmt::format("{}; or a matrix family of --generate (laplace7:N, stencil2d5:N, convdiff2d:N, "
                    "elasticity3d:N, powerlaw:ROWS, ...: docs/sparse.md)",
                    e.what()));
  }
  if (args.real) return single ? generate_as<float>(args, c) : generate_as<double>(args, c);
  return single ? generate_as<std::complex<float>>(args, c)
                : generate_as<std::complex<double>>(args, c);
}

template <Scalar V>
int spmv_as(const SparseArgs& args) {
  const HostMatrix<V> m =
      args.file.empty() ? generate_matrix<V>(args.generate) : read_matrix<V>(args.file);
  const auto device = open_device(args.device);
  SpmvRunOptions run = args.run;
  const double cache =
      device->info().cache_bytes > 0 ? static_cast<double>(device->info().cache_bytes) : 64e6;
  run.working_set_bytes = 4 * cache;  // figures of memory, not of L2
  const SpmvRunResult r = run_spmv<V>(device, m, run);
  const bool complex = is_complex_v<V>;
  if (!args.json.empty()) {
    write_output(args.json, to_json(r, complex).dump(2) + "\n");
    if (args.json == "-") return 0;
  }
  std::printf("matrix   %s: %lld x %lld, %lld stored entries, %lld nonzeros, %s values\n",
              r.matrix.c_str(), (long long)r.rows, (long long)r.cols, (long long)r.stored,
              (long long)r.nonzeros, r.value_type.c_str());
  std::printf("kernel   %s on %s, checked against the host reference (error %.3g of the bound)\n",
              r.kernel.c_str(), r.device.c_str(), r.max_error);
  if (!r.choice.empty()) std::printf("choice   auto: %s\n", r.choice.c_str());
  std::printf(
      "time     %.4f ms per SpMV%s (median of %zu runs of %d; min %.4f ms; %d matrix cop%s against L2)\n",
      r.ms_per_spmv(), r.transfers ? " with x/y transfers" : "", r.timing.ms.size(),
      r.spmvs_per_run, r.timing.min_ms / r.spmvs_per_run, r.copies, r.copies == 1 ? "y" : "ies");
  std::printf(
      "rate     %.2f GFLOP/s on stored entries, %.2f on nonzeros; %.1f GB/s under the byte model "
      "(%s per SpMV)\n",
      r.gflops_stored(complex), r.gflops_true(complex), r.gbps(),
      format_bytes(static_cast<std::uint64_t>(r.model_bytes)).c_str());
  return 0;
}

int spmv_command(const SparseArgs& args) {
  if (args.file.empty() == args.generate.empty())
    throw UsageError("sparse spmv: give exactly one of --matrix and --generate");
  const bool complex =
      args.file.empty() ? spec_is_complex(args.generate) && !args.real : file_is_complex(args.file);
  if (args.real && !args.file.empty() && complex)
    throw UsageError("--real: the file holds complex values");
  const bool single = args.precision == "single";
  if (complex)
    return single ? spmv_as<std::complex<float>>(args) : spmv_as<std::complex<double>>(args);
  return single ? spmv_as<float>(args) : spmv_as<double>(args);
}

}  // namespace

Command add_sparse_command(CLI::App& app) {
  auto args = std::make_shared<SparseArgs>();
  auto* cmd = app.add_subcommand("sparse",
                                 "Sparse matrices: inspect, convert, generate TRACE-like systems");
  cmd->require_subcommand(1);
  const auto symmetries = CLI::IsMember({"general", "symmetric", "skew-symmetric", "hermitian"});
  const auto precisions = CLI::IsMember({"single", "double"});

  auto* info_cmd =
      cmd->add_subcommand("info", "Size, row statistics, block structure and storage per format");
  info_cmd->add_option("file", args->file, "Matrix Market file (.mtx or .mtx.gz)")->required();
  info_cmd->add_option("--block", args->block,
                       "Block size RxC for the block formats (auto: 5x5 if it divides)");
  info_cmd->add_option("--precision", args->precision, "Value precision for the storage table")
      ->check(precisions);
  add_json_option(info_cmd, args->json, "Write the description");

  auto* convert_cmd =
      cmd->add_subcommand("convert", "Rewrite a Matrix Market file (.gz by the output's name)");
  convert_cmd->add_option("in", args->file, "Input file")->required();
  convert_cmd->add_option("out", args->out, "Output file")->required();
  convert_cmd->add_option("--symmetry", args->symmetry, "Symmetry to write (checked)")
      ->check(symmetries);
  convert_cmd->add_option("--field", args->field, "Field to write (default: the input's)")
      ->check(CLI::IsMember({"real", "double", "integer", "complex", "pattern"}));
  convert_cmd->add_option("--format", args->format, "coordinate or array")
      ->check(CLI::IsMember({"coordinate", "array"}));

  auto* gen_cmd = cmd->add_subcommand(
      "generate", "Write a TRACE-like test system or a matrix family as Matrix Market");
  gen_cmd
      ->add_option(
          "case", args->spec,
          "KIND:NXxNTHETAxNR[,blocks=N,seed=S,ghost=G,dominance=D,periodic], KIND trace|euler3d|ns3d|"
          "euler2d|ns2d, or trace:1..trace:6 (the thesis's cases); or a spec of --generate "
          "(laplace7:N, stencil2d5:N, convdiff2d:N, elasticity3d:N, powerlaw:ROWS, ...: real)")
      ->required();
  gen_cmd->add_option("out", args->out, "Output file (.mtx or .mtx.gz)")->required();
  gen_cmd->add_option("--precision", args->precision, "Value precision")->check(precisions);
  gen_cmd->add_flag("--real", args->real, "Real values instead of complex");
  gen_cmd->add_option("--grid-block", args->grid_block, "Write only this grid block (0-based)")
      ->check(CLI::NonNegativeNumber);

  auto* spmv_cmd =
      cmd->add_subcommand("spmv", "Run one SpMV kernel on a device, checked and timed");
  spmv_cmd->add_option("--matrix", args->file, "Matrix Market file (.mtx or .mtx.gz)");
  spmv_cmd->add_option(
      "--generate", args->generate,
      "Generated matrix: a TRACE case (trace:1..6, trace:NXxNTHETAxNR[,blocks=N...]), "
      "laplace7:N|NXxNYxNZ, or a family: powerlaw:ROWS[,alpha=,mean=,max=,seed=], "
      "uniform:ROWS[,mean=,seed=], banded:ROWS[,width=], stencil2d5:N, stencil2d9:N, "
      "stencil3d27:N, fem3:N, arrow:ROWS[,dense=,mean=], emptyrows:ROWS[,filled=,mean=], "
      "aniso2d:N[,eps=,angle=], convdiff2d:N[,peclet=,angle=], elasticity3d:N[,nu=]");
  spmv_cmd->add_option("--format", args->run.format,
                       "csr, ell, sell, bcsr, bell (default: the kernel's)");
  spmv_cmd->add_option(
      "--kernel", args->run.kernel,
      "auto (the default without --format: chosen from the matrix's rows and blocks, the reason "
      "printed), csr-scalar csr-vector csr-merge ell ell-v2 sell bcsr-v1a bcsr-v1b bcsr-v2a "
      "bcsr-v2b bcsr-v3 bcsr-warp bell bell-v2 bell-v3 bell-v4 bell-sub bell-bi (with --format: "
      "that format's default)");
  spmv_cmd
      ->add_option("--precision", args->precision,
                   "Value precision (complex for complex files and TRACE; default: double "
                   "for --matrix, single for --generate)")
      ->check(precisions);
  spmv_cmd->add_flag("--real", args->real, "Real values for a generated TRACE case");
  spmv_cmd->add_option("--device,-d", args->device, "Device id (cpu, opencl:P:D, cuda:N, best)");
  spmv_cmd->add_option("--reps", args->run.timing.reps, "Timed runs")->check(CLI::Range(1, 100000));
  spmv_cmd->add_option("--warmup", args->run.timing.warmup, "Untimed runs first")
      ->check(CLI::Range(0, 1000));
  spmv_cmd
      ->add_option("--spmvs", args->run.spmvs_per_run, "SpMVs per timed run (the thesis timed 100)")
      ->check(CLI::Range(1, 100000));
  spmv_cmd
      ->add_option("--ell-subsection", args->run.device.ell_subsection,
                   "ELL subsection length L (thesis: 20)")
      ->check(CLI::PositiveNumber);
  spmv_cmd->add_option("--sell-slice", args->run.device.sell_slice, "SELL slice height C")
      ->check(CLI::PositiveNumber);
  spmv_cmd->add_option("--sell-sort", args->run.device.sell_sort, "SELL sorting window sigma")
      ->check(CLI::PositiveNumber);
  spmv_cmd->add_option("--lanes", args->run.device.csr_lanes,
                       "csr-vector lanes per row (0: by row length)");
  spmv_cmd->add_option(
      "--chains", args->run.device.csr_chains,
      "csr-vector: lane chains per work-item, a power of two (0: 4; the same sums)");
  spmv_cmd->add_option("--group-rows", args->run.device.bell_group_rows,
                       "BELL V3 rows per work-group");
  spmv_cmd->add_option("--block-rows", args->run.device.block_r,
                       "Block rows for block formats built from CSR");
  spmv_cmd->add_option("--block-cols", args->run.device.block_c,
                       "Block columns for block formats built from CSR");
  spmv_cmd->add_flag("--transfers", args->run.transfer_vectors,
                     "Upload x and download y on every SpMV (the thesis's per-call transfers)");
  add_json_option(spmv_cmd, args->json, "Write the run");

  return {cmd, [args, info_cmd, convert_cmd, gen_cmd, spmv_cmd] {
            if (info_cmd->parsed()) {
              MmMatrix m = read_matrix_market_any(args->file);
              return std::visit([&](const auto& coo) { return info(*args, m.header, coo); }, m.coo);
            }
            if (convert_cmd->parsed()) return convert(*args);
            if (gen_cmd->parsed()) {
              // the real families are written in double unless told: their
              // values are computed in double (TRACE cases keep the study's
              // single)
              if (!gen_cmd->count("--precision") && !spec_is_complex(args->spec))
                args->precision = "double";
              return generate(*args);
            }
            if (spmv_cmd->parsed()) {
              // A file's values are decimal text, read in double: without
              // --precision, a file runs in its own precision, not rounded
              // to single (generated TRACE cases keep the study's single).
              if (!spmv_cmd->count("--precision") && !args->file.empty())
                args->precision = "double";
              // auto chooses the block size too: a size given is used or refused
              const bool automatic = args->run.kernel == "auto" ||
                                     (args->run.kernel.empty() && args->run.format.empty());
              if (automatic && (spmv_cmd->count("--block-rows") || spmv_cmd->count("--block-cols")))
                throw UsageError(
                    "--block-rows/--block-cols: --kernel auto chooses the block size; give a "
                    "block kernel by name (--kernel bell-bi, bcsr-warp, ...) with them");
              return spmv_command(*args);
            }
            return 2;
          }};
}

namespace {
const RegisterCommand registered{40, add_sparse_command};
}  // namespace

}  // namespace tessera::app
