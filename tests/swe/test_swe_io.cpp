// Shallow-water I/O: every output format read back and compared, the strict
// .asc reader on good and bad files, the case-file (flat TOML) reader.
#include <png.h>

#include <array>
#include <cmath>
#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "io/raster.hpp"
#include "swe/cases.hpp"
#include "swe/crs.hpp"
#include "swe/output.hpp"
#include "test_support.hpp"

#if TS_TEST_NETCDF /* set by tests/swe/tests.cmake when the module writes NetCDF */
#include <netcdf.h>
#endif

namespace tessera::swe {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("tessera_swe_io_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d / name;
}

Snapshot random_snapshot(long nx, long ny) {
  Snapshot s;
  s.nx = nx;
  s.ny = ny;
  s.dx = 2.5;
  s.dy = 1.25;
  s.x0 = 100;
  s.y0 = -50;
  s.time = 12.75;
  s.step = 30;
  const std::size_t n = static_cast<std::size_t>(nx * ny);
  s.h = test::random_vector<double>(n, 1, 0.5, 3.0);
  s.h[3] = 0;  // a dry cell: velocity 0
  s.hu = test::random_vector<double>(n, 2, -1.0, 1.0);
  s.hv = test::random_vector<double>(n, 3, -1.0, 1.0);
  s.z = test::random_vector<double>(n, 4, -2.0, 0.0);
  return s;
}

TEST(SweIo, LegacyVtkHasTheThesisLayoutAndReadsBack) {
  const Snapshot s = random_snapshot(7, 5);
  const auto path = scratch("a.vtk");
  write_vtk_legacy(path.string(), s);
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "# vtk DataFile Version 1.0");
  std::getline(in, line);
  EXPECT_EQ(line,
            "Shallow water surface at step 30, t = 12.75 s");  // the step and the time, each named
  std::getline(in, line);
  EXPECT_EQ(line, "ASCII");
  std::getline(in, line);
  EXPECT_EQ(line, "DATASET RECTILINEAR_GRID");
  std::getline(in, line);
  EXPECT_EQ(line, "DIMENSIONS 8 6 1");
  std::getline(in, line);
  EXPECT_EQ(line, "X_COORDINATES 8 float");
  std::getline(in, line);
  EXPECT_EQ(line.substr(0, 42), "100.0000000000000000 102.5000000000000000 ");
  std::string word;
  while (in >> word && word != "LOOKUP_TABLE") {
  }
  in >> word;  // default
  for (long j = 0; j < s.ny; ++j)
    for (long i = 0; i < s.nx; ++i) {
      double v;
      ASSERT_TRUE(in >> v);
      ASSERT_NEAR(v, s.h[i * s.ny + j], 1e-15);
    }
  in >> word >> word >> word;
  EXPECT_EQ(word, "float");
  for (long j = 0; j < s.ny; ++j)
    for (long i = 0; i < s.nx; ++i) {
      double u, v, w;
      ASSERT_TRUE(in >> u >> v >> w);
      const std::size_t k = static_cast<std::size_t>(i * s.ny + j);
      ASSERT_NEAR(u, s.h[k] > 0 ? s.hu[k] / s.h[k] : 0.0, 1e-15);
      ASSERT_NEAR(v, s.h[k] > 0 ? s.hv[k] / s.h[k] : 0.0, 1e-15);
      ASSERT_EQ(w, 0.0);
    }
}

