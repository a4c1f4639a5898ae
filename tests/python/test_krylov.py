import numpy as np
import pytest

sp = pytest.importorskip("scipy.sparse")
import scipy.sparse.linalg as spla

import tessera


def _convection_diffusion(n, c=0.3):
    """Non-symmetric 2-D operator (GMRES's case)."""
    t = sp.diags_array([-1 - c, 4.0, -1 + c], offsets=[-1, 0, 1], shape=(n, n))
    i = sp.eye_array(n)
    off = sp.diags_array([-1.0, -1.0], offsets=[-1, 1], shape=(n, n))
    return sp.csr_array(sp.kron(i, t) + sp.kron(off, i))


def _poisson(n):
    t = sp.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(n, n))
    return sp.csr_array(sp.kron(sp.eye_array(n), t) + sp.kron(t, sp.eye_array(n)))


@pytest.mark.parametrize("ortho", ["mgs", "cgs2"])
def test_gmres_matches_scipy(device, rng, ortho):
    A = _convection_diffusion(20)
    b = rng.standard_normal(A.shape[0])
    x, info = tessera.solve(A, b, "gmres", device, restart=30, ortho=ortho, tol=1e-10)
    ref, code = spla.gmres(A, b, rtol=1e-12, restart=30, maxiter=1000)
    assert code == 0 and info["converged"]
    assert info["true_relres"] <= 1e-9
    np.testing.assert_allclose(x, ref, rtol=1e-7, atol=1e-8)
    h = info["history"]
    assert h[0] == pytest.approx(1.0) and h[-1] <= 1e-10 and len(h) == info["iterations"] + 1
    # every iteration times at least its operator application and its orthogonalisation
    assert info["time"]["phases"] >= 2 * info["iterations"]


def test_cg_matches_scipy_with_jacobi(device, rng):
    A = _poisson(24)
    b = rng.standard_normal(A.shape[0])
    x, info = tessera.solve(A, b, "cg", device, precond="jacobi", tol=1e-10)
    ref, code = spla.cg(A, b, rtol=1e-12, maxiter=2000)
    assert code == 0 and info["status"] == "converged"
    np.testing.assert_allclose(x, ref, rtol=1e-7, atol=1e-8)
    assert np.linalg.norm(b - A @ x) <= 1e-9 * np.linalg.norm(b)


def test_ilu0_preconditions_gmres(device, rng):
    A = _convection_diffusion(20)
    b = rng.standard_normal(A.shape[0])
    _, plain = tessera.solve(A, b, "gmres", device, restart=30, tol=1e-10)
    x, info = tessera.solve(A, b, "gmres", device, restart=30, tol=1e-10, precond="ilu0")
    assert info["converged"] and 2 * info["iterations"] < plain["iterations"]
    np.testing.assert_allclose(x, spla.spsolve(sp.csc_array(A), b), rtol=1e-7, atol=1e-8)


def test_ilu0_zero_pivot_is_an_error():
    # a_00 = 0 stored explicitly: regular, but ILU(0) has no pivot in row 0
    A = sp.csr_array((np.array([0.0, 1.0, 1.0, 2.0]), np.array([0, 1, 0, 1]), np.array([0, 2, 4])), shape=(2, 2))
    with pytest.raises(tessera.Error, match="zero pivot in row 0"):
        tessera.solve(A, np.ones(2), "gmres", "cpu", precond="ilu0")


def test_bicgstab_and_thesis_mode_same_iterates(rng):
    A = _convection_diffusion(12)
    b = rng.standard_normal(A.shape[0])
    x1, i1 = tessera.solve(A, b, "bicgstab", "cpu", tol=1e-10)
    x2, i2 = tessera.solve(A, b, "gmres", "cpu", tol=1e-10, mode="resident")
    x3, i3 = tessera.solve(A, b, "gmres", "cpu", tol=1e-10, mode="thesis")
    assert i1["converged"] and i2["converged"]
    np.testing.assert_array_equal(x2, x3)  # same kernels, same order
    np.testing.assert_allclose(x1, x2, rtol=1e-7, atol=1e-8)


def test_single_precision_and_complex(rng):
    A = _convection_diffusion(10)
    b = rng.standard_normal(A.shape[0])
    x, info = tessera.solve(A.astype(np.float32), b, "gmres", "cpu", tol=1e-5)
    assert x.dtype == np.float32 and info["converged"]
    Ac = sp.csr_array(A.astype(np.complex128) * (1 + 0.5j))
    bc = b + 1j * rng.standard_normal(A.shape[0])
    xc, ic = tessera.solve(Ac, bc, "gmres", "cpu", tol=1e-10)
    assert ic["converged"]
    np.testing.assert_allclose(Ac @ xc, bc, rtol=1e-8, atol=1e-8)


