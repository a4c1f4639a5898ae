// `tessera swe`: the thesis-exact Lax-Friedrichs model or the physical
// shallow-water model, from options or a TOML case file with the same keys.
#include <cmath>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/tessera/commands.hpp"
#include "apps/tessera/option_checks.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "io/case_file.hpp"
#include "swe/cases.hpp"
#include "swe/run.hpp"
#include "swe/thesis.hpp"

namespace tessera::app {

namespace {

struct SweArgs {
  swe::RunOptions run;
  std::string config, json, format;
};

}  // namespace

Command add_swe_command(CLI::App& app) {
  auto a = std::make_shared<SweArgs>();
  swe::RunOptions& r = a->run;
  auto* cmd = app.add_subcommand(
      "swe", "Shallow-water solver: thesis Lax-Friedrichs or physical HLL model");
  cmd->add_option("--config", a->config, "TOML case file (keys = these options without dashes)");
  cmd->add_option("--model", r.model, "thesis or physical")
      ->check(CLI::IsMember({"thesis", "physical"}));
  cmd->add_option("--case", r.case_name,
                  "thesis-dam, stoker, ritter, thacker, lake-at-rest, radial-dam");
  cmd->add_option("--nx", r.nx, "Cells along x (default: the case's)")
      ->check(CLI::Range(1L, 1L << 20));
  cmd->add_option("--ny", r.ny, "Cells along y (default: as nx or the case's)")
      ->check(CLI::Range(1L, 1L << 20));
  cmd->add_option("--t-end", r.t_end, "Simulated time [s] (default: the case's)")
      ->check(positive());
  cmd->add_option("--cfl", r.cfl, "CFL number of the physical model (0 < cfl <= 1, default 0.45)")
      ->check(positive());
  cmd->add_option("--dt", r.dt, "Fixed time step [s] (thesis: overrides the thesis rule)")
      ->check(positive());
  cmd->add_option("--order", r.order, "Physical model: 1 (first order) or 2 (MUSCL + RK2)")
      ->check(CLI::IsMember({1, 2}));
  cmd->add_option(
         "--columns", r.columns,
         "GPU first-order update kernel: 3 one column per work-item with faces shared (default), 1 one column with every face")
      ->check(CLI::IsMember({1, 3}));
  cmd->add_option("--precision", r.precision, "float or double")
      ->check(CLI::IsMember({"float", "double"}));
  cmd->add_option("--variant", r.variant,
                  "Thesis variant (v0-naive ... v5-pingpong, pingpong-global)");
  cmd->add_option("--work-group", r.work_group, "Thesis work-group: default, max, quarter or AxB");
  cmd->add_option("--h-left", r.h_left, "Thesis dam break: depth before the dam [m]")
      ->check(non_negative());
  cmd->add_option("--h-right", r.h_right, "Thesis dam break: depth after the dam [m]")
      ->check(non_negative());
  cmd->add_option("--manning", r.manning, "Manning n [s m^-1/3] (default: the case's)")
      ->check(non_negative());
  cmd->add_option("--manning-file", r.manning_file,
                  "Manning n per cell from an .asc on the bathymetry's grid (NODATA only where "
                  "the bed is NODATA)");
  cmd->add_option("--bathymetry", r.bathymetry, "Bed elevation from an ESRI ASCII grid (.asc)");
  cmd->add_option("--level-file", r.level_file,
                  "Initial water surface elevation from an .asc grid");
  cmd->add_option("--level", r.level, "Initial water surface elevation [m] (with --bathymetry)");
  cmd->add_option("--nodata", r.nodata, "NODATA bathymetry cells: wall (high ground) or error")
      ->check(CLI::IsMember({"wall", "error"}));
  const char* sides[4] = {"--bc-x-lo", "--bc-x-hi", "--bc-y-lo", "--bc-y-hi"};
  for (int s = 0; s < 4; ++s)
    cmd->add_option(sides[s], r.bc[s], "wall, transmissive, periodic, level:ETA or discharge:Q");
  cmd->add_option("--rain", r.rain,
                  "Physical model: rain from a CSV of time (s), intensity (mm/h); each row's "
                  "intensity holds until the next row; on every cell but NODATA");
  cmd->add_option("--rain-grid", r.rain_grid,
                  "Physical model: gridded rain from a CSV of time (s), raster (mm/h; .asc or a "
                  "GDAL raster, relative to the CSV), or from a CF NetCDF file FILE.nc[:VARIABLE] "
                  "over (time, y, x); each frame held to the next time, sampled at the cell "
                  "centres");
  cmd->add_option("--losses", r.losses,
                  "Physical model: infiltration: none, constant:RATE (mm/h) or "
                  "green-ampt:KS,PSI,DTHETA (mm/h, mm, fraction)");
  cmd->add_option("--inflow", r.inflows,
                  "Physical model: an inflow hydrograph into the cells along a side: SIDE:FILE or "
                  "SIDE:FROM:TO:FILE (SIDE x-lo, x-hi, y-lo, y-hi; FROM, TO world coordinates "
                  "along it; FILE a CSV of time (s), discharge (m^3/s), linear between rows); "
                  "repeatable")
      ->take_all();
  cmd->add_option("--source", r.sources,
                  "Physical model: a point source X:Y:FILE (world coordinates; FILE as --inflow); "
                  "repeatable")
      ->take_all();
  cmd->add_option("--bc-segment", r.segments,
                  "Physical model: cells along a side of another kind than the side's: "
                  "SIDE:FROM:TO:KIND (FROM, TO world coordinates along it; KIND wall, "
                  "transmissive, level:ETA, discharge:Q or stage:FILE, a CSV of time (s), water "
                  "level (m), linear between rows); one a side")
      ->take_all();
  cmd->add_option("--series-every", r.series_every,
                  "Physical model: time series (series.csv and the summary) at every multiple of "
                  "this many seconds and at the end: the --gauge points, the --section lines "
                  "and the outflow through each open side")
      ->check(positive());
  cmd->add_option("--gauge", r.gauges,
                  "Physical model: a point gauge NAME:X:Y (world coordinates): depth, level, "
                  "velocity in the series; repeatable")
      ->take_all();
  cmd->add_option("--section", r.sections,
                  "Physical model: a cross-section NAME:X0:Y0:X1:Y1 (a straight line, world "
                  "coordinates): the volume that crossed it from its left to its right (walking "
                  "from X0,Y0 to X1,Y1) and the mean discharge between rows, in the series, "
                  "from the update's own face fluxes; repeatable")
      ->take_all();
  cmd->add_flag("--max-maps", r.max_maps,
                "Physical model: maximum depth and speed, the time of the maximum depth and the "
                "arrival time, kept every step; max_depth.asc, max_speed.asc, "
                "time_of_max_depth.asc, arrival_time.asc in --out");
  cmd->add_option("--raster-format", r.raster_format,
                  "The maximum maps as asc (ESRI ASCII + .prj) or geotiff (needs GDAL)")
      ->check(CLI::IsMember({"asc", "geotiff"}));
  cmd->add_option("--arrival-depth", r.arrival_depth,
                  "The depth [m] whose first crossing is a cell's arrival time (default 0.01)")
      ->check(positive());
  cmd->add_option("--device,-d", r.device, "Device id");
  cmd->add_option(
         "--gpus,-g", r.gpus,
         "Physical model: N > 1 splits x over N devices from --device on (cuda:0 -> cuda:0..N-1; cpu/opencl: logical devices)")
      ->check(CLI::Range(1, 64));
  cmd->add_flag(
      "--mpi", r.mpi,
      "Physical model: also split over the MPI ranks this was started on (mpirun; --gpus devices per rank)");
  cmd->add_option("--out,-o", r.out, "Output directory (files, summary.json)");
  cmd->add_option("--format", a->format, "Comma-separated: vtk (thesis legacy), vti, netcdf, png");
  cmd->add_option("--every", r.every, "Output every k steps")->check(CLI::Range(0L, 1L << 40));
  cmd->add_option("--every-time", r.every_time, "Output every this much simulated time [s]")
      ->check(positive());
  cmd->add_option("--png-range", r.png_range,
                  "The PNG colour scale LO HI (m), the same for every frame (default: the "
                  "initial state's range)")
      ->expected(2);
  cmd->add_option("--png-field", r.png_field, "depth or eta")
      ->check(CLI::IsMember({"depth", "eta"}));
  cmd->add_flag("--mass", r.mass, "Thesis model: print the mass every step");
  cmd->add_option(
      "--checkpoint", r.checkpoint,
      "Write a checkpoint here at the end (and with --checkpoint-every, and when interrupted)");
  cmd->add_option(
         "--checkpoint-every", r.checkpoint_every,
         "Also every N steps (physical model: at the first health check after each multiple)")
      ->check(CLI::Range(0L, 1L << 40));
  cmd->add_option(
      "--restart", r.restart,
      "Continue the run a checkpoint holds (same model, precision, grid, case and scheme options)");
  add_json_option(cmd, a->json, "Write the summary");
  return {cmd, [a, cmd] {
            if (!a->config.empty()) {
              apply_case_file_options(*cmd, a->config, io::read_case_file(a->config), "swe");
              probe_output_paths(*cmd);  // the case file may name outputs too
            }
            swe::RunOptions& o = a->run;
            o.formats = split_list("--format", a->format);
            if (o.formats.empty() && !o.out.empty())
              o.formats = {o.model == "thesis" ? "vtk" : "vti"};
            if (o.every > 0 && o.every_time > 0)
              throw UsageError("give --every or --every-time, not both");
            if (o.png_range.size() == 2 &&
                !(std::isfinite(o.png_range[0]) && std::isfinite(o.png_range[1]) &&
                  o.png_range[0] < o.png_range[1]))
              throw UsageError(fmt::format("--png-range {} {}: expected finite LO < HI",
                                           o.png_range[0], o.png_range[1]));
            nlohmann::json j;
            const int rc = swe::run_swe(o, j);
            if (!a->json.empty()) write_output(a->json, j.dump(2) + "\n");
            return rc;
          }};
}

namespace {
const RegisterCommand registered{50, add_swe_command};
}  // namespace

}  // namespace tessera::app
