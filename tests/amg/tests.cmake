# amg: setup pieces against dense references, the cycle against a host
# cycle, convergence of each matrix type on every device, the CLI.
target_sources(tessera_tests PRIVATE amg/test_amg_setup.cpp amg/test_amg_solve.cpp)

# `tessera solve --precond amg` (the hierarchy printed), the options refused
# when out of range or given without --precond amg, a matrix AMG cannot take
function(amg_cli name expect match)
  string(REPLACE ";" "\\;" args "${ARGN}")
  add_test(NAME cli.amg_${name} COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli> -DARGS=${args}
           -DEXPECT=${expect} -DMATCH=${match} -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
endfunction()
set(AMG_KRYLOV_DATA ${CMAKE_CURRENT_SOURCE_DIR}/krylov/data)
amg_cli(solve_poisson_cg 0 "amg +[2-9] levels, operator complexity 1\\.[0-9]+.*dense inverse.*cycle V.2,2., smoother gauss-seidel .auto: not a GPU.*converged.after.([1-9]|1[0-9]) iterations"
        solve --generate stencil2d5:40 --method cg --precond amg --tol 1e-8 --device cpu)
amg_cli(solve_trace_gmres_blocks 0 "amg +2 levels.*\n +0 +5040 +[0-9]+ +5 .*converged.after.[1-7] iterations"
        solve --generate trace:3x5x4,blocks=2 --method gmres --precond amg --tol 1e-10 --device cpu)
amg_cli(solve_jacobi_w_cycle 0 "converged.after"
        solve --generate stencil2d5:40 --method cg --precond amg --amg-smoother jacobi --amg-cycle W
        --amg-presweeps 2 --amg-postsweeps 2 --tol 1e-8 --device cpu)
# CG needs a symmetric cycle (as many sweeps after as before); GMRES does not
amg_cli(cg_unequal_sweeps_exit2 2 "--method cg needs a symmetric preconditioner.*they give 2 and 0"
        solve --generate stencil2d5:40 --method cg --precond amg --amg-postsweeps 0 --device cpu)
amg_cli(gmres_unequal_sweeps 0 "converged.after"
        solve --generate stencil2d5:40 --method gmres --precond amg --amg-postsweeps 0 --tol 1e-8 --device cpu)
amg_cli(theta_out_of_range_exit2 2 "--amg-theta 1.5: expected a threshold in \\[0, 1\\)"
        solve --generate stencil2d5:8 --precond amg --amg-theta 1.5 --device cpu)
amg_cli(coarse_size_too_large_exit2 2 "--amg-coarse-size 5000: expected 1 to 4096 rows"
        solve --generate stencil2d5:8 --precond amg --amg-coarse-size 5000 --device cpu)
amg_cli(option_without_amg_exit2 2 "--amg-theta 0.1: the --amg-\\* options need --precond amg \\(got --precond jacobi\\)"
        solve --generate stencil2d5:8 --precond jacobi --amg-theta 0.1 --device cpu)
# single precision cannot reach --tol 1e-8: the iteration's residual does,
# the true one stays at ~5e-5, so no exit 0
amg_cli(single_below_its_epsilon_exit1 1 "reached --tol 1e-08, but the true relative residual is [0-9.e-]+, more than 10x above it: single precision cannot reach"
        solve --generate stencil2d5:64 --method cg --precond amg --precision single --device cpu)
# a smoother's parameter with another smoother is refused, not ignored
amg_cli(degree_without_chebyshev_exit2 2 "--amg-degree 3: the Chebyshev degree needs --amg-smoother chebyshev \\(the smoother is gauss-seidel, auto\\)"
        solve --generate stencil2d5:8 --precond amg --amg-degree 3 --device cpu)
amg_cli(omega_without_jacobi_exit2 2 "--amg-omega 1: the Jacobi weight needs --amg-smoother jacobi \\(the smoother is chebyshev\\)"
        solve --generate stencil2d5:8 --precond amg --amg-smoother chebyshev --amg-omega 1 --device cpu)
amg_cli(unknown_smoother_exit2 2 "--amg-smoother"
        solve --generate stencil2d5:8 --precond amg --amg-smoother sor --device cpu)
amg_cli(missing_diagonal_exit1 1 "amg: level 0: row 0 has no diagonal entry.*--precond none with --method gmres"
        solve --matrix ${AMG_KRYLOV_DATA}/missing_diag3.mtx --precond amg --device cpu)
amg_cli(block_not_dividing_exit1 1 "1600 rows are not a whole number of 3 x 3 blocks"
        solve --generate stencil2d5:40 --precond amg --block 3 --device cpu)
# elasticity's rigid-body modes: 6 vectors a node (the coarse blocks are 6 x 6);
# coordinates of another size, or none, are refused
amg_cli(solve_elasticity_rigid 0 "\n +1 +[0-9]+ +[0-9]+ +6 .*converged.after.([1-9]|1[0-5]) iterations"
        solve --generate elasticity3d:8 --method cg --precond amg --amg-nullspace rigid --tol 1e-8 --device cpu)
amg_cli(rigid_without_coordinates_exit2 2 "--amg-nullspace rigid needs the nodes' coordinates"
        solve --generate stencil2d5:8 --precond amg --amg-nullspace rigid --device cpu)
amg_cli(coordinates_without_rigid_exit2 2 "--amg-coordinates: only with --amg-nullspace rigid"
        solve --generate stencil2d5:8 --precond amg --amg-coordinates x.npy --device cpu)
amg_cli(rigid_wrong_block_exit1 1 "give --block 3"
        solve --generate elasticity3d:4 --precond amg --amg-nullspace rigid --block 1 --device cpu)
