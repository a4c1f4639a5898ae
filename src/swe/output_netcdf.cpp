// CF NetCDF time series (netcdf-c); without libnetcdf, available() is false
// and constructing a writer throws.
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "swe/output.hpp"

#if TESSERA_SWE_HAVE_NETCDF
#include <dlfcn.h>
#include <fcntl.h>
#include <netcdf.h>
#include <unistd.h>

#include "core/fault_injection.hpp"
#endif

namespace tessera::swe {

#if TESSERA_SWE_HAVE_NETCDF

// Every library call's status is checked. A failure (a full disk shows up
// as "NetCDF: HDF error", often only when nc_close flushes HDF5's cache)
// abandons the file: the handle is aborted (also after a failed nc_close,
// which leaves it open), the temporary is removed, and an Error names the
// file. Nothing is left under either name; HDF5's exit-time clean-up, which
// crashed on a file whose close failed, is off (no_hdf5_exit_cleanup).
struct NetcdfWriter::Impl {
  std::string path, tmp;
  int id = -1, t_dim = 0, var_t = 0, var_h = 0, var_u = 0, var_v = 0, var_eta = 0, var_z = 0,
      var_x = 0, var_y = 0, var_hmax = 0, var_tmax = 0;
  std::size_t records = 0;
  long nx = 0, ny = 0;
  std::vector<double> hmax, tmax;
  bool done = false;  // closed, or abandoned after a failure

  /// Throws Error naming the file when `status` is a failure, after
  /// abandoning the file.
  void check(int status, const char* what) {
    const int err = errno;  // HDF5 reports "HDF error"; the system's reason is in errno
    if (status == NC_NOERR) {
      errno = 0;  // so that the next failure's errno is its own
      return;
    }
    abandon();
    const bool disk = status == NC_EHDFERR && (err == ENOSPC || err == EDQUOT || err == EFBIG ||
                                               err == EIO || err == EROFS);
    throw Error(fmt::format("cannot write '{}' (NetCDF {}): {}{}", path, what, nc_strerror(status),
                            disk ? fmt::format(" ({})", std::strerror(err)) : std::string()));
  }
  /// The status of a call that writes data (or closes the file); the
  /// test-only point write_netcdf turns the N-th into a full disk's error.
  static int written(int status) {
    if (status != NC_NOERR || !fault::inject(fault::Point::write_netcdf)) return status;
    errno = ENOSPC;
    return NC_EHDFERR;
  }
  /// Gives the file up: aborts the handle (its buffers are dropped) and
  /// removes the temporary. Never throws; used on every failure and by the
  /// destructor.
  void abandon() noexcept {
    if (id >= 0) nc_abort(id);  // after a failed nc_close the handle is still open
    id = -1;
    done = true;
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
  }

