"""Krylov solvers: GMRES(m), FGMRES, CG, BiCGStab on a device."""
import warnings

import numpy as np

from . import _tessera as _ext
from ._csr import csr_arrays

__all__ = ["solve"]


_AMG_KEYS = ("strength", "theta", "smoother", "degree", "omega", "presweeps", "postsweeps", "cycle",
             "levels", "coarse_size", "nullspace")
_INT = (int, np.integer)
_REAL = (int, float, np.integer, np.floating)
_AMG_TYPES = {"strength": str, "smoother": str, "cycle": str, "theta": _REAL, "omega": _REAL, "degree": _INT,
              "presweeps": _INT, "postsweeps": _INT, "levels": _INT, "coarse_size": _INT}


def solve(A, b, method="gmres", device=None, *, x0=None, restart=30, ortho=None, tol=1e-8, max_iters=1000,
          precond="none", block=None, mode="resident", kernel="auto", fixed_iterations=False, basis="full",
          sstep=4, stagnation="auto", callback=None, amg=None):
    """Solves A x = b; returns ``(x, info)``.

    ``A``: a scipy.sparse matrix (or dense 2-D array), square; its dtype
    (float32/float64/complex64/complex128) is the working precision and ``b``
    is converted to it. Or an operator: any object with ``matvec`` and
    ``shape`` (``scipy.sparse.linalg.LinearOperator``), its ``dtype`` (else
    b's, else float64) the working precision; each product copies the
    vector to the host and back, and ``precond`` must be none.
    ``callback``: called as ``callback(iteration, relres)`` after every
    iteration (an exception it raises ends the solve and propagates). ``method``: gmres, fgmres, cg, bicgstab. ``ortho``:
    mgs, cgs, cgs2, dcgs2 (default: mgs; in the fused mode dcgs2), or bcgs2:
    s-step GMRES, blocks of ``sstep`` (1 to 8) Krylov vectors orthogonalised
    by block CGS2 (resident and fused modes, gmres only).
    ``precond``: none, jacobi, ilu0, block-jacobi (``block`` x ``block``
    diagonal blocks, default 5; ilu0: rows per group of its level schedule,
    default 5), or amg: smoothed-aggregation algebraic multigrid (one cycle
    per application; ``block``: rows per node, default 1), with ``amg`` a
    dict of its options (docs/amg.md): strength ('symmetric' or
    'classical'), theta, smoother ('auto': 'gauss-seidel' on a CPU device,
    'jacobi' on a GPU; 'gauss-seidel', 'chebyshev', 'jacobi'), degree, omega,
    presweeps, postsweeps, cycle ('V' or 'W'), levels, coarse_size, nullspace (an n x k array: the near-nullspace vectors as
    columns, default one constant per row of a node); ``info['amg']`` then
    holds the levels (rows, nonzeros, block, rho), the operator and grid
    complexities and the setup's seconds. ``mode``: resident (everything on the device), fused
    (resident; GMRES with DCGS2, CG and BiCGStab on fused kernels) or thesis (vectors on the
    host, SpMV and preconditioner offloaded). ``basis``: full, or compressed
    (GMRES keeps its Krylov basis in half precision for float32/complex64
    and in float for float64/complex128; resident and fused modes).
    ``kernel``: the SpMV kernel of a matrix, or ``"auto"`` (chosen from its
    rows and blocks, as ``tessera.sparse.DeviceMatrix`` does).
    ``stagnation``: CG and BiCGStab stop as stagnated after that many
    iterations without a 0.1% gain on their best residual (``"auto"``:
    max(200, the iterations to the best, 20 n)), GMRES after a restart cycle
    without one; ``"off"``: never.
    ``info``: status, converged, iterations, restarts, history (relative
    residual before the first iteration and after each), true_relres
    (||b - A x|| / ||b|| recomputed), hermitian_defect (method 'cg' only:
    max |a_ij - conj(a_ji)| / max |a_ij|; a RuntimeWarning above the
    square root of the precision's epsilon), accurate (False where the iteration
    converged but true_relres stays more than 10x above ``tol``: then a
    RuntimeWarning says why, as ``tessera solve`` exits 1), time (seconds by
    phase, and ``phases``: how many timed phases), device.
    """
    if stagnation == "off":
        window = 0
    elif stagnation == "auto":
        window = -1
    elif isinstance(stagnation, (int, np.integer)) and not isinstance(stagnation, bool) and 1 <= stagnation <= 10**8:
        window = int(stagnation)
    else:
        raise ValueError(f"stagnation: expected 'auto', 'off' or an integer from 1 to 100000000, got {stagnation!r}")
    if ortho is None:
        ortho = "dcgs2" if mode == "fused" else "mgs"
    if amg is not None:
        if precond != "amg":
            raise ValueError(f"amg: options for precond='amg' (got precond={precond!r})")
        if not isinstance(amg, dict):
            raise TypeError(f"amg: expected a dict of options, got {type(amg).__name__}")
        unknown = sorted(set(amg) - set(_AMG_KEYS), key=str)
        if unknown:
            raise ValueError(f"amg: unknown option(s) {', '.join(map(str, unknown))} (expected {', '.join(_AMG_KEYS)})")
        for key, value in amg.items():
            want = _AMG_TYPES.get(key)
            if want is not None and (isinstance(value, bool) or not isinstance(value, want)):
                names = " or ".join(t.__name__ for t in (want if isinstance(want, tuple) else (want,)))
                raise TypeError(f"amg: {key} must be {names}, got {value!r}")
            if want is _INT and not -2**31 < int(value) < 2**31:
                raise ValueError(f"amg: {key} {value}: out of range")
    if block is None:
        block = 1 if precond == "amg" else 5
    if callback is not None and not callable(callback):
        raise TypeError(f"callback: expected a callable, got {type(callback).__name__}")
    if hasattr(A, "matvec") and not hasattr(A, "tocsr"):
        x, info = _solve_operator(A, b, device, x0, method, restart, ortho, tol, max_iters, precond, mode,
                                  fixed_iterations, basis, sstep, window, callback)
        return x, _check_accuracy(info, tol, fixed_iterations, np.dtype(x.dtype))
    indptr, indices, data, shape = csr_arrays(A)
    b = np.ascontiguousarray(b, dtype=data.dtype).reshape(-1)
    if x0 is not None:
        x0 = np.ascontiguousarray(x0, dtype=data.dtype).reshape(-1)
    x, info = _ext._solve(device, indptr, indices, data, shape, b, x0, method, int(restart), ortho, float(tol),
                          int(max_iters), precond, int(block), mode, kernel, bool(fixed_iterations), str(basis),
                          int(sstep), window, _amg_dict(amg, data.dtype), callback)
    defect = info.get("hermitian_defect", 0.0)
    if defect > np.sqrt(np.finfo(data.dtype).eps):  # above the rounding of a symmetric assembly
        kind = "Hermitian" if np.iscomplexobj(data) else "symmetric"
        warnings.warn(f"solve: method 'cg' assumes a {kind} matrix; A differs from its "
                      f"{'conjugate ' if kind == 'Hermitian' else ''}transpose by up to {defect:.2e} of its largest "
                      "entry: CG may stall or end at a wrong x ('gmres' or 'bicgstab' take any matrix)",
                      RuntimeWarning, stacklevel=2)
    return x, _check_accuracy(info, tol, fixed_iterations, data.dtype)


