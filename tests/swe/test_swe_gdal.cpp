// Rasters through GDAL (swe/gdal_raster.cpp): a GeoTIFF DEM reads as the
// ESRI reader's grid (geometry, values, NODATA, CRS); what GDAL writes for
// the maximum maps reads back; rotated and multi-band rasters are refused;
// without GDAL every non-ESRI raster is refused, saying how to convert it.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "swe/cases.hpp"
#include "swe/crs.hpp"
#include "swe/physical.hpp"
#include "test_support.hpp"

#if TS_TEST_GDAL
#include <gdal_priv.h>
#include <ogr_spatialref.h>
#endif

namespace tessera::swe {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / fmt::format("tessera-gdal-{}", ::getpid());
  fs::create_directories(d);
  return d / name;
}

#if TS_TEST_GDAL

// A GeoTIFF written with GDAL's API (not tessera's writer): 5 x 3 cells of
// 2 m x 3 m from (100, 50), EPSG:32632, one NODATA cell, `bands` bands,
// geotransform skew `skew`, south-up when `flip`.
std::string make_tif(const std::string& name, int bands = 1, double skew = 0, bool flip = false) {
  GDALAllRegister();
  const std::string path = scratch(name).string();
  GDALDataset* d = GetGDALDriverManager()->GetDriverByName("GTiff")->Create(
      path.c_str(), 5, 3, bands, GDT_Float64, nullptr);
  double gt[6] = {100, 2, skew, flip ? 50.0 : 59.0, 0, flip ? 3.0 : -3.0};
  d->SetGeoTransform(gt);
  OGRSpatialReference srs;
  srs.importFromEPSG(32632);
  d->SetSpatialRef(&srs);
  double v[15];
  for (int k = 0; k < 15; ++k) v[k] = 10 * (k / 5) + k % 5 + 0.25;  // row r, column c: 10r + c
  v[7] = -1;                                                        // NODATA (row 1, column 2)
  GDALRasterBand* b = d->GetRasterBand(1);
  b->SetNoDataValue(-1);
  EXPECT_EQ(b->RasterIO(GF_Write, 0, 0, 5, 3, v, 5, 3, GDT_Float64, 0, 0), CE_None);
  GDALClose(GDALDataset::ToHandle(d));
  return path;
}

TEST(SweGdal, AGeoTiffReadsAsTheEsriReadersGrid) {
  const AscGrid g = read_raster(make_tif("dem.tif"));
  EXPECT_EQ(g.ncols, 5);
  EXPECT_EQ(g.nrows, 3);
  EXPECT_EQ(g.dx, 2);
  EXPECT_EQ(g.dy, 3);
  EXPECT_EQ(g.xll, 100);
  EXPECT_EQ(g.yll, 50);
  ASSERT_TRUE(g.has_nodata);
  EXPECT_EQ(g.nodata, -1);
  EXPECT_EQ(g.at(0, 0), 0.25);  // the top row first, as in an .asc
  EXPECT_EQ(g.at(2, 4), 24.25);
  EXPECT_EQ(g.at(1, 2), -1);
  EXPECT_NE(g.crs_wkt.find("32N"), std::string::npos) << g.crs_wkt;
  // south-up: the same grid
  const AscGrid s = read_raster(make_tif("south.tif", 1, 0, true));
  EXPECT_EQ(s.yll, 50);
  EXPECT_EQ(s.at(0, 0), 20.25) << "the file's last row is the top";
  EXPECT_EQ(s.at(2, 4), 4.25);
}

TEST(SweGdal, RotatedAndMultiBandRastersAreRefused) {
  const std::string rot = make_tif("rot.tif", 1, 0.5), two = make_tif("two.tif", 2);
  try {
    read_raster(rot);
    ADD_FAILURE() << "a rotated grid was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rotated grid"), std::string::npos) << e.what();
  }
  try {
    read_raster(two);
    ADD_FAILURE() << "two bands were read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("2 bands"), std::string::npos) << e.what();
  }
  const std::string junk = scratch("junk.tif").string();
  std::ofstream(junk) << "not a tiff";
  EXPECT_THROW(read_raster(junk), Error);
}

