# --- skeleton: distributed fields, halo exchange, map/zip/fold/mapStencil (issue 8) ---
tessera_module(skeleton
  APPS cmd_skel.cpp
  BENCH skeleton.cpp
  SOURCES decomposition.cpp layout.cpp team.cpp halo_plan.cpp halo_engine_host.cpp
          field_shape.cpp checkpoint_format.cpp kernels/transfer_cpu.cpp skeletons.cpp
          kernels/native_stencil_cpu.cpp
  EMBED kernels/skel_access.h kernels/skel_boundary.h kernels/skel_fold.h kernels/skel_params.h
        kernels/skel_examples_point.h kernels/skel_examples_stencil.h
        kernels/skel_da_example.h kernels/skel_prelude.cl kernels/skel_template.cl
  OPENCL kernels/transfer_opencl.cpp kernels/skel_opencl.cpp
  CUDA kernels/skel_examples_cuda.cu kernels/native_stencil_cuda.cu)
# host code on the CUDA runtime (paths relative to src/)
if(TESSERA_HAVE_CUDA)
  target_sources(tessera PRIVATE skeleton/kernels/transfer_cuda.cpp skeleton/halo_engine_cuda.cpp)
endif()
if(TESSERA_HAVE_MPI)
  target_sources(tessera PRIVATE skeleton/mpi_comm.cpp)
  target_link_libraries(tessera PUBLIC MPI::MPI_CXX)
endif()
