"""Shared fixtures: the devices the tests run on: every device tessera lists
(CPU, OpenCL including PoCL, CUDA), or TESSERA_PY_DEVICES="cpu,opencl:0:0"."""
import os

import numpy as np
import pytest

import tessera


def _device_ids():
    env = os.environ.get("TESSERA_PY_DEVICES")
    if env:
        return [d for d in env.split(",") if d]
    return [d["id"] for d in tessera.devices()]


DEVICES = _device_ids()


@pytest.fixture(params=DEVICES)
def device(request):
    return request.param


@pytest.fixture
def rng():
    return np.random.default_rng(20261123)
