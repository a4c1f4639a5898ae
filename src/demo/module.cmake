# demo: `tessera demo`, one checked case per module and a self-contained HTML
# page (included from src/CMakeLists.txt; paths relative to src/).
tessera_module_requires(demo krylov sparse lbm swe skeleton)
tessera_module_apps(cmd_demo.cpp)
target_sources(tessera PRIVATE
  demo/demo.cpp
  demo/html.cpp
  demo/plot.cpp
  demo/section_mg.cpp
  demo/section_swe.cpp
  demo/section_dense.cpp
  demo/section_krylov.cpp
  demo/section_lbm.cpp)
# the plots are PNG images (io/png.cpp, linked in src/CMakeLists.txt)
find_package(PNG REQUIRED)
