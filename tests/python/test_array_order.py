"""One array order in every module (docs/python.md): C order, z, y, x (2D:
y, x), x fastest. Each module is given or produces a field with a feature at
a known, asymmetric (x, y) place on a grid with nx != ny, and must put it at
field[y, x]."""
import numpy as np
import pytest

from tessera import lbm, mg, swe

NX, NY = 40, 24  # different, so a transposed field cannot pass


def test_swe_takes_and_returns_y_x():
    h = np.ones((NY, NX))
    h[5, 30] = 1.5  # x index 30, y index 5
    fields, s = swe.run({"h": h, "t_end": 0.0, "dx": 1.0, "dy": 1.0}, "cpu")
    assert fields["h"].shape == (NY, NX) and s["nx"] == NX and s["ny"] == NY
    np.testing.assert_array_equal(fields["h"], h)


def test_swe_flow_goes_along_x_for_a_step_along_x():
    # water high at small x: after a moment it flows towards +x (hu > 0) and
    # nothing moves across y; a transposed reading would see it along y
    h = np.where(np.arange(NX)[None, :] < NX // 2, 2.0, 1.0) * np.ones((NY, 1))
    fields, _ = swe.run({"h": h, "t_end": 0.5, "dx": 1.0, "dy": 1.0}, "cpu")
    assert fields["hu"].max() > 0.1 and np.abs(fields["hv"]).max() < 1e-12


def test_mg_point_source_stays_at_its_cell():
    b = np.zeros((NY, NX))
    b[7, 29] = 1.0
    x, info = mg.solve(b, "cpu", tol=1e-10)
    assert x.shape == (NY, NX)
    assert np.unravel_index(np.argmax(np.abs(x)), x.shape) == (7, 29)


def test_mg_npy_in_the_same_order(tmp_path):
    b = np.zeros((NY, NX))
    b[3, 33] = 1.0
    np.save(tmp_path / "b.npy", b)
    x, _ = mg.solve(np.load(tmp_path / "b.npy"), "cpu", tol=1e-10)
    assert np.unravel_index(np.argmax(np.abs(x)), x.shape) == (3, 33)


def test_lbm_channel_flows_along_x():
    # the cylinder case: inflow at x = 0, a channel along x between walls in y
    fields, _ = lbm.run("cylinder", "cpu", size=(NX, NY), steps=100, re=20)
    ux, uy = np.squeeze(fields["ux"]), np.squeeze(fields["uy"])
    assert ux.shape == (NY, NX)
    assert ux[1:-1, :].mean() > 5 * np.abs(uy).mean()  # the flow goes along x
    assert np.abs(ux[0, :]).max() < 1e-6 < ux[NY // 2, :].mean()  # no-slip wall rows at y = 0


def test_lbm_cavity_refuses_a_rectangle():
    import tessera
    with pytest.raises(tessera.UsageError, match="square"):
        lbm.run("cavity", "cpu", size=(NX, NY), steps=1)
