// CF NetCDF time series (netcdf-c); without libnetcdf, available() is false
// and constructing a writer throws.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "swe/output.hpp"

#if TESSERA_SWE_HAVE_NETCDF
#include <netcdf.h>
#endif

namespace tessera::swe {

#if TESSERA_SWE_HAVE_NETCDF

namespace {
void nc(int status, const std::string& path, const char* what) {
  if (status != NC_NOERR) throw Error(fmt::format("{}: NetCDF {}: {}", path, what, nc_strerror(status)));
}
}  // namespace

struct NetcdfWriter::Impl {
  std::string path, tmp;
  int id = -1, t_dim = 0, var_t = 0, var_h = 0, var_u = 0, var_v = 0, var_eta = 0, var_z = 0,
      var_x = 0, var_y = 0, var_hmax = 0, var_tmax = 0;
  std::size_t records = 0;
  long nx = 0, ny = 0;
  std::vector<double> hmax, tmax;

  void define(const Snapshot& s) {
    nx = s.nx;
    ny = s.ny;
    nc(nc_create(tmp.c_str(), NC_CLOBBER | NC_NETCDF4, &id), path, "create");
    int y_dim, x_dim;
    nc(nc_def_dim(id, "t", NC_UNLIMITED, &t_dim), path, "dim t");
    nc(nc_def_dim(id, "y", static_cast<std::size_t>(ny), &y_dim), path, "dim y");
    nc(nc_def_dim(id, "x", static_cast<std::size_t>(nx), &x_dim), path, "dim x");
    auto var = [&](const char* name, int nd, const int* dims, const char* units, const char* long_name,
                   const char* standard_name) {
      int v;
      nc(nc_def_var(id, name, NC_DOUBLE, nd, dims, &v), path, name);
      nc(nc_put_att_text(id, v, "units", std::strlen(units), units), path, "units");
      nc(nc_put_att_text(id, v, "long_name", std::strlen(long_name), long_name), path, "long_name");
      if (standard_name)
        nc(nc_put_att_text(id, v, "standard_name", std::strlen(standard_name), standard_name), path, "standard_name");
      if (nd >= 2) {
        const double fill = std::numeric_limits<double>::quiet_NaN();
        nc(nc_def_var_fill(id, v, 0, &fill), path, "_FillValue");
      }
      return v;
    };
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
    const char* conv = "CF-1.8";
    nc(nc_put_att_text(id, NC_GLOBAL, "Conventions", std::strlen(conv), conv), path, "Conventions");
    const char* src = "tessera swe";
    nc(nc_put_att_text(id, NC_GLOBAL, "source", std::strlen(src), src), path, "source");
    nc(nc_enddef(id), path, "enddef");
    std::vector<double> xs(static_cast<std::size_t>(nx)), ys(static_cast<std::size_t>(ny)), z(static_cast<std::size_t>(nx * ny), 0.0);
    for (long i = 0; i < nx; ++i) xs[i] = s.x0 + (double(i) + 0.5) * s.dx;
    for (long j = 0; j < ny; ++j) ys[j] = s.y0 + (double(j) + 0.5) * s.dy;
    nc(nc_put_var_double(id, var_x, xs.data()), path, "write x");
    nc(nc_put_var_double(id, var_y, ys.data()), path, "write y");
    if (!s.z.empty()) z = yx_order(s.z);
    nc(nc_put_var_double(id, var_z, z.data()), path, "write z");
    hmax.assign(z.size(), -1.0);
    tmax.assign(z.size(), 0.0);
  }
  // i*ny + j -> (y, x) row-major
  std::vector<double> yx_order(const std::vector<double>& a) const {
    std::vector<double> o(a.size());
    for (long i = 0; i < nx; ++i)
      for (long j = 0; j < ny; ++j) o[static_cast<std::size_t>(j * nx + i)] = a[static_cast<std::size_t>(i * ny + j)];
    return o;
  }
};

bool NetcdfWriter::available() { return true; }

NetcdfWriter::NetcdfWriter(std::string path) : impl_(std::make_unique<Impl>()) {
  impl_->path = std::move(path);
  impl_->tmp = impl_->path + ".partial";
}

NetcdfWriter::~NetcdfWriter() {
  if (impl_ && impl_->id >= 0) {  // not closed: an interrupted run leaves only the .partial file
    nc_close(impl_->id);
  }
}

void NetcdfWriter::append(const Snapshot& s) {
  Impl& m = *impl_;
  if (m.id < 0) m.define(s);
  if (s.nx != m.nx || s.ny != m.ny) throw Error(m.path + ": snapshot size changed");
  const std::size_t n = static_cast<std::size_t>(s.nx * s.ny);
  std::vector<double> u(n), v(n), eta(n);
  for (std::size_t k = 0; k < n; ++k) {
    u[k] = s.u(k);
    v[k] = s.v(k);
    eta[k] = s.eta(k);
  }
  const std::size_t start[3] = {m.records, 0, 0}, count[3] = {1, static_cast<std::size_t>(s.ny), static_cast<std::size_t>(s.nx)};
  nc(nc_put_var1_double(m.id, m.var_t, start, &s.time), m.path, "write t");
  const auto h = m.yx_order(s.h);
  nc(nc_put_vara_double(m.id, m.var_h, start, count, h.data()), m.path, "write h");
  nc(nc_put_vara_double(m.id, m.var_u, start, count, m.yx_order(u).data()), m.path, "write u");
  nc(nc_put_vara_double(m.id, m.var_v, start, count, m.yx_order(v).data()), m.path, "write v");
  nc(nc_put_vara_double(m.id, m.var_eta, start, count, m.yx_order(eta).data()), m.path, "write eta");
  for (std::size_t k = 0; k < n; ++k)
    if (h[k] > m.hmax[k]) {
      m.hmax[k] = h[k];
      m.tmax[k] = s.time;
    }
  ++m.records;
}

void NetcdfWriter::close() {
  Impl& m = *impl_;
  if (m.id < 0) return;
  nc(nc_put_var_double(m.id, m.var_hmax, m.hmax.data()), m.path, "write hmax");
  nc(nc_put_var_double(m.id, m.var_tmax, m.tmax.data()), m.path, "write time_of_hmax");
  nc(nc_close(m.id), m.path, "close");
  m.id = -1;
  std::error_code ec;
  std::filesystem::rename(m.tmp, m.path, ec);
  if (ec) throw Error(fmt::format("{}: cannot rename from {}: {}", m.path, m.tmp, ec.message()));
}

#else

struct NetcdfWriter::Impl {};
bool NetcdfWriter::available() { return false; }
NetcdfWriter::NetcdfWriter(std::string path) {
  throw UsageError(fmt::format("{}: this build has no NetCDF (install libnetcdf-dev and rebuild)", path));
}
NetcdfWriter::~NetcdfWriter() = default;
void NetcdfWriter::append(const Snapshot&) {}
void NetcdfWriter::close() {}

#endif

}  // namespace tessera::swe
