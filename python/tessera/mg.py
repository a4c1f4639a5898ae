"""Geometric multigrid for the Poisson system diag*u - sum(neighbours) = b.

The grid is the array's shape: 2-D ``(ny, nx)`` (5-point, diag 4) or 3-D
``(nz, ny, nx)`` (7-point, diag 6), homogeneous Dirichlet boundary outside the
array, no grid spacing (scale b by h^2 yourself). Sides of the form c*2^k - 1
give k coarse levels.
"""
import numpy as np

from . import _tessera as _ext

__all__ = ["solve", "residual"]


def solve(b, device=None, *, x0=None, cycle="V", smoother="rbgs", pre=1, post=1, tol=1e-8, max_cycles=50,
          fmg=False, omega=0.0, coarse_sweeps=64):
    """Solves A x = b; returns ``(x, info)``.

    ``b``: float32 or float64 array (the precision of the solve).
    ``info``: status, cycles, residuals (||r|| before the first cycle and
    after each), rhs_norm, relative_residual, asymptotic_factor, seconds
    (device time), levels, device.
    """
    b = np.ascontiguousarray(b)
    if x0 is not None:
        x0 = np.ascontiguousarray(x0, dtype=b.dtype)
    return _ext.mg._solve(device, b, x0, cycle, smoother, int(pre), int(post), float(tol), int(max_cycles),
                          bool(fmg), float(omega), int(coarse_sweeps))


def residual(x, b):
    """r = b - A x with NumPy (the same operator, zero boundary): a reference."""
    x = np.asarray(x, dtype=np.float64)
    p = np.pad(x, 1)
    inner = tuple(slice(1, -1) for _ in range(x.ndim))
    ax = 2 * x.ndim * x
    for axis in range(x.ndim):
        for shift in (-1, 1):
            sl = list(inner)
            sl[axis] = slice(1 + shift, p.shape[axis] - 1 + shift)
            ax = ax - p[tuple(sl)]
    return np.asarray(b, dtype=np.float64) - ax
