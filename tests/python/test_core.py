import numpy as np
import pytest

import tessera


def test_devices_lists_the_cpu():
    devs = tessera.devices()
    assert devs[0]["id"] == "cpu"
    assert devs[0]["backend"] == "cpu"
    assert devs[0]["global_mem_bytes"] > 0
    assert "cpu" in tessera.backends


def test_device_object_is_cached_and_described():
    d = tessera.device("cpu")
    assert d.id == "cpu" and d.backend == "cpu"
    assert tessera.device("cpu") is d
    assert "cpu" in repr(d)


def test_unknown_device_is_a_usage_error_with_the_message():
    with pytest.raises(tessera.UsageError) as e:
        tessera.device("cuda:99x")
    assert "cuda:99x" in str(e.value)
    # UsageError is both a tessera.Error and a ValueError
    assert isinstance(e.value, tessera.Error) and isinstance(e.value, ValueError)


def test_stream_reports_bandwidth_and_copy_fraction():
    r = tessera.stream("cpu", size=1 << 16, precision="double", warmup=1, reps=3)
    dev = r["devices"][0]
    assert dev["copy_gbps"] > 0
    kernels = {m["kernel"]: m for m in dev["results"]}
    assert {"copy", "scale", "add", "triad"} <= set(kernels)
    triad = kernels["triad"]
    assert triad["gbps"] > 0 and triad["fraction_of_copy"] > 0
    # the modelled bytes of triad: three arrays of 8-byte doubles
    assert triad["bytes"] == pytest.approx(3 * 8 * (1 << 16))


def test_stream_bad_precision():
    with pytest.raises(tessera.UsageError, match="precision"):
        tessera.stream("cpu", size=1024, precision="half")
