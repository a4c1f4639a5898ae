// Rasters through GDAL (Debian libgdal-dev; optional at build time,
// TESSERA_SWE_HAVE_GDAL): GeoTIFF and every other raster GDAL reads, as the
// AscGrid the ESRI reader fills, and GeoTIFF output of the maximum maps.
// Without GDAL both refuse with what to install or how to convert.
#include <cmath>
#include <limits>
#include <memory>
#include <filesystem>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "swe/cases.hpp"
#include "swe/physical.hpp"

#if TESSERA_SWE_HAVE_GDAL
#include <cpl_conv.h>
#include <gdal_priv.h>
#include <ogr_spatialref.h>
#endif

namespace tessera::swe {

#if TESSERA_SWE_HAVE_GDAL
bool gdal_supported() { return true; }
#else
bool gdal_supported() { return false; }
#endif

namespace {

[[maybe_unused]] std::string lower_ext(const std::string& path) {
  std::string e = std::filesystem::path(path).extension().string();
  for (char& c : e) c = char(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

}  // namespace

#if TESSERA_SWE_HAVE_GDAL

namespace {

struct Closer {
  void operator()(GDALDataset* d) const { GDALClose(GDALDataset::ToHandle(d)); }
};
using Dataset = std::unique_ptr<GDALDataset, Closer>;

// GDAL reports through CPLError; errors become the exception's text.
std::string last_gdal_error() {
  const char* m = CPLGetLastErrorMsg();
  return m && *m ? m : "no message";
}

}  // namespace

AscGrid read_gdal(const std::string& path) {
  GDALAllRegister();
  CPLErrorReset();
  CPLPushErrorHandler(CPLQuietErrorHandler);
  Dataset d(GDALDataset::Open(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY));
  CPLPopErrorHandler();
  if (!d)
    throw Error(fmt::format("{}: GDAL cannot open it as a raster ({})", path, last_gdal_error()));
  if (d->GetRasterCount() < 1) throw Error(fmt::format("{}: no raster band", path));
  if (d->GetRasterCount() > 1)
    throw Error(fmt::format("{}: {} bands; a terrain, level or Manning raster has one", path,
                            d->GetRasterCount()));
  double gt[6];
  if (d->GetGeoTransform(gt) != CE_None)
    throw Error(fmt::format("{}: no geotransform: the cells' size and position are unknown", path));
  if (gt[2] != 0 || gt[4] != 0)
    throw Error(
        fmt::format("{}: a rotated grid (geotransform skew {}, {}); warp it to a north-up "
                    "grid first (gdalwarp)",
                    path, gt[2], gt[4]));
  if (!(gt[1] > 0) || gt[5] == 0 || !std::isfinite(gt[0]) || !std::isfinite(gt[3]))
    throw Error(fmt::format("{}: cell sizes {} x {}: expected positive sizes", path, gt[1], gt[5]));
  AscGrid g;
  g.ncols = d->GetRasterXSize();
  g.nrows = d->GetRasterYSize();
  g.dx = g.cellsize = gt[1];
  g.dy = std::fabs(gt[5]);
  g.xll = gt[0];
  g.yll = gt[5] < 0 ? gt[3] + double(g.nrows) * gt[5] : gt[3];
  GDALRasterBand* b = d->GetRasterBand(1);
  if (GDALDataTypeIsComplex(b->GetRasterDataType()))
    throw Error(
        fmt::format("{}: complex values ({}); a terrain, level or Manning raster holds "
                    "real numbers",
                    path, GDALGetDataTypeName(b->GetRasterDataType())));
  int has = 0;
  const double nd = b->GetNoDataValue(&has);
  g.has_nodata = has != 0;
  g.nodata = g.has_nodata ? nd : -9999;
  g.values.resize(std::size_t(g.ncols) * std::size_t(g.nrows));
  if (b->RasterIO(GF_Read, 0, 0, int(g.ncols), int(g.nrows), g.values.data(), int(g.ncols),
                  int(g.nrows), GDT_Float64, 0, 0) != CE_None)
    throw Error(fmt::format("{}: reading the band failed ({})", path, last_gdal_error()));
  if (gt[5] > 0)  // south-up: the rows are stored bottom first; AscGrid wants the top first
    for (long r = 0; r < g.nrows / 2; ++r)
      std::swap_ranges(g.values.begin() + r * g.ncols, g.values.begin() + (r + 1) * g.ncols,
                       g.values.begin() + (g.nrows - 1 - r) * g.ncols);
  if (g.has_nodata && std::isnan(nd)) {  // NaN NODATA: a value callers can compare with
    g.nodata = -std::numeric_limits<double>::max();
    for (double& v : g.values)
      if (std::isnan(v)) v = g.nodata;
  }
  // packed values (an Int16 DEM in centimetres with scale 0.01): the
  // band's scale and offset applied to every value but NODATA
  int has_scale = 0, has_offset = 0;
  const double scale = b->GetScale(&has_scale), offset = b->GetOffset(&has_offset);
  if ((has_scale && scale != 1) || (has_offset && offset != 0)) {
    if (!std::isfinite(scale) || scale == 0 || !std::isfinite(offset))
      throw Error(fmt::format("{}: band scale {} and offset {}: expected a finite, non-zero scale",
                              path, scale, offset));
    for (double& v : g.values)
      if (!(g.has_nodata && v == g.nodata)) v = v * scale + offset;
  }
  for (std::size_t k = 0; k < g.values.size(); ++k)
    if (!std::isfinite(g.values[k]))
      throw Error(fmt::format("{}: a non-finite value at row {}, column {}", path,
                              k / std::size_t(g.ncols) + 1, k % std::size_t(g.ncols) + 1));
  if (const OGRSpatialReference* srs = d->GetSpatialRef()) {
    char* wkt = nullptr;
    const char* options[] = {"FORMAT=WKT1_ESRI", nullptr};
    if (srs->exportToWkt(&wkt, options) == OGRERR_NONE && wkt) g.crs_wkt = wkt;
    CPLFree(wkt);
  }
  return g;
}

void write_geotiff(const std::string& path, const PhysCase& c, const std::vector<double>& values,
                   const std::function<bool(std::size_t)>& nodata) {
  GDALAllRegister();
  GDALDriver* drv = GetGDALDriverManager()->GetDriverByName("GTiff");
  if (!drv) throw Error("GDAL has no GTiff driver");
  // a temporary name in the same folder, renamed when complete (removed on
  // failure: no half-written file is left)
  const std::string tmp = path + ".partial.tif";
  struct Remove {
    const std::string& p;
    bool keep = false;
    ~Remove() {
      std::error_code ec;
      if (!keep) std::filesystem::remove(p, ec);
    }
  } remove{tmp};
  const char* options[] = {"COMPRESS=DEFLATE", "TILED=YES", nullptr};
  {
    CPLErrorReset();
    Dataset d(drv->Create(tmp.c_str(), int(c.nx), int(c.ny), 1, GDT_Float32,
                          const_cast<char**>(options)));
    if (!d) throw Error(fmt::format("{}: cannot create ({})", tmp, last_gdal_error()));
    double gt[6] = {c.x0, c.dx, 0, c.y0 + double(c.ny) * c.dy, 0, -c.dy};
    d->SetGeoTransform(gt);
    if (!c.crs_wkt.empty()) {
      OGRSpatialReference srs;
      if (srs.importFromWkt(c.crs_wkt.c_str()) == OGRERR_NONE) d->SetSpatialRef(&srs);
    }
    std::vector<float> rows(std::size_t(c.nx) * std::size_t(c.ny));
    for (long r = 0; r < c.ny; ++r)  // the top row (largest y) first
      for (long i = 0; i < c.nx; ++i) {
        const std::size_t k = std::size_t(i * c.ny + (c.ny - 1 - r));
        rows[std::size_t(r * c.nx + i)] = nodata && nodata(k) ? -9999.0f : float(values[k]);
      }
    GDALRasterBand* b = d->GetRasterBand(1);
    b->SetNoDataValue(-9999.0);
    if (b->RasterIO(GF_Write, 0, 0, int(c.nx), int(c.ny), rows.data(), int(c.nx), int(c.ny),
                    GDT_Float32, 0, 0) != CE_None)
      throw Error(fmt::format("{}: writing failed ({})", tmp, last_gdal_error()));
    d->FlushCache();
    if (CPLGetLastErrorType() == CE_Failure || CPLGetLastErrorType() == CE_Fatal)
      throw Error(fmt::format("{}: writing failed ({})", tmp, last_gdal_error()));
  }  // closed: the file is complete
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw Error(fmt::format("{}: cannot rename {} to it: {}", path, tmp, ec.message()));
  remove.keep = true;
}

#else

AscGrid read_gdal(const std::string& path) {
  throw UsageError(fmt::format(
      "{}: a {} raster needs GDAL, and this tessera was built without it (install libgdal-dev and "
      "rebuild), or convert it: gdal_translate -of AAIGrid {} terrain.asc",
      path, lower_ext(path).empty() ? "non-ESRI" : lower_ext(path), path));
}

void write_geotiff(const std::string& path, const PhysCase&, const std::vector<double>&,
                   const std::function<bool(std::size_t)>&) {
  throw UsageError(
      fmt::format("{}: GeoTIFF output needs GDAL, and this tessera was built without it (install "
                  "libgdal-dev and rebuild); --raster-format asc writes ESRI grids",
                  path));
}

#endif

AscGrid read_raster(const std::string& path) {
  const std::string e = lower_ext(path);
  if (e == ".asc" || e == ".txt") return read_asc(path);
  return read_gdal(path);
}

}  // namespace tessera::swe