TEST(SweIo, VtiAppendedArraysReadBackBitwise) {
  const Snapshot s = random_snapshot(6, 4);
  const auto path = scratch("a.vti");
  write_vti(path.string(), s);
  std::ifstream in(path, std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(all.find("WholeExtent=\"0 6 0 4 0 0\""), std::string::npos);
  EXPECT_NE(all.find("Spacing=\"2.5 1.25 1\""), std::string::npos);
  const std::size_t start = all.find('_', all.find("<AppendedData")) + 1;
  const std::size_t n = 24;
  for (int a = 0; a < 5; ++a) {
    const char* p = all.data() + start + a * (8 + n * 8);
    std::uint64_t bytes;
    std::memcpy(&bytes, p, 8);
    ASSERT_EQ(bytes, n * 8);
    for (long j = 0; j < s.ny; ++j)
      for (long i = 0; i < s.nx; ++i) {
        double v;
        std::memcpy(&v, p + 8 + (j * s.nx + i) * 8, 8);
        const std::size_t k = static_cast<std::size_t>(i * s.ny + j);
        const double want = a == 0   ? s.h[k]
                            : a == 1 ? s.u(k)
                            : a == 2 ? s.v(k)
                            : a == 3 ? s.eta(k)
                                     : s.z[k];
        ASSERT_EQ(v, want) << a << " " << i << " " << j;
      }
  }
  write_pvd(scratch("a.pvd").string(), {{0.0, "a_0.vti"}, {1.5, "a_1.vti"}});
  std::ifstream pvd(scratch("a.pvd"));
  const std::string x((std::istreambuf_iterator<char>(pvd)), {});
  EXPECT_NE(x.find("timestep=\"1.5\" part=\"0\" file=\"a_1.vti\""), std::string::npos);
}

// The pixels of a PNG file as RGB rows.
std::vector<unsigned char> read_rgb(const fs::path& path, png_image& im) {
  im = png_image{};
  im.version = PNG_IMAGE_VERSION;
  EXPECT_TRUE(png_image_begin_read_from_file(&im, path.string().c_str()));
  im.format = PNG_FORMAT_RGB;
  std::vector<unsigned char> px(PNG_IMAGE_SIZE(im));
  EXPECT_TRUE(png_image_finish_read(&im, nullptr, px.data(), 0, nullptr));
  return px;
}

// The file is the figure png_figure draws (its parts located by it): the
// map 256 x 128 pixels for 40 x 20 cells, the colour bar from the scale's
// top colour to its bottom one, each cell's colour its depth's.
TEST(SweIo, PngHasTheMapAndTheColourBar) {
  const Snapshot s = random_snapshot(40, 20);
  const auto path = scratch("a.png");
  const PngScale scale = png_scale_of(s, "depth");
  write_png(path.string(), s, "depth", scale);
  const io::Figure f = png_figure(s, "depth", scale);
  png_image im;
  const auto px = read_rgb(path, im);
  ASSERT_EQ(im.width, unsigned(f.image.width()));
  ASSERT_EQ(im.height, unsigned(f.image.height()));
  EXPECT_EQ(f.field.w, 256);
  EXPECT_EQ(f.field.h, 128);
  auto at = [&](int x, int y) { return px[(std::size_t(y) * im.width + std::size_t(x)) * 3]; };
  EXPECT_EQ(at(f.bar.x + 4, f.bar.y), 253);               // maximum colour at the top of the bar
  EXPECT_EQ(at(f.bar.x + 4, f.bar.y + f.bar.h - 1), 68);  // minimum at the bottom
  for (long i : {0L, 17L, 39L})
    for (long j : {0L, 11L, 19L}) {  // pixel rows run down, y up
      const int x = f.field.x + int(i) * 256 / 40 + 2, y = f.field.y + int(19 - j) * 128 / 20 + 2;
      const double v = s.h[std::size_t(i * s.ny + j)];
      EXPECT_EQ(at(x, y), io::viridis((v - scale.lo) / (scale.hi - scale.lo)).r) << i << "," << j;
    }
}

TEST(SweIo, PngFramesShareOneScaleAndEtaGreysDryCells) {
  // two frames of a 2 x 1 grid on the scale [0, 2]: depth 1 has the same
  // colour in both; 5 (beyond the scale) takes the top colour
  Snapshot a;
  a.nx = 2;
  a.ny = 1;
  a.h = {1.0, 0.5};
  a.hu = a.hv = {0.0, 0.0};
  a.z = {0.0, 0.0};
  Snapshot b = a;
  b.h = {1.0, 5.0};
  const PngScale scale{0, 2};
  write_png(scratch("f0.png").string(), a, "depth", scale);
  write_png(scratch("f1.png").string(), b, "depth", scale);
  const io::Figure fig = png_figure(a, "depth", scale);
  const int x0 = fig.field.x, y0 = fig.field.y;  // cell (0, 0); cell (1, 0) at x0 + 128
  png_image ia, ib;
  const auto pa = read_rgb(scratch("f0.png"), ia), pb = read_rgb(scratch("f1.png"), ib);
  auto pixel = [](const std::vector<unsigned char>& p, const png_image& im, int x, int y) {
    const std::size_t k = (std::size_t(y) * im.width + std::size_t(x)) * 3;
    return std::array<int, 3>{p[k], p[k + 1], p[k + 2]};
  };
  EXPECT_EQ(pixel(pa, ia, x0, y0), pixel(pb, ib, x0, y0));  // depth 1 in both frames
  const io::Rgb mid = io::viridis(0.5), top = io::viridis(1.0);
  EXPECT_EQ(pixel(pa, ia, x0, y0), (std::array<int, 3>{mid.r, mid.g, mid.b}));
  EXPECT_EQ(pixel(pb, ib, x0 + 255, y0), (std::array<int, 3>{top.r, top.g, top.b}));
  // eta: a dry cell is grey and outside the scale of png_scale_of
  Snapshot dry = a;
  dry.h = {0.0, 0.5};
  dry.z = {1000.0, 0.0};  // a NODATA wall: high ground
  const PngScale eta = png_scale_of(dry, "eta");
  EXPECT_EQ(eta.lo, 0.5);  // the wet cell alone (the wall would make it 0.5 .. 1000)
  write_png(scratch("eta.png").string(), dry, "eta", eta);
  png_image ie;
  const auto pe = read_rgb(scratch("eta.png"), ie);
  EXPECT_EQ(pixel(pe, ie, x0, y0), (std::array<int, 3>{200, 200, 200}));
}

#if TS_TEST_NETCDF
TEST(SweIo, NetcdfCarriesTheCrsAsCfGridMapping) {
  const auto path = scratch("crs.nc");
  Snapshot s = random_snapshot(4, 3);
  s.crs_wkt = "GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\"]]";
  {
    NetcdfWriter w(path.string());
    w.append(s);
    w.close();
  }
  int id, crs, h;
  ASSERT_EQ(nc_open(path.string().c_str(), NC_NOWRITE, &id), NC_NOERR);
  ASSERT_EQ(nc_inq_varid(id, "crs", &crs), NC_NOERR);
  for (const char* att : {"crs_wkt", "spatial_ref"}) {
    std::size_t len = 0;
    ASSERT_EQ(nc_inq_attlen(id, crs, att, &len), NC_NOERR) << att;
    std::string text(len, '\0');
    ASSERT_EQ(nc_get_att_text(id, crs, att, text.data()), NC_NOERR);
    EXPECT_EQ(text, s.crs_wkt) << att;
  }
  ASSERT_EQ(nc_inq_varid(id, "h", &h), NC_NOERR);
  char mapping[8] = {};
  ASSERT_EQ(nc_get_att_text(id, h, "grid_mapping", mapping), NC_NOERR);
  EXPECT_STREQ(mapping, "crs");
  nc_close(id);
  // without a CRS: no crs variable
  const auto plain = scratch("plain.nc");
  s.crs_wkt.clear();
  {
    NetcdfWriter w(plain.string());
    w.append(s);
    w.close();
  }
  ASSERT_EQ(nc_open(plain.string().c_str(), NC_NOWRITE, &id), NC_NOERR);
  EXPECT_NE(nc_inq_varid(id, "crs", &crs), NC_NOERR);
  nc_close(id);
}

// The series (swe/series.hpp) in NetCDF: dimension time, a variable a
// column with its units, the values back bit for bit; a folder that does
// not exist gives an Error naming the file and leaves nothing.
TEST(SweIo, NetcdfSeriesReadsBack) {
  const auto path = scratch("series.nc");
  const std::vector<SeriesColumn> cols = {{"time_s", "s", "simulated time"},
                                          {"weir_volume_m3", "m3", "volume across weir"},
                                          {"x-hi_outflow_m3_s", "m3 s-1", "outflow"}};
  const std::vector<std::vector<double>> rows = {
      {0, 0, 0}, {60, 1.25, -0.5}, {120, 3.0 + 1e-12, 0.1}};
  NetcdfWriter::write_series(path.string(), cols, rows);
  int id, dim, v;
  ASSERT_EQ(nc_open(path.string().c_str(), NC_NOWRITE, &id), NC_NOERR);
  ASSERT_EQ(nc_inq_dimid(id, "time", &dim), NC_NOERR);
  std::size_t len = 0;
  nc_inq_dimlen(id, dim, &len);
  EXPECT_EQ(len, 3u);
  for (std::size_t k = 0; k < cols.size(); ++k) {
    ASSERT_EQ(nc_inq_varid(id, k ? cols[k].name.c_str() : "time", &v), NC_NOERR) << k;
    std::vector<double> got(3);
    ASSERT_EQ(nc_get_var_double(id, v, got.data()), NC_NOERR);
    for (std::size_t r = 0; r < 3; ++r) EXPECT_EQ(got[r], rows[r][k]) << k << "," << r;
    char units[16] = {};
    ASSERT_EQ(nc_get_att_text(id, v, "units", units), NC_NOERR);
    EXPECT_EQ(std::string(units), cols[k].units);
  }
  nc_close(id);
  const auto bad = scratch("no-such-folder") / "series.nc";
  try {
    NetcdfWriter::write_series(bad.string(), cols, rows);
    ADD_FAILURE() << "written";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(bad.string() + ".partial"));
}

TEST(SweIo, NetcdfIsCfAndReadsBack) {
  ASSERT_TRUE(NetcdfWriter::available());
  const auto path = scratch("a.nc");
  Snapshot s = random_snapshot(5, 3);
  {
    NetcdfWriter w(path.string());
    w.append(s);
    EXPECT_FALSE(fs::exists(path));  // only the .partial file until close
    s.time = 20;
    s.h[0] = 9.0;
    w.append(s);
    w.close();
  }
  int id, v;
  ASSERT_EQ(nc_open(path.string().c_str(), NC_NOWRITE, &id), NC_NOERR);
  ASSERT_EQ(nc_inq_varid(id, "h", &v), NC_NOERR);
  int dims[3];
  ASSERT_EQ(nc_inq_vardimid(id, v, dims), NC_NOERR);
  char name[NC_MAX_NAME + 1];
  nc_inq_dimname(id, dims[0], name);
  EXPECT_STREQ(name, "t");
  nc_inq_dimname(id, dims[1], name);
  EXPECT_STREQ(name, "y");
  nc_inq_dimname(id, dims[2], name);
  EXPECT_STREQ(name, "x");
  char units[32] = {};
  ASSERT_EQ(nc_get_att_text(id, v, "units", units), NC_NOERR);
  EXPECT_STREQ(units, "m");
  std::vector<double> h(30);
  ASSERT_EQ(nc_get_var_double(id, v, h.data()), NC_NOERR);
  for (long j = 0; j < 3; ++j)
    for (long i = 0; i < 5; ++i) EXPECT_EQ(h[15 + j * 5 + i], s.h[i * 3 + j]);
  int vm;
  ASSERT_EQ(nc_inq_varid(id, "time_of_hmax", &vm), NC_NOERR);
  std::vector<double> tm(15);
  nc_get_var_double(id, vm, tm.data());
  EXPECT_EQ(tm[0], 20.0);  // cell (0,0) peaked in the second record
  nc_close(id);
}

// A writer that is never closed (an interrupted run, an exception elsewhere)
// leaves nothing: no .partial, and an earlier complete file keeps its bytes.
TEST(SweIo, NetcdfWriterNotClosedLeavesNoPartialAndKeepsTheEarlierFile) {
  const auto path = scratch("unclosed.nc");
  const Snapshot s = random_snapshot(4, 3);
  {
    NetcdfWriter w(path.string());
    w.append(s);
    w.close();
  }
  const auto size = fs::file_size(path);
  {
    NetcdfWriter w(path.string());
    w.append(s);
    EXPECT_TRUE(fs::exists(path.string() + ".partial"));
  }
  EXPECT_FALSE(fs::exists(path.string() + ".partial"));
  EXPECT_EQ(fs::file_size(path), size);
}

// A file that cannot be created: an Error naming it, nothing left, and the
// writer refuses further records instead of starting a new file.
TEST(SweIo, NetcdfWriterThatCannotCreateNamesTheFile) {
  const auto blocker = scratch("regular_file");
  std::ofstream(blocker) << "not a folder\n";
  const std::string path = (blocker / "a.nc").string();
  NetcdfWriter w(path);
  try {
    w.append(random_snapshot(4, 3));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write '" + path + "'"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(w.append(random_snapshot(4, 3)), Error);
  EXPECT_NO_THROW(w.close());
  EXPECT_FALSE(fs::exists(path + ".partial"));
}
#endif

fs::path write_text(const std::string& name, const std::string& text) {
  const auto p = scratch(name);
  std::ofstream(p) << text;
  return p;
}

TEST(SweIo, AscReaderReadsAGoodGridTopRowFirst) {
  const auto p =
      write_text("good.asc",
                 "ncols 3\nnrows 2\nxllcorner 10\nyllcorner 20\ncellsize 5\nNODATA_value -9999\n"
                 "1 2 3\n4 -9999 6.5\n");
  const AscGrid g = read_asc(p.string());
  EXPECT_EQ(g.ncols, 3);
  EXPECT_EQ(g.at(1, 2), 6.5);
  PhysCase c = make_case("radial-dam", 3, 2);
  apply_bathymetry(c, g, false);
  EXPECT_EQ(c.z[0 * 2 + 1], 1.0);  // top row is the larger y (j = 1)
  EXPECT_EQ(c.z[2 * 2 + 0], 6.5);
  EXPECT_GT(c.z[1 * 2 + 0], 6.5);  // NODATA: high ground
  EXPECT_EQ(c.dx, 5.0);
  EXPECT_THROW(apply_bathymetry(c, g, true), UsageError);
  PhysCase wrong = make_case("radial-dam", 4, 2);
  EXPECT_THROW(apply_bathymetry(wrong, g, false), UsageError);
}

TEST(SweIo, AscReaderTakesGdalsNonSquareCellsAndTheCrsOfAPrj) {
  // GDAL's AAIGrid writes dx and dy for non-square cells; xllcenter moves by half a cell of each
  const auto p = write_text("wide.asc",
                            "ncols 2\nnrows 2\nxllcenter 101\nyllcenter 200.25\ndx 2\ndy 0.5\n"
                            "1 2\n3 4\n");
  const std::string wkt =
      "PROJCS[\"ETRS89 / UTM zone 32N\",\r\n  GEOGCS[\"ETRS89\"],\n  UNIT[\"metre\",1]]\n";
  write_text("wide.prj", wkt);
  const AscGrid g = read_asc(p.string());
  EXPECT_EQ(g.dx, 2.0);
  EXPECT_EQ(g.dy, 0.5);
  EXPECT_EQ(g.xll, 100.0);
  EXPECT_EQ(g.yll, 200.0);
  EXPECT_EQ(g.crs_wkt, "PROJCS[\"ETRS89 / UTM zone 32N\", GEOGCS[\"ETRS89\"], UNIT[\"metre\",1]]");
  PhysCase c = make_case("radial-dam", 2, 2);
  apply_bathymetry(c, g, false);
  EXPECT_EQ(c.dx, 2.0);
  EXPECT_EQ(c.dy, 0.5);
  EXPECT_EQ(c.crs_wkt, g.crs_wkt);
  // a grid without a .prj has no CRS
  const auto q =
      write_text("plain.asc", "ncols 1\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize 1\n7\n");
  EXPECT_EQ(read_asc(q.string()).crs_wkt, "");
  // a .prj that is not WKT, or not text, is refused naming it
  for (const std::string& bad :
       {std::string("\n \n"), std::string("just words"), std::string("GEOGCS[\"x\"]\x01")}) {
    write_text("plain.prj", bad);
    try {
      read_asc(q.string());
      ADD_FAILURE() << "accepted .prj: " << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("plain.prj"), std::string::npos) << e.what();
    }
  }
  fs::remove(scratch("plain.prj"));
}

void expect_error(const std::string& text, const std::string& where_what) {
  const auto p = write_text("bad.asc", text);
  try {
    read_asc(p.string());
    FAIL() << "accepted: " << text;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(p.string() + ":" + where_what), std::string::npos)
        << e.what();
  }
}

