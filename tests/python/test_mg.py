import numpy as np
import pytest

import tessera
from tessera import mg


def _dense_poisson_2d(ny, nx):
    """The operator as a dense matrix, built from its definition (numpy only)."""
    n = nx * ny
    A = np.zeros((n, n))
    for j in range(ny):
        for i in range(nx):
            p = j * nx + i
            A[p, p] = 4
            for dj, di in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                jj, ii = j + dj, i + di
                if 0 <= jj < ny and 0 <= ii < nx:
                    A[p, jj * nx + ii] = -1
    return A


@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-10), (np.float32, 1e-5)])
def test_mg_2d_matches_a_dense_solve(device, rng, dtype, tol):
    ny, nx = 15, 31
    b = rng.standard_normal((ny, nx)).astype(dtype)
    x, info = mg.solve(b, device, tol=tol, max_cycles=60)
    assert x.shape == b.shape and x.dtype == dtype
    assert info["status"] == "converged"
    ref = np.linalg.solve(_dense_poisson_2d(ny, nx), b.astype(np.float64).ravel()).reshape(ny, nx)
    assert np.max(np.abs(x - ref)) <= 50 * tol * np.max(np.abs(ref))
    # the residual the solver reports is the one NumPy computes
    r = mg.residual(x, b)
    assert np.linalg.norm(r) <= 10 * tol * np.linalg.norm(b.astype(np.float64)) + 1e-6 * (dtype == np.float32)


def test_mg_3d_residual_history_decreases(device, rng):
    b = rng.standard_normal((15, 15, 15))
    x, info = mg.solve(b, device, tol=1e-10, smoother="jacobi", pre=2, post=2)
    h = info["residuals"]
    assert info["status"] == "converged" and info["levels"] >= 3
    assert h[0] == pytest.approx(np.linalg.norm(b), rel=1e-12)
    assert np.all(np.diff(h) < 0)
    assert np.linalg.norm(mg.residual(x, b)) <= 1e-9 * np.linalg.norm(b)


def test_mg_fmg_and_w_cycle(rng):
    b = rng.standard_normal((63, 63))
    _, v = mg.solve(b, "cpu", tol=1e-9)
    _, w = mg.solve(b, "cpu", tol=1e-9, cycle="W", fmg=True)
    assert v["status"] == w["status"] == "converged"
    assert w["cycles"] <= v["cycles"]


def test_mg_errors_carry_the_message():
    with pytest.raises(tessera.UsageError, match="2-D"):
        mg.solve(np.ones(7), "cpu")
    with pytest.raises(tessera.UsageError, match="float32 or float64"):
        mg.solve(np.ones((7, 7), dtype=np.int32), "cpu")
    with pytest.raises(tessera.UsageError, match="smoother"):
        mg.solve(np.ones((7, 7)), "cpu", smoother="sor")
