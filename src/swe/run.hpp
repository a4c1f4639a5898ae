// `tessera swe` without the command line: runs the thesis or the physical
// model from options, writes the outputs and the summary.
#pragma once
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tessera {
class Device;
}

namespace tessera::swe {

struct RunOptions {
  std::string model = "physical", case_name = "thesis-dam", precision = "double", device = "best";
  std::string variant = "v5-pingpong", work_group = "default";  // thesis model
  long nx = 0, ny = 0;                                          // 0: the case's default
  double t_end = -1, cfl = 0.45, dt = 0, manning = -1;          // < 0: the case's value
  int order = 1;
  int columns = 3;                   // GPU first-order update kernel (PhysOptions::columns)
  double h_left = 20, h_right = 10;  // thesis dam break depths
  std::string bathymetry, level_file, nodata = "wall";
  std::string manning_file;  // Manning n per cell (.asc on the bathymetry's grid)
  double level = NAN;
  std::string bc[4];  // "" (case default), wall, transmissive, periodic, level:V, discharge:Q
  std::string out;
  std::vector<std::string> formats;  // vtk, vti, netcdf, png
  long every = 0;                    // output every k steps
  double every_time = 0;             // or every this much simulated time
  std::string png_field = "depth";
  std::vector<double> png_range;  // the PNG colour scale [lo, hi]; empty: the initial state's
  bool mass = false;              // thesis: print the mass every step
  int gpus = 1;      // physical: devices of this process (x-slabs, swe/distributed.hpp)
  bool mpi = false;  // physical: also over the MPI ranks this was started on
  std::string
      checkpoint;  // write a checkpoint here at the end (and every N steps, when interrupted)
  long checkpoint_every =
      0;                // every N steps (physical: at the first health check after each multiple)
  std::string restart;  // continue from this checkpoint
  // physical: sources (swe/forcing.hpp)
  std::string rain;                   // CSV: time (s), intensity (mm/h)
  std::string rain_grid;              // CSV: time (s), raster of intensity (mm/h)
  std::string losses = "none";        // none, constant:MM_H, green-ampt:KS,PSI,DTHETA
  std::vector<std::string> inflows;   // SIDE[:FROM:TO]:FILE (m^3/s)
  std::vector<std::string> sources;   // X:Y:FILE (m^3/s)
  std::vector<std::string> segments;  // SIDE:FROM:TO:KIND (--bc-segment)
  double series_every = 0;            // > 0: series.csv rows at its multiples
  std::vector<std::string> gauges;    // NAME:X:Y
  std::vector<std::string> sections;  // NAME:X0:Y0:X1:Y1
  bool max_maps = false;              // maximum depth/speed, their times, arrival (rasters)
  double arrival_depth = 0.01;        // m: a cell's arrival is its first depth above this
  std::string raster_format = "asc";  // the maximum maps: asc or geotiff
};

/// Runs; returns the exit code (0, or 1 when the solution went bad) and
/// fills `summary` (also written to out/summary.json when out is set).
int run_swe(const RunOptions& o, nlohmann::json& summary);

namespace detail {
/// The thesis model's run (run_thesis.cpp).
template <class T>
int run_thesis(const RunOptions& o, const std::shared_ptr<Device>& dev, nlohmann::json& j);
}  // namespace detail

}  // namespace tessera::swe
