"""A walk through tessera from Python (run it top to bottom, or paste the
cells into a notebook). Every call takes device=... ('cpu', 'opencl:P:D',
'cuda:N', 'best'); arrays are NumPy arrays, matrices scipy.sparse."""

# %% 1. Devices -------------------------------------------------------------
import numpy as np

import tessera

print("backends built in:", tessera.backends)
for d in tessera.devices():
    print(" ", d["id"], "-", d["name"])
dev = tessera.device("best")          # opened once, kept open
print("using", dev)

# %% 2. Memory bandwidth: the yardstick of every other figure ----------------
r = tessera.stream(dev, size=1 << 22, precision="float", reps=5)["devices"][0]
copy = r["copy_gbps"]
print(f"copy bandwidth {copy:.1f} GB/s")

# %% 3. Multigrid --------------------------------------------------------------
# The operator is 4u - (4 neighbours) in 2-D (6u - 6 neighbours in 3-D),
# zero Dirichlet boundary; the array's shape is the grid: (ny, nx) or (nz, ny, nx).
rng = np.random.default_rng(1)
b = rng.standard_normal((127, 127))
x, info = tessera.mg.solve(b, dev, smoother="rbgs", pre=1, post=1, tol=1e-10)
print("multigrid:", info["status"], info["cycles"], "cycles; residual history:",
      np.array2string(info["residuals"][:4], precision=2), "...")
# the residual, recomputed with NumPy, is as small as the solver says
print("  ||b - Ax|| / ||b|| =", np.linalg.norm(tessera.mg.residual(x, b)) / np.linalg.norm(b))

# %% 4. Sparse matrices ----------------------------------------------------------
import scipy.sparse as sp

A = sp.random_array((500, 500), density=0.01, random_state=2, format="csr") + 4 * sp.eye_array(500)
for kernel in ("csr-vector", "ell", "sell", "bcsr-warp"):
    M = tessera.sparse.DeviceMatrix(A, dev, kernel)    # uploaded once, in the kernel's format
    y = M @ np.ones(500)
    print(f"  {kernel:10} format {M.format:5} stored {M.stored_entries:6} of {M.nonzeros} nonzeros, "
          f"error {np.abs(y - A @ np.ones(500)).max():.1e}")

# Matrix Market files: read and written exactly (shortest round-trip numbers)
import os
import tempfile

path = os.path.join(tempfile.mkdtemp(), "A.mtx.gz")
tessera.sparse.write_matrix_market(path, A, comments=["from the walkthrough"])
print("  read back equal:", (tessera.sparse.read_matrix_market(path).tocsr() != A).nnz == 0)

# %% 5. Krylov solvers -------------------------------------------------------------
x, info = tessera.solve(A, np.ones(500), "gmres", dev, restart=20, tol=1e-10)
print("GMRES:", info["status"], info["iterations"], "iterations, history",
      np.array2string(info["history"][:3], precision=2), "...")

# %% 6. Errors are Python exceptions with tessera's message ----------------------------
try:
    tessera.device("cuda:7")
except tessera.UsageError as e:
    print("UsageError:", e)
