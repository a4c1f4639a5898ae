# --- skeleton: distributed fields, halo exchange, map/zip/fold/mapStencil (issue 8) ---
tessera_module_apps(cmd_skel.cpp bench_skeleton.cpp)
target_sources(tessera PRIVATE
  skeleton/decomposition.cpp
  skeleton/layout.cpp
  skeleton/team.cpp
  skeleton/halo_plan.cpp
  skeleton/halo_engine_host.cpp
  skeleton/field_shape.cpp
  skeleton/checkpoint_format.cpp
  skeleton/kernels/transfer_cpu.cpp)
if(TESSERA_HAVE_OPENCL)
  target_sources(tessera PRIVATE skeleton/kernels/transfer_opencl.cpp)
endif()
if(TESSERA_HAVE_CUDA)
  target_sources(tessera PRIVATE skeleton/kernels/transfer_cuda.cpp skeleton/halo_engine_cuda.cpp)
endif()
if(TESSERA_HAVE_MPI)
  target_sources(tessera PRIVATE skeleton/mpi_comm.cpp)
  target_link_libraries(tessera PUBLIC MPI::MPI_CXX)
endif()
target_sources(tessera PRIVATE skeleton/skeletons.cpp skeleton/kernels/native_stencil_cpu.cpp)
tessera_embed_sources(tessera BASE ${PROJECT_SOURCE_DIR}/src FILES
  skeleton/kernels/skel_access.h skeleton/kernels/skel_examples_point.h skeleton/kernels/skel_examples_stencil.h
  skeleton/kernels/skel_da_example.h skeleton/kernels/skel_prelude.cl skeleton/kernels/skel_template.cl)
if(TESSERA_HAVE_OPENCL)
  target_sources(tessera PRIVATE skeleton/kernels/skel_opencl.cpp)
endif()
if(TESSERA_HAVE_CUDA)
  target_sources(tessera_cuda_kernels PRIVATE skeleton/kernels/skel_examples_cuda.cu
                 skeleton/kernels/native_stencil_cuda.cu)
endif()
