# lbm: lattice Boltzmann (production solver and the thesis-exact gas simulation)
tessera_module(lbm
  REQUIRES skeleton
  APPS cmd_lbm.cpp
  BENCH lbm.cpp
  SOURCES config.cpp solver.cpp cases.cpp thesis_gas.cpp kernels/thesis_gas_cpu.cpp
          kernels/lbm_cpu.cpp output.cpp checkpoint.cpp checkpoint_format.cpp driver.cpp
          distributed.cpp links.cpp thesis_gas_parts.cpp geometry/placement.cpp geometry/voxelize.cpp geometry/crossings.cpp case_file.cpp
          series.cpp
          kernels/voxel_cpu.cpp
  EMBED kernels/lbm_flags.h kernels/lbm_params.h kernels/lbm_point.h kernels/lbm_kernel_list.h
        kernels/lbm.cl kernels/thesis_gas_point.h kernels/thesis_gas_params.h
        kernels/thesis_gas_kernel_list.h
        kernels/thesis_gas_stencil.h kernels/thesis_gas.cl kernels/voxel_params.h
        kernels/voxel_point.h kernels/voxel.cl
  OPENCL kernels/lbm_opencl.cpp kernels/thesis_gas_opencl.cpp kernels/voxel_opencl.cpp
  CUDA kernels/lbm_cuda.cu kernels/thesis_gas_cuda.cu kernels/thesis_gas_stencil_cuda.cu
       kernels/voxel_cuda.cu)
# PNG slices through io/png.cpp (src/CMakeLists.txt: optional here, refused
# at run time without libpng)