TEST(SweIo, AscReaderRejectsMalformedFilesWithFileAndLine) {
  const std::string head = "ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n";
  expect_error(head + "1 2\n", "7: file ends after 1 of 2 data rows");
  expect_error(head + "1 2\n3 x\n", "7: 'x' is not a number");
  expect_error(head + "1 2\n3\n", "7: expected 2 values");
  expect_error(head + "1 2\n3 4\n5 6\n", "8: unexpected data");
  expect_error("ncols 2\nnrows 2\ncellsize 1\n1 2\n3 4\n", "4: header lacks xllcorner");
  expect_error("ncols -2\n", "1: ncols must be a positive integer");
  expect_error("ncols 2\nbogus 1\n", "2: unknown header keyword");
  const std::string corner = "ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\n";
  expect_error(corner + "cellsize 1\ndx 2\ndy 1\n1 2\n3 4\n",
               "7: cellsize (line 5) and dx/dy: give one or the other");
  expect_error(corner + "dx 2\n1 2\n3 4\n", "5: dx without dy: non-square cells need both");
  expect_error(corner + "dx 2\ndy -1\n1 2\n3 4\n", "6: dy must be positive");
}

}  // namespace
}  // namespace tessera::swe

namespace tessera::swe {
namespace {

// crs_unit on hand-written WKT (no GDAL): ESRI and OGC WKT1, WKT2 with the
// unit on the axes, a compound system, quotes, parentheses, and texts it
// cannot read (unknown: accepted, as before).
TEST(SweCrs, TheLinearUnitOfEveryWktForm) {
  const CrsUnit esri =
      crs_unit(R"w(PROJCS["WGS_1984_UTM_Zone_33N",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",)w"
               R"w(SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],)w"
               R"w(UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],)w"
               R"w(PARAMETER["False_Easting",500000.0],UNIT["Meter",1.0]])w");
  EXPECT_TRUE(esri.known && !esri.geographic);
  EXPECT_EQ(esri.crs, "WGS_1984_UTM_Zone_33N");
  EXPECT_EQ(esri.unit, "Meter");
  EXPECT_EQ(esri.metres, 1.0);
  const CrsUnit geo = crs_unit(
      "GEOGCS[\"GCS_WGS_1984\",\n  DATUM[\"D_WGS_1984\",SPHEROID[\"WGS_1984\",6378137.0,"
      "298.257223563]],\n  PRIMEM[\"Greenwich\",0.0],UNIT[\"Degree\",0.0174532925199433]]\n");
  EXPECT_TRUE(geo.known && geo.geographic);
  const CrsUnit feet = crs_unit(
      R"w(PROJCRS["NAD83 / New York Long Island (ftUS)",BASEGEOGCRS["NAD83",DATUM["x",)w"
      R"w(ELLIPSOID["GRS 1980",6378137,298.257222101,LENGTHUNIT["metre",1]]]],)w"
      R"w(CONVERSION["y",METHOD["Lambert"],PARAMETER["Easting at false origin",984250,)w"
      R"w(LENGTHUNIT["US survey foot",0.304800609601219]]],CS[Cartesian,2],)w"
      R"w(AXIS["easting (X)",east,ORDER[1],LENGTHUNIT["US survey foot",0.304800609601219]],)w"
      R"w(AXIS["northing (Y)",north,ORDER[2],LENGTHUNIT["US survey foot",0.304800609601219]]])w");
  EXPECT_TRUE(feet.known && !feet.geographic);
  EXPECT_EQ(feet.unit, "US survey foot");
  EXPECT_EQ(feet.metres, 0.304800609601219);
  EXPECT_THROW(
      require_metres("ny.asc", R"w(PROJCRS["a",CS[Cartesian,2],LENGTHUNIT["foot",0.3048]])w"),
      Error);
  const CrsUnit compound =
      crs_unit(R"w(COMPD_CS["x + h",GEOGCS("WGS 84",UNIT("degree",0.0174532925199433)),)w"
               R"w(VERT_CS["h",UNIT["metre",1]]])w");
  EXPECT_TRUE(compound.known && compound.geographic) << "the horizontal part, in parentheses";
  const CrsUnit quoted = crs_unit(R"w(LOCAL_CS["a ""quoted"" name",UNIT["metre",1]])w");
  EXPECT_TRUE(quoted.known);
  EXPECT_EQ(quoted.crs, "a \"quoted\" name");
  for (const char* junk : {"", "PROJCS[", "PROJCS[\"a\",UNIT[\"m\",x]]", "VERT_CS[\"h\"]",
                           "\"just a string\"", "PROJCS[\"a\"]]]"}) {
    EXPECT_FALSE(crs_unit(junk).known) << junk;
    EXPECT_NO_THROW(require_metres("x.asc", junk)) << junk;
  }
  try {
    require_metres("dem.asc", R"w(GEOGCRS["WGS 84",CS[ellipsoidal,2]])w");
    ADD_FAILURE() << "degrees accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("dem.asc: its coordinate system 'WGS 84' is geographic"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tessera::swe
