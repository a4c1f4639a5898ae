// tessera.sparse: device matrices in every kernel's format, SpMV, Matrix
// Market read/write. The Python side (tessera/sparse.py) turns scipy.sparse
// matrices into CSR arrays and back.
#include <cctype>
#include <variant>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "core/buffer.hpp"
#include "sparse/convert.hpp"
#include "sparse/device_matrix.hpp"
#include "sparse/kernel_choice.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse_csr.hpp"

namespace tessera::py {

namespace {
using sparse::DeviceMatrix;

std::string lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

/// A device matrix of any value type, for Python.
struct PyDeviceMatrix {
  std::variant<std::shared_ptr<DeviceMatrix<float>>, std::shared_ptr<DeviceMatrix<double>>,
               std::shared_ptr<DeviceMatrix<std::complex<float>>>,
               std::shared_ptr<DeviceMatrix<std::complex<double>>>>
      m;
  std::string choice;  ///< kernel="auto": why this kernel; else empty
  template <class F>
  auto visit(F&& f) const {
    return std::visit([&](const auto& p) { return f(*p); }, m);
  }
};

template <class V>
nb::object spmv(const DeviceMatrix<V>& a, const AnyArray& x, std::optional<std::string> kernel) {
  auto hx = to_vector<V>(x, "spmv: x (the matrix's dtype)");
  if (hx.size() != static_cast<std::size_t>(a.cols()))
    throw UsageError("spmv: x has " + std::to_string(hx.size()) + " entries, the matrix " +
                     std::to_string(a.cols()) + " columns");
  std::vector<V> y(static_cast<std::size_t>(a.rows()));
  {
    nb::gil_scoped_release release;
    Buffer<V> dx(a.device_ptr(), hx.size()), dy(a.device_ptr(), y.size());
    dx.copy_from_host(hx);
    if (kernel)
      sparse::spmv(a, dx, dy, sparse::parse_kernel(*kernel));
    else
      sparse::spmv(a, dx, dy);
    dy.copy_to_host(y);
  }
  return to_numpy(std::move(y));
}

sparse::MmSymmetry parse_symmetry(const std::string& s) {
  auto v = sparse::parse_mm_symmetry(s);
  if (!v)
    throw UsageError(
        "write_matrix_market: symmetry must be general, symmetric, skew-symmetric or hermitian (got '" +
        s + "')");
  return *v;
}
}  // namespace

void bind_sparse(nb::module_& m) {
  nb::class_<PyDeviceMatrix>(m, "_DeviceMatrix")
      .def_prop_ro(
          "rows",
          [](const PyDeviceMatrix& p) { return p.visit([](const auto& a) { return a.rows(); }); })
      .def_prop_ro(
          "cols",
          [](const PyDeviceMatrix& p) { return p.visit([](const auto& a) { return a.cols(); }); })
      .def_prop_ro("nonzeros",
                   [](const PyDeviceMatrix& p) {
                     return p.visit([](const auto& a) { return a.nonzeros(); });
                   })
      .def_prop_ro("stored_entries",
                   [](const PyDeviceMatrix& p) {
                     return p.visit([](const auto& a) { return a.stored_entries(); });
                   })
      .def_prop_ro("matrix_bytes",
                   [](const PyDeviceMatrix& p) {
                     return p.visit([](const auto& a) { return a.matrix_bytes(); });
                   })
      .def_prop_ro("kernel_choice",
                   [](const PyDeviceMatrix& p) { return p.choice.empty() ? "given" : p.choice; })
      .def_prop_ro("kernel",
                   [](const PyDeviceMatrix& p) {
                     return p.visit(
                         [](const auto& a) { return std::string(sparse::to_string(a.kernel())); });
                   })
      .def_prop_ro(
          "format",
          [](const PyDeviceMatrix& p) {
            return p.visit([](const auto& a) { return lower(sparse::to_string(a.format())); });
          })
      .def_prop_ro("device",
                   [](const PyDeviceMatrix& p) {
                     return p.visit([](const auto& a) { return a.device().id(); });
                   })
      .def("model_bytes",
           [](const PyDeviceMatrix& p, const std::string& k) {
             return p.visit([&](const auto& a) { return a.model_bytes(sparse::parse_kernel(k)); });
           })
      .def(
          "spmv",
          [](const PyDeviceMatrix& p, AnyArray x, std::optional<std::string> kernel) {
            return p.visit([&](const auto& a) { return spmv(a, x, kernel); });
          },
          nb::arg("x"), nb::arg("kernel").none() = nb::none());

  m.def(
      "_device_matrix",
      [](nb::handle dev, AnyArray indptr, AnyArray indices, AnyArray data,
         std::pair<long, long> shape, std::string kernel, int block_r, int block_c, int sell_slice,
         int sell_sort, int ell_subsection) {
        auto d = device_from(dev);
        sparse::DeviceOptions o;
        o.block_r = block_r;
        o.block_c = block_c;
        o.sell_slice = sell_slice;
        o.sell_sort = sell_sort;
        o.ell_subsection = ell_subsection;
        if (kernel != "auto") (void)sparse::parse_kernel(kernel);  // before any conversion
        return dispatch_value(data, "DeviceMatrix", [&]<class V>() {
          auto a = csr_from_arrays<V>(indptr, indices, data, shape);
          nb::gil_scoped_release release;
          const sparse::KernelChoice c = sparse::kernel_for(kernel, a, d->backend(), o);
          return PyDeviceMatrix{std::make_shared<DeviceMatrix<V>>(d, a, c.kernel, c.options),
                                c.reason};
        });
      },
      nb::arg("device").none(), nb::arg("indptr"), nb::arg("indices"), nb::arg("data"),
      nb::arg("shape"), nb::arg("kernel"), nb::arg("block_r"), nb::arg("block_c"),
      nb::arg("sell_slice"), nb::arg("sell_sort"), nb::arg("ell_subsection"));

  m.def(
      "kernels",
      [](std::optional<std::string> backend) {
        std::vector<std::string> names;
        for (auto k : sparse::all_kernels()) {
          if (backend) {
            const Backend b = *backend == "cuda"     ? Backend::cuda
                              : *backend == "opencl" ? Backend::opencl
                                                     : Backend::cpu;
            if (!sparse::available(k, b)) continue;
          }
          names.emplace_back(sparse::to_string(k));
        }
        return names;
      },
      nb::arg("backend").none() = nb::none(),
      "SpMV kernel names (those available on a backend if given).");
  m.def("kernel_format", [](const std::string& k) {
    return lower(sparse::to_string(sparse::format_of(sparse::parse_kernel(k))));
  });

  // Matrix Market: entries in file order (duplicates kept, symmetric files expanded).
  m.def("_read_matrix_market", [](const std::string& path, bool allow_non_finite) {
    sparse::MmMatrix mm;
    {
      nb::gil_scoped_release release;
      mm = sparse::read_matrix_market_any(path, sparse::MmReadOptions{allow_non_finite});
    }
    nb::dict h;
    h["object"] = std::string(sparse::to_string(mm.header.object));
    h["format"] = std::string(sparse::to_string(mm.header.format));
    h["field"] = std::string(sparse::to_string(mm.header.field));
    h["symmetry"] = std::string(sparse::to_string(mm.header.symmetry));
    h["rows"] = mm.header.rows;
    h["cols"] = mm.header.cols;
    h["entries"] = mm.header.entries;
    h["comments"] = mm.header.comments;
    return std::visit(
        [&](auto& c) {
          return nb::make_tuple(nb::make_tuple(c.rows, c.cols), to_numpy(std::move(c.row)),
                                to_numpy(std::move(c.col)), to_numpy(std::move(c.val)), h);
        },
        mm.coo);
  });
  m.def(
      "_write_matrix_market",
      [](const std::string& path, AnyArray indptr, AnyArray indices, AnyArray data,
         std::pair<long, long> shape, std::string symmetry, std::optional<std::string> field,
         std::vector<std::string> comments) {
        sparse::MmWriteOptions o;
        o.symmetry = parse_symmetry(symmetry);
        if (field) {
          auto f = sparse::parse_mm_field(*field);
          if (!f)
            throw UsageError(
                "write_matrix_market: field must be real, integer, complex or pattern (got '" +
                *field + "')");
          o.field = *f;
        }
        o.comments = std::move(comments);
        dispatch_value(data, "write_matrix_market", [&]<class V>() {
          auto a = csr_from_arrays<V>(indptr, indices, data, shape);
          sparse::write_matrix_market(path, a, o);
          return 0;
        });
      },
      nb::arg("path"), nb::arg("indptr"), nb::arg("indices"), nb::arg("data"), nb::arg("shape"),
      nb::arg("symmetry"), nb::arg("field").none(), nb::arg("comments"));

  // Host formats: storage of each (bytes of values + indices) and the
  // reference SpMV of a format (the CPU oracle).
  m.def(
      "_convert",
      [](AnyArray indptr, AnyArray indices, AnyArray data, std::pair<long, long> shape,
         std::string format, int block_r, int block_c) {
        return dispatch_value(data, "convert", [&]<class V>() -> nb::object {
          auto a = csr_from_arrays<V>(indptr, indices, data, shape);
          nb::dict r;
          r["format"] = format;
          if (format == "ell") {
            auto e = sparse::to_ell(a);
            r["width"] = e.width;
            r["stored_rows"] = e.stored_rows;
            r["col"] = to_numpy(std::move(e.col));
            r["val"] = to_numpy(std::move(e.val));
            r["row_map"] = to_numpy(std::move(e.row_map));
          } else if (format == "sell") {
            auto s = sparse::to_sell(a);
            r["slice_height"] = s.slice_height;
            r["slice_ptr"] = to_numpy(std::move(s.slice_ptr));
            r["col"] = to_numpy(std::move(s.col));
            r["val"] = to_numpy(std::move(s.val));
            r["row_map"] = to_numpy(std::move(s.row_map));
          } else if (format == "bcsr") {
            sparse::BcsrOptions bo;
            bo.r = block_r;
            bo.c = block_c;
            auto b = sparse::to_bcsr(a, bo);
            r["block"] = nb::make_tuple(block_r, block_c);
            r["row_ptr"] = to_numpy(std::move(b.row_ptr));
            r["col"] = to_numpy(std::move(b.col));
            r["val"] = to_numpy(std::move(b.val));
          } else if (format == "dia") {
            auto dd = sparse::to_dia(a);
            r["offsets"] = to_numpy(std::move(dd.offsets));
            r["data"] = to_numpy(std::move(dd.data));
          } else {
            throw UsageError("convert: format must be ell, sell, bcsr or dia (got '" + format +
                             "')");
          }
          return r;
        });
      },
      nb::arg("indptr"), nb::arg("indices"), nb::arg("data"), nb::arg("shape"), nb::arg("format"),
      nb::arg("block_r") = 5, nb::arg("block_c") = 5);
}

}  // namespace tessera::py