// A packed Int16 DEM (centimetres: scale 0.01, offset 5 m) reads in metres,
// NODATA kept; a complex band is refused.
TEST(SweGdal, PackedValuesAreUnpackedAndComplexOnesRefused) {
  GDALAllRegister();
  const std::string path = scratch("packed.tif").string();
  GDALDataset* d = GetGDALDriverManager()->GetDriverByName("GTiff")->Create(path.c_str(), 3, 2, 1,
                                                                            GDT_Int16, nullptr);
  double gt[6] = {0, 1, 0, 2, 0, -1};
  d->SetGeoTransform(gt);
  GDALRasterBand* b = d->GetRasterBand(1);
  b->SetNoDataValue(-32768);
  b->SetScale(0.01);
  b->SetOffset(5);
  std::int16_t v[6] = {1000, 1190, -32768, 0, -250, 32767};
  EXPECT_EQ(b->RasterIO(GF_Write, 0, 0, 3, 2, v, 3, 2, GDT_Int16, 0, 0), CE_None);
  GDALClose(GDALDataset::ToHandle(d));
  const AscGrid g = read_raster(path);
  EXPECT_DOUBLE_EQ(g.at(0, 0), 1000 * 0.01 + 5);
  EXPECT_DOUBLE_EQ(g.at(0, 1), 1190 * 0.01 + 5);
  EXPECT_EQ(g.at(0, 2), g.nodata) << "NODATA is compared unscaled and kept";
  EXPECT_DOUBLE_EQ(g.at(1, 0), 5);
  EXPECT_DOUBLE_EQ(g.at(1, 1), -250 * 0.01 + 5);
  EXPECT_DOUBLE_EQ(g.at(1, 2), 32767 * 0.01 + 5);

  const std::string cpath = scratch("complex.tif").string();
  GDALDataset* c = GetGDALDriverManager()->GetDriverByName("GTiff")->Create(cpath.c_str(), 2, 2, 1,
                                                                            GDT_CFloat32, nullptr);
  c->SetGeoTransform(gt);
  GDALClose(GDALDataset::ToHandle(c));
  try {
    read_raster(cpath);
    ADD_FAILURE() << "a complex band was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("complex values (CFloat32)"), std::string::npos)
        << e.what();
  }
}

// The WKT GDAL writes for a geographic system and for one in US feet: both
// refused for the terrain, naming the file and the unit; UTM passes.
TEST(SweGdal, TerrainsInDegreesOrFeetAreRefused) {
  auto wkt_of = [](int epsg, const char* format) {
    OGRSpatialReference srs;
    EXPECT_EQ(srs.importFromEPSG(epsg), OGRERR_NONE);
    char* w = nullptr;
    const char* options[] = {format, nullptr};
    EXPECT_EQ(srs.exportToWkt(&w, options), OGRERR_NONE);
    std::string out = w;
    CPLFree(w);
    return out;
  };
  for (const char* format : {"FORMAT=WKT1_ESRI", "FORMAT=WKT1_GDAL", "FORMAT=WKT2_2019"}) {
    SCOPED_TRACE(format);
    EXPECT_NO_THROW(require_metres("utm.tif", wkt_of(32633, format)));
    const CrsUnit utm = crs_unit(wkt_of(32633, format));
    EXPECT_TRUE(utm.known && !utm.geographic);
    EXPECT_EQ(utm.metres, 1);
    try {
      require_metres("geo.tif", wkt_of(4326, format));
      ADD_FAILURE() << "degrees accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("geo.tif: its coordinate system"), std::string::npos);
      EXPECT_NE(std::string(e.what()).find("is geographic"), std::string::npos) << e.what();
    }
    const CrsUnit ft = crs_unit(wkt_of(2263, format));
    EXPECT_TRUE(ft.known && !ft.geographic);
    EXPECT_NEAR(ft.metres, 1200.0 / 3937.0, 1e-12) << ft.unit;
    EXPECT_THROW(require_metres("ft.tif", wkt_of(2263, format)), Error);
  }
}

TEST(SweGdal, TheMaximumMapsGeoTiffReadsBack) {
  PhysCase c;
  c.nx = 4, c.ny = 3, c.dx = 2, c.dy = 5, c.x0 = -10, c.y0 = 20;
  OGRSpatialReference srs;
  srs.importFromEPSG(2056);
  char* wkt = nullptr;
  srs.exportToWkt(&wkt);
  c.crs_wkt = wkt;
  CPLFree(wkt);
  const auto v = test::random_vector<double>(12, 3, 0, 5);
  const std::string path = scratch("max.tif").string();
  write_geotiff(path, c, v, [](std::size_t k) { return k == 5; });
  const AscGrid g = read_raster(path);
  EXPECT_EQ(g.ncols, 4);
  EXPECT_EQ(g.nrows, 3);
  EXPECT_EQ(g.xll, -10);
  EXPECT_EQ(g.yll, 20);
  EXPECT_EQ(g.dy, 5);
  for (long i = 0; i < 4; ++i)
    for (long j = 0; j < 3; ++j) {
      const std::size_t k = std::size_t(i * 3 + j);
      EXPECT_EQ(g.at(2 - j, i), k == 5 ? -9999.0 : double(float(v[k]))) << i << "," << j;
    }
  EXPECT_NE(g.crs_wkt.find("CH1903+"), std::string::npos) << g.crs_wkt;
  EXPECT_FALSE(fs::exists(path + ".partial.tif")) << "the temporary name is gone";
}

#else

TEST(SweGdal, WithoutGdalRastersAreRefusedWithAWayOut) {
  const std::string p = scratch("dem.tif").string();
  std::ofstream(p) << "x";
  try {
    read_raster(p);
    ADD_FAILURE() << "read without GDAL";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("gdal_translate -of AAIGrid"), std::string::npos);
  }
}

#endif

}  // namespace
}  // namespace tessera::swe
