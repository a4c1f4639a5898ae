# krylov: GMRES(m)/FGMRES, CG, BiCGStab over any LinearOperator, resident,
# thesis and fused modes, Jacobi/block-Jacobi preconditioners (included from
# src/CMakeLists.txt; paths relative to src/).
tessera_module_requires(krylov sparse)
tessera_module_apps(cmd_solve.cpp bench_gmres.cpp cmd_report.cpp cmd_report_histories.cpp)
target_sources(tessera PRIVATE
  krylov/solver.cpp
  krylov/vector_ops.cpp
  krylov/precond.cpp
  krylov/ilu0.cpp
  krylov/poisson.cpp
  krylov/kernels/krylov_cpu.cpp)
tessera_embed_sources(tessera BASE ${PROJECT_SOURCE_DIR}/src FILES
  krylov/kernels/krylov_point.h krylov/kernels/krylov_basis.h krylov/kernels/krylov_dcgs2.h
  krylov/kernels/krylov_constants.h krylov/kernels/krylov_params.h
  krylov/kernels/krylov.cl)
if(TESSERA_HAVE_OPENCL)
  target_sources(tessera PRIVATE krylov/kernels/krylov_opencl.cpp)
endif()
if(TESSERA_HAVE_CUDA)
  target_sources(tessera_cuda_kernels PRIVATE krylov/kernels/krylov_cuda.cu)
endif()
