"""tessera from Python: devices, STREAM, multigrid, sparse matrices and SpMV,
Krylov solvers, shallow water, skeleton fields and lattice Boltzmann.

Every function takes ``device=`` as an id (``"cpu"``, ``"opencl:P:D"``,
``"cuda:N"``, ``"best"``; default ``"best"``) or a :class:`Device`. Arrays go
in as NumPy arrays (float32/float64, complex for sparse), matrices as anything
``scipy.sparse.csr_array`` accepts. Failures raise :class:`Error` (a
``RuntimeError``) or :class:`UsageError` (also a ``ValueError``) with
tessera's message.
"""
import os as _os

# OpenMP threads spin long while they wait by default, which collapses the CPU
# backend when other processes share the cores; a short spin does not, and
# costs nothing on an idle machine (docs/backends.md). libgomp reads it when it
# is loaded, i.e. by the import below. A value the user set is kept.
if "OMP_WAIT_POLICY" not in _os.environ:
    _os.environ.setdefault("GOMP_SPINCOUNT", "1000")

from . import _tessera as _ext  # noqa: E402
from ._tessera import (BackendError, BuildError, Device, Error, OutOfMemory, UsageError, __version__,
                       backends, best_device_id, device, devices, git_commit)

from . import lbm, mg, skeleton, sparse, swe
from .krylov import solve

__all__ = ["Error", "UsageError", "BackendError", "BuildError", "OutOfMemory", "Device", "devices", "device",
           "best_device_id", "backends", "stream", "mg", "sparse", "solve", "swe", "skeleton", "lbm"]


def stream(device=None, size=0, precision="both", warmup=3, reps=20):
    """STREAM copy/scale/add/triad/dot plus the backend's own copy on one device.

    Returns the suite report as a dict (the JSON of ``tessera bench stream``):
    ``report["devices"][0]["results"]`` lists kernels with ``gbps`` and
    ``fraction_of_copy``; ``copy_gbps`` is the measured copy bandwidth.
    ``size`` is elements per array (0: a size well beyond the caches).
    """
    return _ext._stream(device, int(size), precision, int(warmup), int(reps))
