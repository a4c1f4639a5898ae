// Output of the shallow-water module: the thesis's legacy VTK ASCII, VTK XML
// image data (.vti, appended raw binary) with a .pvd time series, CF NetCDF
// (optional dependency) and a PNG quick-look with a colour bar. Every file is
// written atomically (temporary name, then rename).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/figure.hpp"
#include "swe/physical.hpp"

namespace tessera::swe {

/// One output instant: interior fields in double, index i*ny + j.
struct Snapshot {
  long nx = 0, ny = 0;
  double dx = 1, dy = 1, x0 = 0, y0 = 0;
  double time = 0;
  long step = 0;
  std::vector<double> h, hu, hv, z;  ///< z may be empty (flat bottom, thesis)
  std::string crs_wkt;               ///< written as CF grid_mapping (NetCDF) when given
  double u(std::size_t k) const { return h[k] > 0 ? hu[k] / h[k] : 0.0; }
  double v(std::size_t k) const { return h[k] > 0 ? hv[k] / h[k] : 0.0; }
  double eta(std::size_t k) const { return h[k] + (z.empty() ? 0.0 : z[k]); }
};

/// The thesis's legacy VTK file (seed §2.3): RECTILINEAR_GRID with edge
/// coordinates, cell depth and (Qx/Z, Qy/Z, 0) velocities, "%.16f", x fastest.
void write_vtk_legacy(const std::string& path, const Snapshot& s);
/// VTK XML ImageData, Float64 cell arrays h, u, v, eta, z, appended raw.
void write_vti(const std::string& path, const Snapshot& s);
/// A ParaView collection of (time, file) entries.
void write_pvd(const std::string& path, const std::vector<std::pair<double, std::string>>& entries);
/// Quick-look of "depth" or "eta" with a colour bar and min/max labels.
/// The colour scale of a run's PNG quick-looks, one for all its frames.
struct PngScale {
  double lo = 0, hi = 1;
};
/// The scale of `field` (depth, eta) from a state, the run's start: depth
/// from 0 to its largest value (1 m where everything is dry); eta over the
/// wet cells only (dry ground and NODATA walls, high above, would wash the
/// water's colours out).
PngScale png_scale_of(const Snapshot& s, const std::string& field);
/// The field on `scale` (values beyond it take the end colours; the bar's
/// labels say so), dry cells grey in eta images, the time and the extent.
void write_png(const std::string& path, const Snapshot& s, const std::string& field,
               const PngScale& scale);
/// The figure write_png writes (io/figure.hpp), with where its parts lie.
io::Figure png_figure(const Snapshot& s, const std::string& field, const PngScale& scale);

/// CF-1.8 NetCDF time series: dims (t, y, x); h, u, v, eta with units; z;
/// max depth and time of max (over the written instants) added at close.
/// Written under PATH.partial and renamed by close(). A failed write or
/// close (a full disk) throws Error naming PATH and removes the .partial; a
/// writer destroyed unclosed (a run that stops early) removes it too, so
/// neither name holds an incomplete series (an earlier PATH stays intact).
/// A column of a time series file: its name, units and long name.
struct SeriesColumn {
  std::string name, units, long_name;
};

class NetcdfWriter {
 public:
  static bool available();  ///< built with libnetcdf
  explicit NetcdfWriter(std::string path);
  ~NetcdfWriter();
  void append(const Snapshot& s);
  void close();
  /// A whole time series (swe/series.hpp): dimension `time`, one variable a
  /// column (the first, the time, named `time`), written as the fields are
  /// (PATH.partial, renamed when whole).
  static void write_series(const std::string& path, const std::vector<SeriesColumn>& columns,
                           const std::vector<std::vector<double>>& rows);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::swe
