# krylov: vector kernels and solvers on every device, and the `tessera solve`
# CLI (paths relative to tests/).
target_sources(tessera_tests PRIVATE krylov/test_krylov_kernels.cpp krylov/test_krylov_solvers.cpp
               krylov/test_krylov_ilu0.cpp)

set(KRYLOV_DATA ${CMAKE_CURRENT_SOURCE_DIR}/krylov/data)
function(krylov_cli name expect match)
  string(REPLACE ";" "\\;" args "${ARGN}")
  add_test(NAME cli.krylov_${name} COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli> -DARGS=${args}
           -DEXPECT=${expect} -DMATCH=${match} -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
endfunction()
krylov_cli(solve_laplace_cg 0 "converged.after.*[1-9][0-9]*.timed.phases"
           solve --generate laplace7:9 --method cg --precond jacobi --tol 1e-8 --device cpu)
# a 0 x 0 matrix is no system: refused, not "converged" with exit 0
krylov_cli(solve_empty_matrix_exit1 1 "empty0.mtx: the matrix is 0 x 0: there is no system to solve"
           solve --matrix ${KRYLOV_DATA}/empty0.mtx --device cpu)
# CG on a nonsymmetric matrix: a warning naming the file and the defect
# (|(-1-c) - (-1+c)| / 4 = 0.15); none on a symmetric one
krylov_cli(solve_cg_nonsymmetric_warns 1
           "warning: --method cg assumes a symmetric matrix; .*convdiff144.mtx differs from its transpose by up to 1.50e-01 of its largest entry"
           solve --matrix ${KRYLOV_DATA}/convdiff144.mtx --method cg --max-iters 50 --device cpu)
add_test(NAME cli.krylov_solve_cg_symmetric_no_warning COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>
         -DARGS=solve\;--generate\;laplace7:9\;--method\;cg\;--device\;cpu -DEXPECT=0
         -DMATCH=converged -DNOMATCH=warning -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
# a --generate name that is no matrix lists every kind there is
krylov_cli(generate_unknown_exit2 2 "--generate foo:3: no generated matrix 'foo' .*stencil2d5.*trace:1..trace:6"
           solve --generate foo:3 --method cg --device cpu)
# s-step GMRES on a TRACE system, and where it cannot run
krylov_cli(solve_trace_gmres_sstep 0 "bcgs2.\\(s.=.4\\).*converged.after"
           solve --generate trace:3x5x4,blocks=2 --method gmres --ortho bcgs2 --sstep 4 --mode fused --restart 18
           --tol 1e-9 --device cpu)
krylov_cli(solve_sstep_thesis_mode_exit2 2 "s-step.GMRES.*resident.or.fused"
           solve --generate trace:3x5x4,blocks=2 --method gmres --ortho bcgs2 --mode thesis --device cpu)
krylov_cli(solve_trace_gmres_cgs2 0 "converged.after"
           solve --generate trace:3x5x4,blocks=2 --method gmres --ortho cgs2 --restart 20 --precision single
           --tol 1e-5 --device cpu)
krylov_cli(solve_trace_bicgstab_block_jacobi 0 "converged.after"
           solve --generate trace:3x5x4,blocks=2 --method bicgstab --precond block-jacobi --tol 1e-10 --device cpu)
krylov_cli(solve_thesis_mode_fixed 0 "max-iters.after.12.iterations.*transfers"
           solve --generate trace:3x5x4,blocks=2 --mode thesis --fixed --max-iters 12 --precision single --device cpu)
krylov_cli(solve_singular_stagnates_exit1 1 "not.converged..stagnated"
           solve --matrix ${KRYLOV_DATA}/singular4.mtx --restart 2 --device cpu)
krylov_cli(solve_rhs_size_mismatch_exit1 1 "3.entries,.but.the.matrix.has.4.rows"
           solve --matrix ${KRYLOV_DATA}/singular4.mtx --rhs ${KRYLOV_DATA}/vec3.mtx --device cpu)
krylov_cli(solve_rhs_nan_exit1 1 "NaN|nan"
           solve --matrix ${KRYLOV_DATA}/singular4.mtx --rhs ${KRYLOV_DATA}/vec4_nan.mtx --device cpu)
krylov_cli(solve_trace_gmres_ilu0 0 "converged.after"
           solve --generate trace:3x5x4,blocks=2 --method gmres --precond ilu0 --tol 1e-10 --device cpu)
krylov_cli(solve_ilu0_zero_pivot_exit1 1 "zero.pivot.in.row.0"
           solve --matrix ${KRYLOV_DATA}/zero_pivot3.mtx --precond ilu0 --device cpu)
krylov_cli(solve_unknown_precond_exit2 2 "ilu0"
           solve --generate laplace7:4 --precond ilu --device cpu)
krylov_cli(solve_no_matrix_exit2 2 "exactly.one.of"
           solve --method cg --device cpu)
krylov_cli(solve_poisson3d_cg_mg 0 "converged.after.[0-9].iterations"
           solve --generate poisson3d:15 --method cg --precond mg --tol 1e-8 --device cpu)
krylov_cli(solve_mg_needs_poisson_exit2 2 "needs.--generate.poisson"
           solve --generate laplace7:4 --precond mg --device cpu)
krylov_cli(solve_trace_fused_mode 0 "converged.after"
           solve --generate trace:3x5x4,blocks=2 --method gmres --mode fused --restart 20 --precision single
           --tol 1e-5 --device cpu)
# CG and BiCGStab in the fused mode (updates joined, point Jacobi inside them)
krylov_cli(solve_poisson3d_cg_mg_fused 0 "fused.mode.*converged.after.[0-9].iterations"
           solve --generate poisson3d:15 --method cg --precond mg --mode fused --tol 1e-8 --device cpu)
krylov_cli(solve_trace_bicgstab_jacobi_fused 0 "fused.mode.*converged.after"
           solve --generate trace:3x5x4,blocks=2 --method bicgstab --precond jacobi --mode fused --tol 1e-10
           --device cpu)
krylov_cli(solve_fused_mode_mgs_exit2 2 "fused.mode.orthogonalises.with.CGS2"
           solve --generate laplace7:4 --mode fused --ortho mgs --device cpu)
# a float basis for a double solve (the line shows the basis); none in thesis mode
krylov_cli(solve_trace_compressed_basis 0 "compressed.basis.*converged.after|converged.after.*compressed.basis"
           solve --generate trace:3x5x4,blocks=2 --method gmres --mode fused --basis compressed --restart 30
           --tol 1e-10 --device cpu)
krylov_cli(solve_compressed_basis_thesis_exit2 2 "compressed.basis.needs.the.resident.or.fused.mode"
           solve --generate laplace7:4 --mode thesis --basis compressed --device cpu)
# the ghost cells' empty rows dropped: 600 of 5040 rows solved; only block matrices
krylov_cli(solve_trace_drop_ghosts 0 "converged.after"
           solve --generate trace:3x5x4,blocks=2 --method gmres --mode fused --drop-ghosts --restart 30
           --tol 1e-10 --device cpu)
krylov_cli(solve_drop_ghosts_csr_exit2 2 "drop-ghosts:.needs.a.block.matrix"
           solve --generate laplace7:4 --drop-ghosts --device cpu)
# bench gmres on a Matrix Market file (a 12x12 convection-diffusion operator): time-to-1e-8 rows for each basis
add_test(NAME cli.bench_gmres_mtx COMMAND tessera_cli bench gmres --device cpu --quick --reps 1 --warmup 0
         --param cases=1 --param iters=2 --param modes=fused --param ortho=cgs2 --param tosolve=0 --param poisson=0
         --param basis=full,compressed --param mtx=${KRYLOV_DATA}/convdiff144.mtx)
set_tests_properties(cli.bench_gmres_mtx PROPERTIES PASS_REGULAR_EXPRESSION
                     "gmres.100..to.1e-8.fused.cgs2.[^|]*convdiff144.mtx.compressed.basis[^\n]*converged")
krylov_cli(bench_gmres_bad_basis_exit2 2 "basis=half:.expected.full.or.compressed"
           bench gmres --device cpu --quick --param basis=half)
# bench gmres --param kernels=K: the orthogonalisation kernels alone, one row each
add_test(NAME cli.bench_gmres_kernels COMMAND tessera_cli bench gmres --device cpu --quick --reps 1 --warmup 0
         --param kernels=3 --param kn=5000 --param cases=1 --param iters=1 --param modes=resident --param ortho=cgs2
         --param tosolve=0 --param poisson=0 --param short=0)
set_tests_properties(cli.bench_gmres_kernels PROPERTIES PASS_REGULAR_EXPRESSION
                     "ortho.kernel.dots.k=3[^\n]*5000[^\n]*\n[^\n]*ortho.kernel.dots2.k=3[^\n]*\n[^\n]*ortho.kernel.combine.k=3[^\n]*\n[^\n]*ortho.kernel.combine2.k=3[^\n]*\n[^\n]*ortho.kernel.dots_block.t=4.k=3[^\n]*\n[^\n]*ortho.kernel.combine_block.t=4.k=3")
# s-step GMRES rows: one per block size, the one-projection model in the note
add_test(NAME cli.bench_gmres_sstep COMMAND tessera_cli bench gmres --device cpu --quick --reps 1 --warmup 0
         --param cases=1 --param iters=12 --param modes=fused --param ortho=bcgs2 --param sstep=3,8
         --param tosolve=0 --param poisson=0 --param short=0)
set_tests_properties(cli.bench_gmres_sstep PROPERTIES PASS_REGULAR_EXPRESSION
                     "gmres.12.it.fused.bcgs2.s=3[^\n]*12.it[^\n]*s.3;.one-projection.model[^\n]*\n[^\n]*gmres.12.it.fused.bcgs2.s=8")
krylov_cli(bench_gmres_bad_sstep_exit2 2 "sstep=9:.expected.1.to.8"
           bench gmres --device cpu --quick --param sstep=9)
krylov_cli(bench_gmres_kernels_one_vector_exit2 2 "kernels:.at.least.2"
           bench gmres --device cpu --quick --param kernels=1)
# ILU(0)'s hints name what works on the same matrix (issue 40, item 11): a
# missing or zero a_ii defeats Jacobi too, so they point at --precond none
# (and reordering), and that remedy is run; a zero pivot produced by the
# elimination, with a_ii != 0, still points at Jacobi, which is run too.
krylov_cli(solve_ilu0_missing_diagonal_exit1 1 "row.0.has.no.diagonal.entry.*use.--precond.none.with.--method.gmres"
           solve --matrix ${KRYLOV_DATA}/missing_diag3.mtx --precond ilu0 --device cpu)
krylov_cli(solve_missing_diagonal_jacobi_fails_exit1 1 "Jacobi:.zero.diagonal.entry.in.row.0"
           solve --matrix ${KRYLOV_DATA}/missing_diag3.mtx --precond jacobi --device cpu)
krylov_cli(solve_missing_diagonal_precond_none 0 "converged.after"
           solve --matrix ${KRYLOV_DATA}/missing_diag3.mtx --method gmres --precond none --tol 1e-10 --device cpu)
krylov_cli(solve_ilu0_zero_diagonal_hint_exit1 1 "zero.pivot.in.row.0.*Jacobi.fails.too:.use.--precond.none"
           solve --matrix ${KRYLOV_DATA}/zero_pivot3.mtx --precond ilu0 --device cpu)
krylov_cli(solve_zero_diagonal_precond_none 0 "converged.after"
           solve --matrix ${KRYLOV_DATA}/zero_pivot3.mtx --method gmres --precond none --tol 1e-10 --device cpu)
krylov_cli(solve_ilu0_elimination_pivot_exit1 1 "zero.pivot.in.row.1.*itself.is.not.zero:.use.--precond.jacobi"
           solve --matrix ${KRYLOV_DATA}/elim_pivot3.mtx --precond ilu0 --device cpu)
krylov_cli(solve_elimination_pivot_jacobi 0 "converged.after"
           solve --matrix ${KRYLOV_DATA}/elim_pivot3.mtx --method gmres --precond jacobi --tol 1e-10 --device cpu)
# A right-hand side whose header declares 2^31-1 entries is refused by its
# size line before a dense vector of that length is allocated (item 8).
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/krylov_huge_rhs.mtx
     "%%MatrixMarket matrix coordinate real general\n2147483647 1 1\n1 1 1.0\n")
krylov_cli(solve_rhs_declared_huge_exit1 1 "2147483647.entries,.but.the.matrix.has.4.rows"
           solve --matrix ${KRYLOV_DATA}/singular4.mtx --rhs ${CMAKE_CURRENT_BINARY_DIR}/krylov_huge_rhs.mtx --device cpu)
set_tests_properties(cli.krylov_solve_rhs_declared_huge_exit1 PROPERTIES TIMEOUT 20)
# --stagnation auto|N|off: a bad value is refused naming it; off runs
krylov_cli(solve_stagnation_zero_exit2 2 "--stagnation.*expected.auto,.off.or.an.integer.from.1.*got..0"
           solve --generate laplace7:4 --method cg --stagnation 0 --device cpu)
krylov_cli(solve_stagnation_word_exit2 2 "--stagnation.*got..never"
           solve --generate laplace7:4 --method cg --stagnation never --device cpu)
krylov_cli(solve_stagnation_off 0 "converged.after"
           solve --generate laplace7:6 --method bicgstab --stagnation off --device cpu)
# --rhs as a NumPy vector: used as given; another length or a 2-D array refused naming the file
krylov_cli(solve_rhs_npy 0 "converged.after"
           solve --generate laplace7:4 --method cg --rhs ${KRYLOV_DATA}/rhs64.npy --device cpu)
krylov_cli(solve_rhs_npy_length_exit1 1 "--rhs.*rhs63.npy:.63.entries,.but.the.matrix.has.64.rows"
           solve --generate laplace7:4 --method cg --rhs ${KRYLOV_DATA}/rhs63.npy --device cpu)
krylov_cli(solve_rhs_npy_matrix_exit1 1 "--rhs.*rhs8x8.npy:.holds.an.array.of.shape..8,.8.,.not.a.vector"
           solve --generate laplace7:4 --method cg --rhs ${KRYLOV_DATA}/rhs8x8.npy --device cpu)
