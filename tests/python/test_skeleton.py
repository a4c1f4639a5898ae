import numpy as np
import pytest

import tessera
from tessera import skeleton

OPENCL = [d["id"] for d in tessera.devices() if d["backend"] == "opencl"][:1]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_map_zip_fold_builtins_match_numpy(device, rng, dtype):
    a = rng.standard_normal((5, 7, 9)).astype(dtype)
    b = rng.standard_normal((5, 7, 9)).astype(dtype)
    np.testing.assert_array_equal(skeleton.map(a, "affine", device), dtype(2.5) * a - dtype(1))
    np.testing.assert_array_equal(skeleton.zip(a, b, "axpy", device), a * dtype(0.5) + b)
    np.testing.assert_array_equal(skeleton.zip(a, b, "max", device), np.maximum(a, b))
    assert skeleton.fold(a, "max", device) == a.max()
    tol = 1e-12 if dtype == np.float64 else 1e-4
    assert skeleton.fold(a, "add", device) == pytest.approx(a.astype(np.float64).sum(), abs=tol * a.size)


def test_one_and_two_dimensional_arrays(rng):
    v = rng.standard_normal(101)
    np.testing.assert_array_equal(skeleton.map(v, "increment", "cpu"), v + 1)
    m = rng.standard_normal((13, 17))
    out = skeleton.map_stencil(m, "jacobi5", "cpu")
    p = np.pad(m, 1)
    ref = 0.25 * ((p[1:-1, :-2] + p[1:-1, 2:]) + (p[:-2, 1:-1] + p[2:, 1:-1]))
    np.testing.assert_allclose(out, ref, rtol=0, atol=1e-15)


@pytest.mark.parametrize("boundary", ["neutral", "periodic", "clamp"])
def test_heat7_stencil_matches_numpy(device, rng, boundary):
    u = rng.standard_normal((6, 8, 10))
    out = skeleton.map_stencil(u, "heat7", device, boundary=boundary, neutral=0.5)
    mode = {"neutral": "constant", "periodic": "wrap", "clamp": "edge"}[boundary]
    p = np.pad(u, 1, mode=mode, **({"constant_values": 0.5} if mode == "constant" else {}))
    c = p[1:-1, 1:-1, 1:-1]
    n = ((p[1:-1, 1:-1, :-2] + p[1:-1, 1:-1, 2:]) + (p[1:-1, :-2, 1:-1] + p[1:-1, 2:, 1:-1])) + \
        (p[:-2, 1:-1, 1:-1] + p[2:, 1:-1, 1:-1])
    np.testing.assert_allclose(out, c + 0.125 * (n - 6 * c), rtol=0, atol=1e-14)


@pytest.mark.skipif(not OPENCL, reason="no OpenCL device")
def test_source_text_on_opencl(rng):
    a = rng.standard_normal((4, 33)).astype(np.float32)
    f = skeleton.Source("float cube(float v) { return v * v * v; }", "cube")
    np.testing.assert_allclose(skeleton.map(a, f, OPENCL[0]), a * a * a, rtol=1e-6)
    g = skeleton.Source("float mymin(float a, float b) { return a < b ? a : b; }", "mymin")
    assert skeleton.fold(a, g, OPENCL[0]) == a.min()


@pytest.mark.skipif(not OPENCL, reason="no OpenCL device")
def test_source_text_compile_error_names_the_line():
    bad = skeleton.Source("float f(float v) {\n  return v +;\n}\n", "f", origin="mine.cl")
    with pytest.raises(tessera.Error) as e:
        skeleton.map(np.ones(8, dtype=np.float32), bad, OPENCL[0])
    assert "mine.cl" in str(e.value)


def test_source_text_needs_opencl_and_unknown_builtin():
    with pytest.raises(tessera.Error, match="OpenCL"):
        skeleton.map(np.ones(4), skeleton.Source("double f(double v) { return v; }", "f"), "cpu")
    with pytest.raises(tessera.UsageError, match="built-ins"):
        skeleton.map(np.ones(4), "sqrt", "cpu")
