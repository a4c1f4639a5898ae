# krylov: GMRES(m)/FGMRES, CG, BiCGStab over any LinearOperator, resident,
# thesis and fused modes, Jacobi/block-Jacobi preconditioners (included from
# src/CMakeLists.txt).
tessera_module(krylov
  REQUIRES sparse amg
  APPS cmd_solve.cpp cmd_report.cpp cmd_report_histories.cpp
  BENCH gmres.cpp
  SOURCES solver.cpp vector_ops.cpp precond.cpp ilu0.cpp poisson.cpp kernels/krylov_cpu.cpp
  EMBED kernels/krylov_point.h kernels/krylov_basis.h kernels/krylov_dcgs2.h
        kernels/krylov_constants.h kernels/krylov_params.h kernels/krylov.cl
  OPENCL kernels/krylov_opencl.cpp
  CUDA kernels/krylov_cuda.cu)
