import numpy as np
import pytest

sp = pytest.importorskip("scipy.sparse")

import tessera


def _poisson(n):
    t = sp.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(n, n))
    return sp.csr_array(sp.kron(sp.eye_array(n), t) + sp.kron(t, sp.eye_array(n)))


def test_amg_cg_on_poisson_reports_its_hierarchy(device, rng):
    A = _poisson(48)
    b = rng.standard_normal(A.shape[0])
    x, info = tessera.solve(A, b, "cg", device, precond="amg", tol=1e-10)
    assert info["converged"] and info["true_relres"] <= 1e-9
    np.testing.assert_allclose(A @ x, b, atol=1e-8 * np.linalg.norm(b))
    _, jac = tessera.solve(A, b, "cg", device, precond="jacobi", tol=1e-10)
    assert info["iterations"] * 3 < jac["iterations"]
    h = info["amg"]
    rows = [lvl["rows"] for lvl in h["levels"]]
    assert rows[0] == A.shape[0] and rows == sorted(rows, reverse=True) and len(rows) >= 2
    assert h["levels"][0]["nonzeros"] == A.nnz
    assert 1.0 < h["operator_complexity"] < 2.5 and 1.0 < h["grid_complexity"] < 1.5
    assert h["setup_s"] > 0
    # the products on a GPU, on the host otherwise
    gpu = next(d["is_gpu"] for d in tessera.devices() if d["id"] == device)
    assert h["products_on"] == (device if gpu else "host")


def test_amg_iterations_against_pyamg(rng):
    """The same matrix in PyAMG's smoothed aggregation (its defaults, CG):
    tessera's default cycle within 1.2x of PyAMG's iterations (issue 46's
    bound; measured 9 against 8), and with weighted Jacobi (PyAMG's one sweep
    of omega 4/3 / rho, tessera's default two) within 1.2x too (16 against
    20)."""
    import pyamg  # installed with the test environment (scripts/test-python.sh)
    A = pyamg.gallery.poisson((96, 96), format="csr")
    b = np.ones(A.shape[0])
    for smoother, ours, bound in [(("block_gauss_seidel", {"sweep": "symmetric"}), {}, 1.2),
                                  (("jacobi", {"omega": 4.0 / 3.0 / 2.0}), {"smoother": "jacobi"}, 1.2)]:
        ml = pyamg.smoothed_aggregation_solver(A, presmoother=smoother, postsmoother=smoother, max_coarse=300)
        res = []
        ml.solve(b, tol=1e-8, accel="cg", residuals=res)
        _, info = tessera.solve(sp.csr_array(A), b, "cg", "cpu", precond="amg", amg=ours, tol=1e-8)
        assert info["converged"]
        assert info["iterations"] <= bound * (len(res) - 1), (smoother[0], info["iterations"], len(res) - 1)
        # the default, auto, is Gauss-Seidel on the CPU; the resolved smoother is reported
        assert info["amg"]["smoother"] == ("jacobi" if ours else "gauss-seidel"), info["amg"]


def test_amg_nullspace_is_used(rng):
    """A Laplacian scaled as S A S (S positive diagonal) has S^-1 * ones as its
    near-nullspace, not the constants: given it, AMG recovers the unscaled
    convergence."""
    A = _poisson(40)
    s = np.exp(rng.uniform(-1.5, 1.5, A.shape[0]))
    S = sp.diags_array(s)
    B = sp.csr_array(S @ A @ S)
    b = rng.standard_normal(A.shape[0])
    _, plain = tessera.solve(A, b, "cg", "cpu", precond="amg", tol=1e-10)
    _, const = tessera.solve(B, b, "cg", "cpu", precond="amg", tol=1e-10)
    _, given = tessera.solve(B, b, "cg", "cpu", precond="amg", tol=1e-10, amg={"nullspace": (1 / s)[:, None]})
    assert given["converged"] and const["converged"]
    assert given["iterations"] <= plain["iterations"] + 2
    assert given["iterations"] < const["iterations"]


def test_amg_complex_and_block_options(device):
    A = _poisson(24).astype(np.complex128) * (1 + 0.0j)
    A = sp.csr_array(A + sp.diags_array(np.full(A.shape[0], 0.1 + 0.0j)))
    b = np.ones(A.shape[0], dtype=np.complex128)
    _, info = tessera.solve(A, b, "gmres", device, precond="amg", amg={"cycle": "W", "smoother": "chebyshev"},
                            tol=1e-10)
    assert info["converged"]
    # 2 x 2 blocks: kron(Poisson, M), M SPD
    K = sp.csr_array(sp.kron(_poisson(20), np.array([[2.0, 1.0], [1.0, 3.0]])))
    _, blk = tessera.solve(K, np.ones(K.shape[0]), "cg", device, precond="amg", block=2, tol=1e-10)
    assert blk["converged"] and all(lvl["block"] == 2 for lvl in blk["amg"]["levels"])


def test_amg_bad_options():
    A = _poisson(8)
    b = np.ones(A.shape[0])
    with pytest.raises(ValueError, match="unknown option.*thetta"):
        tessera.solve(A, b, "cg", "cpu", precond="amg", amg={"thetta": 0.1})
    with pytest.raises(ValueError, match="precond='amg'"):
        tessera.solve(A, b, "cg", "cpu", precond="jacobi", amg={"theta": 0.1})
    with pytest.raises(tessera.UsageError, match="theta 1.5"):
        tessera.solve(A, b, "cg", "cpu", precond="amg", amg={"theta": 1.5})
    with pytest.raises(tessera.UsageError, match="nullspace must be an array of 64 rows"):
        tessera.solve(A, b, "cg", "cpu", precond="amg", amg={"nullspace": np.ones((63, 1))})
    with pytest.raises(tessera.Error, match="not a whole number of 3 x 3 blocks"):
        tessera.solve(A, b, "cg", "cpu", precond="amg", block=3)


def test_single_precision_below_its_epsilon_warns(rng):
    """float32 cannot reach tol 1e-8: the iteration's residual does, the true
    one stays near 1e-5; the solve says so (a RuntimeWarning, accurate
    False), as `tessera solve` exits 1, and a reachable tol passes quietly."""
    A = _poisson(64).astype(np.float32)
    b = rng.standard_normal(A.shape[0]).astype(np.float32)
    with pytest.warns(RuntimeWarning, match="true relative residual .* single precision cannot reach"):
        _, info = tessera.solve(A, b, "cg", "cpu", precond="amg", tol=1e-8)
    assert info["converged"] and not info["accurate"] and info["true_relres"] > 1e-7
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, ok = tessera.solve(A, b, "cg", "cpu", precond="amg", tol=1e-4)
    assert ok["converged"] and ok["accurate"] and ok["true_relres"] <= 1e-3
