"""The report writer (python/tessera_report) on synthetic results: published
tables meet today's rows, failed suites are reported, plots are optional."""
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python", "tessera_report"))
import report  # noqa: E402


def _row(kernel, ms, precision="float", size=100, gb=1e9, flops=0.0, frac=0.5, note=""):
    return {"kernel": kernel, "precision": precision, "size": size, "median_ms": ms, "min_ms": ms, "reps": 3,
            "bytes": gb, "flops": flops, "gbps": gb / ms * 1e-6, "gflops": flops / ms * 1e-6,
            "fraction_of_copy": frac, "note": note}


def _suite(name, rows, copy=100.0):
    return {"suite": name, "run": {}, "devices": [{"device": {"id": "cpu"}, "copy_gbps": copy, "results": rows}]}


def test_cpu_rows_beyond_the_copy_are_marked_as_cache():
    s = {"suite": "stream", "run": {}, "devices": [
        {"device": {"id": "cpu", "backend": "cpu", "cache_bytes": 32 << 20}, "copy_gbps": 10.0,
         "results": [_row("triad", 0.1, frac=7.77), _row("copy", 1.0, frac=0.95)]}]}
    text = report.measurements_table(s)
    assert "777.0% (cache)" in text and "95.0% |" in text
    assert "fits in its caches (32 MiB here)" in text
    gpu = {"suite": "stream", "run": {}, "devices": [
        {"device": {"id": "cuda:0", "backend": "cuda"}, "copy_gbps": 10.0, "results": [_row("triad", 0.1, frac=1.02)]}]}
    assert "(cache)" not in report.measurements_table(gpu)


@pytest.fixture
def out(tmp_path):
    res = tmp_path / "results"
    res.mkdir()
    suites = {
        "mg": _suite("mg", [_row("thesis 10 x V(0,2)", 420.0, size=8191), _row("thesis smoother x16", 24.0, size=8191)]),
        "spmv": _suite("spmv", [_row("thesis 10x40x80 bell-v4 x100", 344.0, precision="complex float", flops=7.5e8),
                                _row("10x40x80 cusparse-csr-alg1", 0.3, precision="complex", flops=7.5e8)]),
        "swe": _suite("swe", [_row("thesis v5-pingpong 8x8 (20 steps)", 20 * 14.613 / 3960 * 1e3 / 2,
                                   precision="double", size=1000)]),
        "lbm": _suite("lbm", [_row("thesis-gas native x200 iterations", 10.0, precision="FP32", size=80,
                                   note="3872 MLUPS; thesis A100 native 1936 MLUPS (2.0x)")]),
    }
    index = {"run": {"git_commit": "abc"}, "device": {"id": "cpu", "name": "test"}, "quick": True, "suites": []}
    for name, s in suites.items():
        (res / f"{name}.json").write_text(json.dumps(s))
        index["suites"].append({"suite": name, "status": "ok", "seconds": 1.0})
    index["suites"].append({"suite": "gmres", "status": "failed", "seconds": 0.1, "error": "no case 99"})
    (res / "histories.json").write_text(json.dumps({"mg": [{"label": "2D", "status": "converged", "factor": 0.1,
                                                           "seconds": 0, "relative_residuals": [1, 0.1, 0.01]}],
                                                   "krylov": [], "errors": []}))
    (res / "index.json").write_text(json.dumps(index))
    return tmp_path


def test_published_tables_next_to_todays_rows(out):
    text = open(report.write_report(str(out))).read()
    # mg Table 5.4: nu = 2, thesis 7.56 s / 4.2 s, today 0.42 s -> 10x the HD 6870
    assert "| 2 | 7.56 | 4.2 | 0.42 | 0.42 | 10x |" in text
    # SpMV Table 6.11 10x40x80 CUDA BELL V4: Tesla 5.92 s, Fermi 3.44 s, MPI 3.31 s, today 0.344 s -> 10x
    assert "| 10x40x80 | CUDA BELL V4 | 5.92 | 3.44 | 3.31 | 0.344 | 10x |" in text
    # SWE V5 DP: 14.613 s published, today half of it -> 2x
    assert "14.61 | 7.31 | 7.31 | 2x" in text
    assert "| 1,936 | 3,872 | 2.0x |" in text
    assert "| gmres | failed |" in text and "no case 99" in text
    assert "cusparse-csr-alg1" in text.split("## Vendor libraries")[1]


def test_plots_or_a_note(out):
    text = open(report.write_report(str(out))).read()
    plots = text.split("## Plots")[1]
    try:
        import matplotlib  # noqa: F401
        assert os.path.exists(out / "plots" / "mg_convergence.png")
        assert os.path.exists(out / "plots" / "roofline.svg")
    except ImportError:
        assert "Plots skipped" in plots and "matplotlib" in plots


def test_missing_results_is_a_clear_error(tmp_path, capsys):
    assert report.main(["--out", str(tmp_path)]) == 1
    assert "index.json not found" in capsys.readouterr().err
