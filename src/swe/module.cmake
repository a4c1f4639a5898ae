# swe: shallow-water solvers (thesis-exact Lax-Friedrichs and a physical
# HLL/hydrostatic-reconstruction model), CPU/OpenCL/CUDA. Paths relative to src/.
tessera_module(swe
  REQUIRES skeleton
  APPS cmd_swe.cpp
  BENCH swe.cpp
  SOURCES thesis.cpp physical.cpp forcing.cpp series.cpp section.cpp distributed.cpp cases.cpp asc.cpp crs.cpp
          kernels/swe_cpu.cpp
          kernels/swe_strip_rows.cpp
  EMBED kernels/swe_point.h kernels/swe_hll_consts.h kernels/swe_hll_point.h kernels/swe_tiles.h
        kernels/swe_strip.h kernels/swe_rk_tile.h kernels/swe_source_point.h kernels/swe_thesis_strip.h kernels/swe_params.h
        kernels/swe_kernel_list.h kernels/swe.cl
  OPENCL kernels/swe_opencl.cpp
  CUDA kernels/swe_cuda.cu)

# Output: legacy VTK / .vti / .pvd (no dependency), PNG (io/png.cpp: libpng,
# required here, linked in src/CMakeLists.txt), NetCDF
# (optional: TESSERA_SWE_HAVE_NETCDF), case files
# (io/case_file.cpp, the TOML subset; no dependency).
target_sources(tessera PRIVATE swe/output_vtk.cpp swe/output_png.cpp swe/output_netcdf.cpp swe/rain_netcdf.cpp
                               swe/run.cpp)
find_package(PNG REQUIRED)
find_package(netCDF CONFIG QUIET)
if(TARGET netCDF::netcdf)
  target_link_libraries(tessera PRIVATE netCDF::netcdf)
  set_property(SOURCE swe/output_netcdf.cpp swe/rain_netcdf.cpp APPEND PROPERTY COMPILE_DEFINITIONS
               TESSERA_SWE_HAVE_NETCDF=1)
  set(TESSERA_SWE_NETCDF ON CACHE INTERNAL "swe writes NetCDF")
else()
  set(TESSERA_SWE_NETCDF OFF CACHE INTERNAL "swe writes NetCDF")
endif()
message(STATUS "swe: NetCDF output ${TESSERA_SWE_NETCDF}")

# Rasters through GDAL (GeoTIFF in and out): optional, TESSERA_SWE_HAVE_GDAL;
# without it swe/gdal_raster.cpp refuses non-ESRI rasters, saying why.
target_sources(tessera PRIVATE swe/gdal_raster.cpp)
find_package(GDAL CONFIG QUIET)
if(TARGET GDAL::GDAL)
  target_link_libraries(tessera PRIVATE GDAL::GDAL)
  set_property(SOURCE swe/gdal_raster.cpp APPEND PROPERTY COMPILE_DEFINITIONS TESSERA_SWE_HAVE_GDAL=1)
  set(TESSERA_SWE_GDAL ON CACHE INTERNAL "swe reads and writes rasters through GDAL")
else()
  set(TESSERA_SWE_GDAL OFF CACHE INTERNAL "swe reads and writes rasters through GDAL")
endif()
message(STATUS "swe: GDAL rasters ${TESSERA_SWE_GDAL}")

# Checkpoint/restart (swe/checkpoint.hpp): the byte format (validated and
# fuzzed without a device) and the file reading/writing.
target_sources(tessera PRIVATE swe/checkpoint_format.cpp swe/checkpoint.cpp swe/run_thesis.cpp)