def test_solve_errors():
    A = sp.csr_array(np.ones((3, 4)))
    with pytest.raises(tessera.Error, match="square"):
        tessera.solve(A, np.ones(3), "gmres", "cpu")
    with pytest.raises(tessera.UsageError, match="method"):
        tessera.solve(sp.eye_array(3), np.ones(3), "sor", "cpu")
    with pytest.raises(tessera.UsageError, match="precond"):
        tessera.solve(sp.eye_array(3), np.ones(3), "gmres", "cpu", precond="ilu")


def test_fused_mode_equals_resident_dcgs2(rng):
    A = _convection_diffusion(14)
    b = rng.standard_normal(A.shape[0])
    xr, ir = tessera.solve(A, b, "gmres", "cpu", tol=1e-10, ortho="dcgs2", mode="resident")
    xf, inf = tessera.solve(A, b, "gmres", "cpu", tol=1e-10, mode="fused")  # ortho defaults to dcgs2
    assert ir["converged"] and inf["converged"]
    np.testing.assert_array_equal(xf, xr)  # the fused kernels keep every bit
    np.testing.assert_array_equal(inf["history"], ir["history"])
    with pytest.raises(Exception, match="CGS2"):
        tessera.solve(A, b, "gmres", "cpu", mode="fused", ortho="mgs")


def test_sstep_gmres_gives_gmres_iterates(rng):
    """s-step GMRES (bcgs2) builds the same Krylov spaces: DCGS2's residual history to round-off, any block size."""
    A = _convection_diffusion(20)
    b = rng.standard_normal(A.shape[0])
    _, ref = tessera.solve(A, b, "gmres", "cpu", restart=22, tol=1e-10, mode="fused")
    for s in (3, 8):
        x, info = tessera.solve(A, b, "gmres", "cpu", restart=22, tol=1e-10, mode="fused", ortho="bcgs2", sstep=s)
        assert info["converged"] and info["true_relres"] <= 1e-9
        np.testing.assert_allclose(info["history"], ref["history"], rtol=1e-8, atol=1e-15)
    with pytest.raises(ValueError, match="1 to 8"):
        tessera.solve(A, b, "gmres", "cpu", ortho="bcgs2", sstep=9)
    with pytest.raises(ValueError, match="resident or fused"):
        tessera.solve(A, b, "gmres", "cpu", ortho="bcgs2", mode="thesis")


def test_compressed_basis_double_reaches_the_tolerance(rng):
    """A float basis for a double solve: still 1e-10, a few more iterations at most; a bad name is refused."""
    A = _convection_diffusion(16)
    b = rng.standard_normal(A.shape[0])
    xf, full = tessera.solve(A, b, "gmres", "cpu", tol=1e-10, mode="fused")
    xc, comp = tessera.solve(A, b, "gmres", "cpu", tol=1e-10, mode="fused", basis="compressed")
    assert full["converged"] and comp["converged"]
    assert comp["true_relres"] <= 1e-9
    assert full["iterations"] <= comp["iterations"] <= full["iterations"] + 10
    assert not np.array_equal(xc, xf)  # the basis really is stored in float
    np.testing.assert_allclose(xc, xf, rtol=0, atol=1e-8 * np.abs(xf).max())
    with pytest.raises(tessera.UsageError, match="basis"):
        tessera.solve(A, b, "gmres", "cpu", basis="half")
    with pytest.raises(tessera.UsageError, match="compressed basis"):
        tessera.solve(A, b, "gmres", "cpu", mode="thesis", basis="compressed")


