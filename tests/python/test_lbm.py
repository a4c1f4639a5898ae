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
