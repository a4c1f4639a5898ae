import numpy as np
import pytest

sp = pytest.importorskip("scipy.sparse")
import scipy.io

import tessera
from tessera import sparse


def _random_matrix(rng, n, m, density, dtype):
    a = sp.random_array((n, m), density=density, random_state=rng, format="csr", dtype=np.float64)
    if np.issubdtype(dtype, np.complexfloating):
        a = a + 1j * sp.random_array((n, m), density=density, random_state=rng, format="csr")
    return sp.csr_array(a.astype(dtype))


KERNELS = ["auto", "csr-scalar", "csr-vector", "csr-merge", "ell", "ell-v2", "sell", "bcsr-v1b", "bcsr-v3", "bcsr-warp", "bell",
           "bell-sub", "bell-bi"]


@pytest.mark.parametrize("kernel", KERNELS)
def test_spmv_every_kernel_matches_scipy(device, rng, kernel):
    a = _random_matrix(rng, 103, 97, 0.05, np.float64)
    x = rng.standard_normal(97)
    y = sparse.spmv(a, x, device, kernel)
    assert y.shape == (103,) and y.dtype == np.float64
    np.testing.assert_allclose(y, a @ x, rtol=1e-12, atol=1e-12)


def test_auto_picks_the_kernel_and_says_why(device, rng):
    # rows of 1 .. 1,500 entries: the load-balanced kernel on a GPU, csr-scalar on the CPU
    lengths = np.minimum(1500, np.floor(rng.pareto(1.2, 2000) + 1)).astype(int)
    rows = np.repeat(np.arange(2000), lengths)
    cols = rng.integers(0, 2000, rows.size)
    a = sp.csr_array((rng.standard_normal(rows.size), (rows, cols)), shape=(2000, 2000))
    m = sparse.DeviceMatrix(a, device)
    gpu = not str(m.device).startswith("cpu")
    assert m.kernel == ("csr-merge" if gpu else "csr-scalar")
    assert ("uneven rows" if gpu else "the CPU") in m.kernel_choice
    x = rng.standard_normal(2000)
    np.testing.assert_allclose(m @ x, a @ x, rtol=1e-12, atol=1e-12)
    assert sparse.DeviceMatrix(a, device, "sell").kernel_choice == "given"
    # auto chooses the block size too: one given with it is refused, not overridden
    with pytest.raises(tessera.UsageError, match="chooses the block size"):
        sparse.DeviceMatrix(a, device, block=(3, 3))
    assert sparse.DeviceMatrix(a, device, "bell-bi", block=(2, 2)).kernel == "bell-bi"


@pytest.mark.parametrize("dtype,rtol", [(np.float32, 1e-5), (np.complex64, 1e-5), (np.complex128, 1e-12)])
def test_spmv_value_types(device, rng, dtype, rtol):
    a = _random_matrix(rng, 64, 64, 0.1, dtype)
    x = (rng.standard_normal(64) + (1j * rng.standard_normal(64) if np.iscomplexobj(a.data) else 0)).astype(dtype)
    m = sparse.DeviceMatrix(a, device, "sell")
    assert m.rows == 64 and m.nonzeros == a.nnz and m.format == "sell"
    np.testing.assert_allclose(m @ x, a.astype(np.complex128 if np.iscomplexobj(a.data) else np.float64) @ x,
                               rtol=rtol, atol=rtol)


def test_matrix_market_round_trip_against_scipy(tmp_path, rng):
    a = _random_matrix(rng, 40, 30, 0.2, np.float64)
    path = tmp_path / "a.mtx"
    sparse.write_matrix_market(path, a, comments=["written by tessera"])
    ours = sparse.read_matrix_market(path).tocsr()
    theirs = sp.csr_array(scipy.io.mmread(str(path)))
    assert (ours != a).nnz == 0  # shortest round-trip form: exact
    assert (theirs != a).nnz == 0
    # and a file scipy wrote, read by tessera (symmetric: lower triangle expanded)
    s = sp.csr_array(a[:30, :30] + a[:30, :30].T)
    scipy.io.mmwrite(str(tmp_path / "s.mtx"), s, symmetry="symmetric")
    back, header = sparse.read_matrix_market(tmp_path / "s.mtx", return_header=True)
    assert header["symmetry"] == "symmetric"
    np.testing.assert_allclose(back.toarray(), s.toarray(), rtol=1e-15)


def test_matrix_market_gzip_and_complex(tmp_path, rng):
    a = _random_matrix(rng, 20, 20, 0.2, np.complex128)
    sparse.write_matrix_market(tmp_path / "c.mtx.gz", a)
    back = sparse.read_matrix_market(tmp_path / "c.mtx.gz").tocsr()
    assert back.dtype == np.complex128 and (back != a).nnz == 0


def test_matrix_market_error_names_file_and_line(tmp_path):
    p = tmp_path / "bad.mtx"
    p.write_text("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n4 2 2.0\n")
    with pytest.raises(tessera.Error) as e:
        sparse.read_matrix_market(p)
    assert "bad.mtx:4" in str(e.value)


def test_write_checks_symmetry(tmp_path, rng):
    a = _random_matrix(rng, 10, 10, 0.3, np.float64)
    with pytest.raises(tessera.Error, match="symmetr"):
        sparse.write_matrix_market(tmp_path / "n.mtx", a + sp.eye_array(10, k=1), symmetry="symmetric")


def test_host_formats_reproduce_the_matrix(rng):
    a = _random_matrix(rng, 30, 30, 0.1, np.float64)
    ell = sparse.convert(a, "ell")
    x = rng.standard_normal(30)
    # ELL: slot k of row i at k*stored_rows + i (column-major), padding value 0
    vals = ell["val"].reshape(ell["width"], ell["stored_rows"])
    cols = ell["col"].reshape(ell["width"], ell["stored_rows"])
    y = (vals * x[cols]).sum(axis=0)
    np.testing.assert_allclose(y, a @ x, rtol=1e-12, atol=1e-14)


def test_spmv_size_mismatch_is_an_error():
    a = sp.eye_array(5, format="csr")
    with pytest.raises(tessera.UsageError, match="5 columns"):
        sparse.spmv(a, np.ones(4), "cpu")
