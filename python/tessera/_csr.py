"""scipy.sparse (or dense) matrices to the CSR arrays the extension takes."""
import numpy as np

_VALUE_TYPES = (np.float32, np.float64, np.complex64, np.complex128)


def csr_arrays(a, dtype=None):
    """(indptr int32, indices int32, data, (rows, cols)): canonical CSR
    (sorted, no duplicates). Integer and bool values become float64."""
    import scipy.sparse as sp

    if not sp.issparse(a):
        a = np.asarray(a)
        if a.ndim != 2:
            raise ValueError(f"expected a 2-D matrix, got an array of {a.ndim} dimensions")
    a = sp.csr_array(a)
    if not a.has_canonical_format:
        a = a.copy()
        a.sum_duplicates()
    data = a.data
    if dtype is not None:
        data = data.astype(dtype, copy=False)
    elif data.dtype.type not in _VALUE_TYPES:
        data = data.astype(np.complex128 if np.iscomplexobj(data) else np.float64)
    return (np.ascontiguousarray(a.indptr, dtype=np.int32), np.ascontiguousarray(a.indices, dtype=np.int32),
            np.ascontiguousarray(data), (int(a.shape[0]), int(a.shape[1])))