  void define(const Snapshot& s) {
    nx = s.nx;
    ny = s.ny;
    errno = 0;
    check(nc_create(tmp.c_str(), NC_CLOBBER | NC_NETCDF4, &id), "create");
    int y_dim, x_dim;
    check(nc_def_dim(id, "t", NC_UNLIMITED, &t_dim), "dim t");
    check(nc_def_dim(id, "y", static_cast<std::size_t>(ny), &y_dim), "dim y");
    check(nc_def_dim(id, "x", static_cast<std::size_t>(nx), &x_dim), "dim x");
    const int t3[3] = {t_dim, y_dim, x_dim}, yx[2] = {y_dim, x_dim};
    var_t = var("t", 1, &t_dim, "s", "simulated time", "time");
    var_x = var("x", 1, &x_dim, "m", "cell centre x", "projection_x_coordinate");
    var_y = var("y", 1, &y_dim, "m", "cell centre y", "projection_y_coordinate");
    var_h = var("h", 3, t3, "m", "water depth", "sea_floor_depth_below_sea_surface");
    var_u = var("u", 3, t3, "m s-1", "depth-averaged x velocity", nullptr);
    var_v = var("v", 3, t3, "m s-1", "depth-averaged y velocity", nullptr);
    var_eta = var("eta", 3, t3, "m", "water surface elevation (z + h)", nullptr);
    var_z = var("z", 2, yx, "m", "bed elevation", nullptr);
    var_hmax = var("hmax", 2, yx, "m", "maximum water depth over the written times", nullptr);
    var_tmax = var("time_of_hmax", 2, yx, "s", "time of the maximum water depth", nullptr);
    if (!s.crs_wkt.empty()) {  // CF grid_mapping: GDAL and QGIS read crs_wkt / spatial_ref
      int crs;
      check(nc_def_var(id, "crs", NC_INT, 0, nullptr, &crs), "crs");
      for (const char* att : {"crs_wkt", "spatial_ref"})
        check(nc_put_att_text(id, crs, att, s.crs_wkt.size(), s.crs_wkt.c_str()), att);
      const char* mapping = "crs";
      for (int v : {var_h, var_u, var_v, var_eta, var_z, var_hmax, var_tmax})
        check(nc_put_att_text(id, v, "grid_mapping", std::strlen(mapping), mapping),
              "grid_mapping");
    }
    global_text("Conventions", "CF-1.8");
    global_text("source", "tessera swe");
    check(nc_enddef(id), "enddef");
    std::vector<double> xs(static_cast<std::size_t>(nx)), ys(static_cast<std::size_t>(ny)),
        z(static_cast<std::size_t>(nx * ny), 0.0);
    for (long i = 0; i < nx; ++i) xs[i] = s.x0 + (double(i) + 0.5) * s.dx;
    for (long j = 0; j < ny; ++j) ys[j] = s.y0 + (double(j) + 0.5) * s.dy;
    check(written(nc_put_var_double(id, var_x, xs.data())), "write x");
    check(written(nc_put_var_double(id, var_y, ys.data())), "write y");
    if (!s.z.empty()) z = yx_order(s.z);
    check(written(nc_put_var_double(id, var_z, z.data())), "write z");
    hmax.assign(z.size(), -1.0);
    tmax.assign(z.size(), 0.0);
  }
  /// A variable with its units and long name (a 2D or 3D one with a NaN
  /// fill value).
  int var(const char* name, int nd, const int* dims, const char* units, const char* long_name,
          const char* standard_name) {
    int v;
    check(nc_def_var(id, name, NC_DOUBLE, nd, dims, &v), name);
    check(nc_put_att_text(id, v, "units", std::strlen(units), units), "units");
    check(nc_put_att_text(id, v, "long_name", std::strlen(long_name), long_name), "long_name");
    if (standard_name)
      check(nc_put_att_text(id, v, "standard_name", std::strlen(standard_name), standard_name),
            "standard_name");
    if (nd >= 2) {
      const double fill = std::numeric_limits<double>::quiet_NaN();
      check(nc_def_var_fill(id, v, 0, &fill), "_FillValue");
    }
    return v;
  }
  void global_text(const char* name, const char* text) {
    check(nc_put_att_text(id, NC_GLOBAL, name, std::strlen(text), text), name);
  }
  /// Closes the file, makes it durable and gives it its name (as
  /// write_file_atomic does). A full disk is often seen only here, when
  /// HDF5 flushes its caches; the handle stays open after a failed
  /// nc_close, and is aborted by check().
  void commit() {
    const int closed = nc_close(id);
    if (closed == NC_NOERR) id = -1;
    check(written(closed), "close");
    auto fail = [this](const char* step, int err) {
      abandon();
      throw Error(fmt::format("cannot write '{}' ({}): {}", path, step, std::strerror(err)));
    };
    if (const int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC); fd < 0) {
      fail("open for fsync", errno);
    } else if (::fsync(fd) != 0) {
      const int err = errno;
      ::close(fd);
      fail("fsync", err);
    } else {
      ::close(fd);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) fail("rename", errno);
    done = true;
    const auto dir = std::filesystem::path(path).parent_path();
    if (const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
  }
  // i*ny + j -> (y, x) row-major
  std::vector<double> yx_order(const std::vector<double>& a) const {
    std::vector<double> o(a.size());
    for (long i = 0; i < nx; ++i)
      for (long j = 0; j < ny; ++j)
        o[static_cast<std::size_t>(j * nx + i)] = a[static_cast<std::size_t>(i * ny + j)];
    return o;
  }
};

bool NetcdfWriter::available() { return true; }

namespace {
// HDF5 (1.10 at least) keeps a file whose close failed (a full disk) in its
// table of open files with the file's structures already freed, and its
// exit-time clean-up (H5_term_library, an atexit handler) then closes it
// again and dies with SIGSEGV, after tessera has reported the failure. The
// library's own switch for that clean-up, H5dont_atexit(), takes effect
// before HDF5 starts, i.e. before the first nc_create; the process frees
// everything at exit anyway. libhdf5 is loaded with libnetcdf, so the
// symbol is looked up there (tessera does not link HDF5 itself).
void no_hdf5_exit_cleanup() {
  static const bool done = [] {
    using Fn = int (*)();
    if (auto* f = reinterpret_cast<Fn>(::dlsym(RTLD_DEFAULT, "H5dont_atexit"))) f();
    return true;
  }();
  (void)done;
}
}  // namespace

NetcdfWriter::NetcdfWriter(std::string path) : impl_(std::make_unique<Impl>()) {
  no_hdf5_exit_cleanup();
  impl_->path = std::move(path);
  impl_->tmp = impl_->path + ".partial";
}

// Not closed (an interrupted run, or an exception elsewhere): the series is
// incomplete and is dropped, under both names.
NetcdfWriter::~NetcdfWriter() {
  if (impl_ && !impl_->done) impl_->abandon();
}

void NetcdfWriter::append(const Snapshot& s) {
  Impl& m = *impl_;
  if (m.done)
    throw Error(
        fmt::format("cannot write '{}': the NetCDF file is closed or was abandoned", m.path));
  if (m.id < 0) m.define(s);
  if (s.nx != m.nx || s.ny != m.ny) {
    m.abandon();
    throw Error(m.path + ": snapshot size changed");
  }
  const std::size_t n = static_cast<std::size_t>(s.nx * s.ny);
  std::vector<double> u(n), v(n), eta(n);
  for (std::size_t k = 0; k < n; ++k) {
    u[k] = s.u(k);
    v[k] = s.v(k);
    eta[k] = s.eta(k);
  }
  errno = 0;
  const std::size_t start[3] = {m.records, 0, 0},
                    count[3] = {1, static_cast<std::size_t>(s.ny), static_cast<std::size_t>(s.nx)};
  m.check(m.written(nc_put_var1_double(m.id, m.var_t, start, &s.time)), "write t");
  const auto h = m.yx_order(s.h);
  m.check(m.written(nc_put_vara_double(m.id, m.var_h, start, count, h.data())), "write h");
  m.check(m.written(nc_put_vara_double(m.id, m.var_u, start, count, m.yx_order(u).data())),
          "write u");
  m.check(m.written(nc_put_vara_double(m.id, m.var_v, start, count, m.yx_order(v).data())),
          "write v");
  m.check(m.written(nc_put_vara_double(m.id, m.var_eta, start, count, m.yx_order(eta).data())),
          "write eta");
  for (std::size_t k = 0; k < n; ++k)
    if (h[k] > m.hmax[k]) {
      m.hmax[k] = h[k];
      m.tmax[k] = s.time;
    }
  ++m.records;
}

void NetcdfWriter::close() {
  Impl& m = *impl_;
  if (m.done || m.id < 0) return;
  errno = 0;
  m.check(m.written(nc_put_var_double(m.id, m.var_hmax, m.hmax.data())), "write hmax");
  m.check(m.written(nc_put_var_double(m.id, m.var_tmax, m.tmax.data())), "write time_of_hmax");
  m.commit();
}

void NetcdfWriter::write_series(const std::string& path, const std::vector<SeriesColumn>& columns,
                                const std::vector<std::vector<double>>& rows) {
  NetcdfWriter w(path);
  Impl& m = *w.impl_;
  errno = 0;
  m.check(nc_create(m.tmp.c_str(), NC_CLOBBER | NC_NETCDF4, &m.id), "create");
  int t_dim;
  m.check(nc_def_dim(m.id, "time", rows.size(), &t_dim), "dim time");
  std::vector<int> vars;
  for (std::size_t k = 0; k < columns.size(); ++k) {
    const SeriesColumn& c = columns[k];
    vars.push_back(m.var(k == 0 ? "time" : c.name.c_str(), 1, &t_dim, c.units.c_str(),
                         c.long_name.c_str(), k == 0 ? "time" : nullptr));
  }
  m.global_text("Conventions", "CF-1.8");
  m.global_text("source", "tessera swe");
  m.check(nc_enddef(m.id), "enddef");
  std::vector<double> v(rows.size());
  for (std::size_t k = 0; k < columns.size(); ++k) {
    for (std::size_t r = 0; r < rows.size(); ++r) v[r] = rows[r].at(k);
    m.check(m.written(nc_put_var_double(m.id, vars[k], v.data())), columns[k].name.c_str());
  }
  m.commit();
}

#else

struct NetcdfWriter::Impl {};
bool NetcdfWriter::available() { return false; }
NetcdfWriter::NetcdfWriter(std::string path) {
  throw UsageError(
      fmt::format("{}: this build has no NetCDF (install libnetcdf-dev and rebuild)", path));
}
NetcdfWriter::~NetcdfWriter() = default;
void NetcdfWriter::append(const Snapshot&) {}
void NetcdfWriter::close() {}
void NetcdfWriter::write_series(const std::string& path, const std::vector<SeriesColumn>&,
                                const std::vector<std::vector<double>>&) {
  NetcdfWriter w(path);  // refuses, naming the file
}

#endif

}  // namespace tessera::swe
