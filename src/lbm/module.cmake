# lbm: lattice Boltzmann (production solver and the thesis-exact gas simulation)
tessera_module_requires(lbm skeleton)
tessera_module_apps(cmd_lbm.cpp bench_lbm.cpp)
target_sources(tessera PRIVATE
  lbm/config.cpp
  lbm/solver.cpp
  lbm/cases.cpp
  lbm/thesis_gas.cpp
  lbm/kernels/thesis_gas_cpu.cpp
  lbm/kernels/lbm_cpu.cpp)
tessera_embed_sources(tessera BASE ${PROJECT_SOURCE_DIR}/src FILES
  lbm/kernels/lbm_flags.h lbm/kernels/lbm_point.h lbm/kernels/lbm.cl
  lbm/kernels/thesis_gas_point.h lbm/kernels/thesis_gas_stencil.h lbm/kernels/thesis_gas.cl)
if(TESSERA_HAVE_OPENCL)
  target_sources(tessera PRIVATE lbm/kernels/lbm_opencl.cpp lbm/kernels/thesis_gas_opencl.cpp)
endif()
if(TESSERA_HAVE_CUDA)
  target_sources(tessera_cuda_kernels PRIVATE lbm/kernels/lbm_cuda.cu lbm/kernels/thesis_gas_cuda.cu
                 lbm/kernels/thesis_gas_stencil_cuda.cu)
endif()
target_sources(tessera PRIVATE lbm/output.cpp lbm/checkpoint.cpp lbm/checkpoint_format.cpp lbm/driver.cpp lbm/distributed.cpp lbm/thesis_gas_parts.cpp)
# PNG slices through io/png.cpp (src/CMakeLists.txt: optional here, refused
# at run time without libpng)
