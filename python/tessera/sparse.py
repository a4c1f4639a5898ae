"""Sparse matrices on a device (every SpMV kernel's format), SpMV, Matrix
Market I/O and the host formats (ELL, SELL-C-sigma, BCSR, DIA)."""
import os

import numpy as np

from . import _tessera as _ext
from ._csr import csr_arrays

__all__ = ["DeviceMatrix", "spmv", "read_matrix_market", "write_matrix_market", "convert", "kernels"]

kernels = _ext.sparse.kernels
kernel_format = _ext.sparse.kernel_format


class DeviceMatrix:
    """A matrix uploaded once to a device in the format of ``kernel``
    (csr-scalar, csr-vector, csr-merge, ell, ell-v2, sell, bcsr-*, bell*; see
    ``tessera.sparse.kernels()``), or with ``kernel="auto"`` (the default) the
    kernel chosen from the matrix's rows and blocks (``kernel_choice`` says
    why). ``A @ x`` runs the SpMV on the device."""

    def __init__(self, A, device=None, kernel="auto", *, block=None, sell_slice=32, sell_sort=1,
                 ell_subsection=20, dtype=None):
        if block is not None and kernel == "auto":
            raise _ext.UsageError("DeviceMatrix: kernel='auto' chooses the block size; give a block "
                                  "kernel by name (bell-bi, bcsr-warp, ...) with block=")
        block = (5, 5) if block is None else block
        indptr, indices, data, shape = csr_arrays(A, dtype)
        self.dtype = data.dtype
        self.shape = shape
        self._m = _ext.sparse._device_matrix(device, indptr, indices, data, shape, kernel, int(block[0]),
                                             int(block[1]), int(sell_slice), int(sell_sort), int(ell_subsection))

    def __getattr__(self, name):  # rows, cols, nonzeros, stored_entries, matrix_bytes, kernel, kernel_choice, format, device
        return getattr(self._m, name)

    def spmv(self, x, kernel=None):
        """y = A x on the device (x converted to the matrix's dtype)."""
        x = np.ascontiguousarray(x, dtype=self.dtype).reshape(-1)
        return self._m.spmv(x, kernel)

    def __matmul__(self, x):
        return self.spmv(x)

    def __repr__(self):
        return (f"<tessera.sparse.DeviceMatrix {self.rows}x{self.cols}, {self.nonzeros} nonzeros, "
                f"{self.kernel} on {self.device}>")


def spmv(A, x, device=None, kernel="auto"):
    """y = A x once on a device (uploads A; keep a DeviceMatrix for repeated products)."""
    return DeviceMatrix(A, device, kernel) @ x


def read_matrix_market(path, allow_non_finite=False, return_header=False):
    """Reads a .mtx or .mtx.gz file into a ``scipy.sparse.coo_array`` (entries in
    file order, symmetric files expanded). Errors name the file and line."""
    import scipy.sparse as sp

    shape, row, col, val, header = _ext.sparse._read_matrix_market(os.fspath(path), bool(allow_non_finite))
    a = sp.coo_array((val, (row, col)), shape=shape)
    return (a, header) if return_header else a


def write_matrix_market(path, A, symmetry="general", field=None, comments=()):
    """Writes A (atomically; gzip when the name ends in .gz) in the shortest form
    that reads back exactly. ``symmetry`` is checked against A first."""
    indptr, indices, data, shape = csr_arrays(A)
    _ext.sparse._write_matrix_market(os.fspath(path), indptr, indices, data, shape, symmetry, field,
                                     list(comments))


def convert(A, format, block=(5, 5)):
    """The host arrays of A in ``format`` (ell, sell, bcsr, dia) as a dict."""
    indptr, indices, data, shape = csr_arrays(A)
    return _ext.sparse._convert(indptr, indices, data, shape, format, int(block[0]), int(block[1]))
