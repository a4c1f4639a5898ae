"""GMRES on a non-symmetric sparse matrix from SciPy, checked against SciPy."""
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import tessera

n = 64
t = sp.diags_array([-1.3, 4.0, -0.7], offsets=[-1, 0, 1], shape=(n, n))
A = sp.csr_array(sp.kron(sp.eye_array(n), t) + sp.kron(sp.diags_array([-1.0, -1.0], offsets=[-1, 1], shape=(n, n)),
                                                         sp.eye_array(n)))
b = np.random.default_rng(0).standard_normal(A.shape[0])

x, info = tessera.solve(A, b, "gmres", "best", restart=30, ortho="cgs2", precond="jacobi", tol=1e-10)
print(f"{info['status']}: {info['iterations']} iterations, true residual {info['true_relres']:.2e}")
ref, _ = spla.gmres(A, b, rtol=1e-12, restart=30)
print("max difference from scipy.sparse.linalg.gmres:", np.abs(x - ref).max())

# the same matrix on the device in SELL-C-sigma, multiplied repeatedly
M = tessera.sparse.DeviceMatrix(A, "best", "sell")
print(M, "  |Mx - Ax| =", np.abs(M @ b - A @ b).max())
