// Test-only fault injection (docs/reliability.md). Compiled in always, inert
// unless the environment variable TESSERA_FAULT is set, e.g.
//   TESSERA_FAULT=device_alloc          the 1st device allocation fails
//   TESSERA_FAULT=write:2               the 2nd atomic file write fails (ENOSPC)
//   TESSERA_FAULT=opencl_build,host_alloc:3
// Points (each "point[:N]" fails exactly the N-th time, counted per process,
// N = 1 if omitted):
//   device_alloc   Device::allocate on every backend (as if the device were full)
//   host_alloc     Device::allocate_pinned (page-locked host memory)
//   opencl_build   an OpenCL program build from source (the disk cache is bypassed)
//   cuda_launch    the check after a CUDA kernel launch (cudaErrorLaunchFailure)
//   write          write_file_atomic's write step fails with ENOSPC
//   write_open     write_file_atomic cannot create its temporary file (EACCES)
//   write_rename   write_file_atomic's rename fails (EACCES)
//   write_vtk, write_vti, write_pvd, write_png, write_npy, write_mtx,
//   write_json, write_ckpt
//                  write_file_atomic's write step fails with ENOSPC for the
//                  N-th file of that kind (named *.vtk, *.vti, ..., *.mtx or
//                  *.mtx.gz, *.json, *.ckpt), counted per kind: one writer
//                  fails whatever the others wrote before it
//   write_netcdf   the N-th library call of the NetCDF writer that writes or
//                  closes (coordinates, each record variable, max depth,
//                  nc_close) reports "NetCDF: HDF error" (as on a full disk)
//   sigint_at_step / sigterm_at_step   the time-stepping drivers raise SIGINT /
//                  SIGTERM at their N-th step boundary (deterministic interruption)
// A failure is produced by the code path a real one takes, so what is tested is
// the real error message, exit code and clean-up.
#pragma once

namespace tessera::fault {

enum class Point {
  device_alloc,
  host_alloc,
  opencl_build,
  cuda_launch,
  write,
  write_open,
  write_rename,
  sigint_at_step,
  sigterm_at_step,
  write_vtk,
  write_vti,
  write_pvd,
  write_png,
  write_npy,
  write_mtx,
  write_json,
  write_ckpt,
  write_netcdf,
  count_
};

/// True exactly when this is the N-th call for `p` that TESSERA_FAULT names.
/// Thread-safe; costs one relaxed atomic load when TESSERA_FAULT is unset.
bool inject(Point p);

/// Whether TESSERA_FAULT names `p` at all (e.g. to bypass a cache).
bool armed(Point p);

/// The per-kind write point for a file named `filename` (write_vtk for
/// "a/b.vtk", write_mtx for "m.mtx.gz", ...), or Point::count_ for none.
Point write_point_for(const char* filename);

/// The name used in TESSERA_FAULT, for messages.
const char* name(Point p);

/// At a step boundary of a time-stepping driver: raises SIGINT/SIGTERM when
/// TESSERA_FAULT says so for this boundary (sigint_at_step:N, sigterm_at_step:N).
void at_step_boundary();

}  // namespace tessera::fault
