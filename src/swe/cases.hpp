// Built-in cases of the physical model and the analytic solutions the
// validation compares against (SWASHES parameters, anchors-shallow-water.md
// §2.1), plus the ESRI ASCII grid reader for bathymetry and initial levels.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "swe/physical.hpp"

namespace tessera::swe {

/// Names of the built-in cases: thesis-dam, stoker, ritter, thacker,
/// lake-at-rest, radial-dam.
const std::vector<std::string>& case_names();

/// A built-in case on nx × ny cells (0: the case's default size).
/// Throws UsageError for an unknown name.
PhysCase make_case(const std::string& name, long nx, long ny);

/// 1D dam break at x0 with depths hl > hr >= 0 (Stoker when hr > 0, Ritter
/// when hr = 0), still water, at time t > 0: depth and velocity at x.
struct DamBreak1D {
  double hl, hr, x0, g = 9.81;
  void at(double x, double t, double& h, double& u) const;
};

/// Thacker's radially symmetric paraboloid (SWASHES 2D, `2 1 1 1`): bowl
/// z = -h0 (1 - r^2/a^2) centred in [0, L]^2.
struct Thacker2D {
  double L = 4, a = 1, h0 = 0.1, r0 = 0.8, g = 9.81;
  double omega() const;
  double period() const;
  double bed(double x, double y) const;
  void at(double x, double y, double t, double& h, double& u, double& v) const;
};

/// An ESRI ASCII grid (.asc): ncols, nrows, cell size, corner, NODATA.
/// values are stored top row first, as in the file.
struct AscGrid {
  long ncols = 0, nrows = 0;
  double xll = 0, yll = 0, cellsize = 0;
  double dx = 0, dy = 0;  ///< cell sizes: cellsize both, or GDAL's `dx`/`dy` (non-square cells)
  std::string crs_wkt;  ///< the coordinate reference system of a `.prj` beside the file ("": none)
  bool has_nodata = false;
  double nodata = -9999;
  std::vector<double> values;
  double at(long row, long col) const { return values[row * ncols + col]; }
};
/// Strict reader: errors name the file and line and what was expected;
/// NODATA cells are kept as NODATA (callers decide). Cells are `cellsize`
/// square or `dx` by `dy` (GDAL writes those for non-square cells); a `.prj`
/// beside the file (the same name with .prj) gives the CRS as WKT.
AscGrid read_asc(const std::string& path);
/// Bathymetry for a case from a grid: x = columns, y = rows (bottom row
/// first), NODATA cells become high ground (above every other value) unless
/// `nodata_error`, in which case they are an error.
void apply_bathymetry(PhysCase& c, const AscGrid& g, bool nodata_error);
/// A raster by its name: .asc and .txt through read_asc (strict, file:line),
/// anything else (GeoTIFF, ...) through GDAL (read_gdal): one band,
/// north-up, finite values or NODATA, the CRS as WKT. Without GDAL a
/// non-ESRI raster is refused (UsageError) saying how to convert it.
AscGrid read_raster(const std::string& path);
AscGrid read_gdal(const std::string& path);
/// Whether this build reads and writes rasters through GDAL.
bool gdal_supported();
/// As write_asc, a GeoTIFF (Float32, DEFLATE, NODATA -9999, the case's CRS;
/// written under a temporary name and renamed); UsageError without GDAL.
void write_geotiff(const std::string& path, const PhysCase& c, const std::vector<double>& values,
                   const std::function<bool(std::size_t)>& nodata = {});
/// Writes values of c's grid (i*ny + j, x = columns, the top row first in
/// the file) as an ESRI ASCII grid readable by read_asc and GDAL: `cellsize`
/// or `dx`/`dy`, NODATA -9999 where `nodata(k)`, and a `.prj` with the case's
/// CRS; both atomically.
void write_asc(const std::string& path, const PhysCase& c, const std::vector<double>& values,
               const std::function<bool(std::size_t)>& nodata = {});

}  // namespace tessera::swe
