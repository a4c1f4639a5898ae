import numpy as np
import pytest

import tessera
from tessera import lbm


def test_cavity_runs_and_conserves_mass(device):
    fields, s = lbm.run("cavity", device, size=(17,), steps=200, re=10, u=0.05)
    assert fields["rho"].shape == (1, 19, 19) or fields["rho"].shape[1:] == fields["ux"].shape[1:]
    assert s["steps"] == 200 and s["mlups"] > 0
    assert abs(s["mass_end"] - s["mass_start"]) <= 1e-4 * s["mass_start"]
    # the lid drags the fluid along +x near the top
    assert np.nanmax(fields["ux"]) > 0.01


def test_poiseuille_profile_is_parabolic():
    fields, s = lbm.run("poiseuille", "cpu", size=(1, 18, 1), lattice="D2Q9", precision="fp64", steps=3000, u=0.02,
                        tau=0.8)
    ux = fields["ux"][0, 1:-1, 0]  # the fluid rows between the walls
    y = np.arange(len(ux)) + 0.5
    w = len(ux)
    exact = 4 * 0.02 * y * (w - y) / w**2
    np.testing.assert_allclose(ux, exact, rtol=0.05, atol=2e-4)


def test_lbm_errors():
    with pytest.raises(tessera.UsageError, match="case"):
        lbm.run("river", "cpu")
    with pytest.raises(tessera.UsageError):
        lbm.run("tgv", "cpu", tau=0.4, steps=1)


CHANNEL = {
    "domain": {"cells": [200, 50, 1]},
    "flow": {"velocity": 0.1, "reynolds": 100, "length": 10},
    "boundary": {"x_min": "inlet", "x_max": "outlet", "y_min": "wall", "y_max": "wall"},
    "body": [{"name": "cylinder", "shape": "cylinder", "centre": (50, 24.5, 0), "diameter": 10}],
    "probe": [{"name": "wake", "at": np.array([80, 24, 0])}],
}


def test_simulate_a_dict_case_is_the_built_in_cylinder():
    fields, s = lbm.simulate(CHANNEL, "cpu", lattice="D2Q9", collision="trt", steps=200, every=100)
    ref, r = lbm.run("cylinder", "cpu", size=(200, 50), lattice="D2Q9", collision="trt", steps=200, re=100,
                     u=0.1, diameter=10)
    for k in ("rho", "ux", "uy"):
        assert np.array_equal(fields[k], ref[k]), k  # the same flags and constants: the same bits
    body = s["series"]["bodies"][0]
    assert body["name"] == "cylinder"
    assert body["step"].tolist() == [100, 200]
    assert body["force"].shape == (2, 3) and body["cd"].shape == (2,)
    assert body["cd"][-1] == pytest.approx(r["drag_coefficient"], rel=1e-12)
    probe = s["series"]["probes"][0]
    assert probe["ux_uy_uz_rho"].shape == (2, 4)
    assert probe["ux_uy_uz_rho"][-1, 0] == ref["ux"][0, 24, 80]
    assert s["units"]["physical"] is False and s["units"]["trt_magic"] == pytest.approx(1 / 12)


def test_simulate_refuses_typos_and_wrong_types():
    with pytest.raises(ValueError, match="unknown table 'flwo'"):
        lbm.simulate({**CHANNEL, "flwo": {}}, "cpu", lattice="D2Q9", steps=1)
    with pytest.raises(tessera.UsageError, match=r"<dict>.*unknown key 'speed' in \[flow\]"):
        lbm.simulate({**CHANNEL, "flow": {"speed": 0.1, "reynolds": 100, "length": 10}}, "cpu", lattice="D2Q9",
                     steps=1)
    with pytest.raises(TypeError, match="flow.velocity: expected a number"):
        lbm.simulate({**CHANNEL, "flow": {"velocity": {"x": 1}, "reynolds": 100, "length": 10}}, "cpu",
                     lattice="D2Q9", steps=1)
    with pytest.raises(TypeError, match="'body' is a list of dicts"):
        lbm.simulate({**CHANNEL, "body": {"shape": "cylinder"}}, "cpu", lattice="D2Q9", steps=1)
    with pytest.raises(TypeError, match="steps must be an int"):
        lbm.simulate(CHANNEL, "cpu", lattice="D2Q9", steps=1.5)
    with pytest.raises(tessera.UsageError, match="Mach"):
        lbm.simulate({**CHANNEL, "flow": {"velocity": 0.3, "reynolds": 100, "length": 10}}, "cpu", lattice="D2Q9",
                     steps=1)


def test_simulate_takes_a_numpy_mask_as_a_body():
    # the cylinder of the built-in case as a (ny, nx) mask: the same cells, the same bits
    ny, nx = 50, 200
    y, x = np.mgrid[0:ny, 0:nx]
    mask = (x - 50.0) ** 2 + (y - 24.5) ** 2 <= 25.0
    case = {**CHANNEL, "body": [{"name": "cylinder", "shape": "mask", "array": mask}]}
    fields, s = lbm.simulate(case, "cpu", lattice="D2Q9", collision="trt", steps=100, every=100)
    ref, r = lbm.run("cylinder", "cpu", size=(200, 50), lattice="D2Q9", collision="trt", steps=100, re=100,
                     u=0.1, diameter=10)
    assert np.array_equal(fields["ux"], ref["ux"])
    assert s["series"]["bodies"][0]["force"][-1][0] == pytest.approx(r["force"][0], rel=1e-12)
    with pytest.raises(tessera.UsageError, match="the mask's shape"):
        lbm.simulate({**CHANNEL, "body": [{"shape": "mask", "array": mask[:, :100]}]}, "cpu", lattice="D2Q9",
                     steps=1)
    with pytest.raises(TypeError, match="array must be a NumPy array"):
        lbm.simulate({**CHANNEL, "body": [{"shape": "mask", "array": [[1]]}]}, "cpu", lattice="D2Q9", steps=1)


def test_simulate_trt_magic_is_used_or_refused():
    for bad in (0, -0.1, float("nan")):
        with pytest.raises(ValueError, match="trt_magic"):
            lbm.simulate(CHANNEL, "cpu", lattice="D2Q9", collision="trt", trt_magic=bad, steps=1)
    with pytest.raises(tessera.UsageError, match="the run's collision is BGK"):
        lbm.simulate(CHANNEL, "cpu", lattice="D2Q9", collision="bgk", trt_magic=0.1, steps=1)
    _, s = lbm.simulate(CHANNEL, "cpu", lattice="D2Q9", collision="trt", trt_magic=0.01, steps=1)
    assert s["units"]["trt_magic"] == 0.01