def _check_accuracy(info, tol, fixed_iterations, dtype):
    """info['accurate']: a converged solve whose true residual stays within
    10x of tol (the bound of ``tessera solve``'s exit status); a warning
    where it does not, with the likely cause."""
    accurate = bool(fixed_iterations or not info["converged"] or info["true_relres"] <= 10 * tol)
    info["accurate"] = accurate
    if not accurate:
        single = np.dtype(dtype) in (np.dtype(np.float32), np.dtype(np.complex64))
        why = ("single precision cannot reach that tolerance; solve in float64/complex128, or with a tol of 1e-6 "
               "or more" if single else "the iteration's residual drifted from the true one; restart from this x "
               "(x0) or use a stronger preconditioner")
        warnings.warn(f"solve: the iteration reached tol {tol:.3g}, but the true relative residual is "
                      f"{info['true_relres']:.3e}, more than 10x above it: {why}", RuntimeWarning, stacklevel=3)
    return info


def _amg_dict(amg, dtype):
    d = dict(amg or {})
    if "nullspace" in d:
        d["nullspace"] = np.ascontiguousarray(d["nullspace"], dtype=dtype)
    return d


def _solve_operator(A, b, device, x0, method, restart, ortho, tol, max_iters, precond, mode, fixed_iterations,
                    basis, sstep, window, callback):
    shape = tuple(getattr(A, "shape", ()))
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"solve: an operator A needs a square shape, got {shape}")
    dtype = np.dtype(getattr(A, "dtype", None) or np.result_type(np.asarray(b).dtype, np.float32))
    b = np.ascontiguousarray(b, dtype=dtype).reshape(-1)
    if x0 is not None:
        x0 = np.ascontiguousarray(x0, dtype=dtype).reshape(-1)

    def matvec(x):
        return np.ascontiguousarray(A.matvec(x), dtype=dtype).reshape(-1)

    return _ext._solve_operator(device, int(shape[0]), matvec, b, x0, method, int(restart), ortho, float(tol),
                                int(max_iters), precond, mode, bool(fixed_iterations), str(basis), int(sstep),
                                window, callback)