def test_stagnation_waits_for_slow_but_steady_cg():
    """Unpreconditioned CG on D L D (1D Laplacian, D = 10^U(-1, 1)) rises
    before it falls: the old rule (200 iterations without a 0.1% gain)
    stopped it; it converges, as SciPy's CG does, and 'off' is taken."""
    rng = np.random.default_rng(5)
    n = 500
    d = sp.diags_array(10.0 ** rng.uniform(-1, 1, n))
    lap = sp.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(n, n))
    A = sp.csr_array(d @ lap @ d)
    b = rng.standard_normal(n)
    ref, code = spla.cg(A, b, rtol=1e-8, maxiter=50000)
    assert code == 0
    for stagnation in ("auto", "off"):
        x, info = tessera.solve(A, b, "cg", "cpu", tol=1e-8, max_iters=50000, stagnation=stagnation)
        assert info["converged"], (stagnation, info["status"], info["iterations"])
        assert info["true_relres"] < 1e-7
    with pytest.raises(ValueError, match="stagnation"):
        tessera.solve(A, b, "cg", "cpu", stagnation=0)
    with pytest.raises(ValueError, match="stagnation"):
        tessera.solve(A, b, "cg", "cpu", stagnation="never")
    with pytest.raises(ValueError, match="stagnation"):  # beyond the C++ int, as the CLI's bound
        tessera.solve(A, b, "cg", "cpu", stagnation=2**40)


def test_solve_takes_a_linear_operator_and_a_callback(rng):
    """A LinearOperator (matvec only) gives the iterates of its matrix, and
    the callback sees every history entry after the first."""
    A = _convection_diffusion(12)
    b = rng.standard_normal(A.shape[0])
    op = spla.LinearOperator(A.shape, matvec=lambda v: A @ v, dtype=np.float64)
    seen = []
    x, info = tessera.solve(op, b, "gmres", "cpu", restart=20, tol=1e-10,
                            callback=lambda it, rel: seen.append((it, rel)))
    xm, im = tessera.solve(A, b, "gmres", "cpu", restart=20, tol=1e-10)
    assert info["converged"] and info["iterations"] == im["iterations"]
    np.testing.assert_allclose(x, xm, rtol=1e-12, atol=1e-14)
    assert [r for _, r in seen] == list(info["history"][1:])
    assert [it for it, _ in seen] == list(range(1, info["iterations"] + 1))
    # BiCGStab through the operator, float32 from the operator's dtype
    op32 = spla.LinearOperator(A.shape, matvec=lambda v: (A @ v).astype(np.float32), dtype=np.float32)
    x32, i32 = tessera.solve(op32, b, "bicgstab", "cpu", tol=1e-5)
    assert i32["converged"] and x32.dtype == np.float32
    with pytest.raises(tessera.UsageError, match="needs the matrix"):
        tessera.solve(op, b, "gmres", "cpu", precond="jacobi")
    class Bad:  # any object with matvec and shape; this one answers with 3 entries
        shape = A.shape
        dtype = np.float64

        def matvec(self, v):
            return np.ones(3)

    bad = Bad()
    with pytest.raises(tessera.UsageError, match="matvec returned 3 entries"):
        tessera.solve(bad, b, "gmres", "cpu")

    class Stop(Exception):
        pass

    def stop(it, rel):
        if it == 3:
            raise Stop()

    with pytest.raises(Stop):
        tessera.solve(A, b, "cg", "cpu", callback=stop)
    with pytest.raises(TypeError, match="callback"):
        tessera.solve(A, b, "cg", "cpu", callback=3)


def test_cg_on_a_nonsymmetric_matrix_warns(rng):
    """CG assumes A = A^H: a convection-diffusion matrix (skew part 0.3 of
    its off-diagonals) gets a RuntimeWarning with the defect, a symmetric
    one none and its defect 0, and other methods never compute it."""
    A = _convection_diffusion(12)
    b = rng.standard_normal(A.shape[0])
    with pytest.warns(RuntimeWarning, match=r"assumes a symmetric matrix; A differs from its transpose by up to 1\.50e-01"):
        _, info = tessera.solve(A, b, "cg", "cpu", max_iters=50)
    # |(-1-c) - (-1+c)| = 2c over the largest entry 4: 0.15
    assert info["hermitian_defect"] == pytest.approx(0.15)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, sym = tessera.solve(_poisson(12), b, "cg", "cpu")
        _, gm = tessera.solve(A, b, "gmres", "cpu")
    assert sym["hermitian_defect"] == 0.0 and "hermitian_defect" not in gm
    Z = A.astype(np.complex128)
    Z = sp.csr_array(Z + 1j * sp.eye_array(A.shape[0]))  # a complex diagonal: not Hermitian either
    with pytest.warns(RuntimeWarning, match="assumes a Hermitian matrix; A differs from its conjugate transpose"):
        tessera.solve(Z, b.astype(np.complex128), "cg", "cpu", max_iters=50)


def test_an_empty_matrix_is_refused():
    with pytest.raises(ValueError, match="0 x 0: there is no system to solve"):
        tessera.solve(sp.csr_array((0, 0)), np.zeros(0), "cg", "cpu")
