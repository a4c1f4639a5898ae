import numpy as np
import pytest

import tessera
from tessera import swe


def test_builtin_cases_listed():
    assert {"thesis-dam", "lake-at-rest", "thacker"} <= set(swe.cases())


@pytest.mark.parametrize("precision", ["double", "float"])
def test_dam_break_conserves_mass_with_walls(device, precision):
    fields, s = swe.run("thesis-dam", device, nx=40, ny=30, t_end=0.5, precision=precision)
    assert fields["h"].shape == (30, 40)  # (ny, nx): C order, x fastest
    assert not s["bad"] and s["steps"] > 0 and s["time"] == pytest.approx(0.5)
    # closed basin: the mass stays (to rounding), and the water moved
    tol = 1e-12 if precision == "double" else 1e-5
    assert abs(s["mass_end"] - s["mass_start"]) <= tol * s["mass_start"]
    assert fields["h"].sum() * s["dx"] * s["dy"] == pytest.approx(s["mass_end"], rel=1e-6)
    assert np.abs(fields["hu"]).max() > 0


def test_lake_at_rest_stays_at_rest():
    fields, s = swe.run("lake-at-rest", "cpu", nx=32, ny=32, t_end=1.0)
    level = fields["h"] + fields["z"]
    wet = fields["h"] > 1e-6
    assert np.ptp(level[wet]) < 1e-10
    assert np.abs(fields["hu"]).max() < 1e-10 and np.abs(fields["hv"]).max() < 1e-10


def test_user_arrays_periodic_mass_and_symmetry():
    nx, ny = 24, 20
    x = (np.arange(nx) + 0.5) / nx
    h = np.ones((ny, nx)) + 0.2 * np.exp(-((x[None, :] - 0.5) ** 2) / 0.01)
    case = {"h": h, "dx": 1.0 / nx, "dy": 1.0 / ny, "t_end": 0.05,
            "bc": ["periodic", "periodic", "wall", "wall"]}
    fields, s = swe.run(case, "cpu")
    assert s["mass_end"] == pytest.approx(h.sum() / (nx * ny), rel=1e-12)
    # a hump constant in y stays constant in y, and mirror-symmetric in x
    np.testing.assert_allclose(fields["h"], np.broadcast_to(fields["h"][:1, :], (ny, nx)), rtol=0, atol=1e-13)
    np.testing.assert_allclose(fields["h"], fields["h"][:, ::-1], rtol=0, atol=1e-12)
    # and the hump moved along x only: no momentum across y
    assert np.abs(fields["hv"]).max() < 1e-13 < np.abs(fields["hu"]).max()


def test_swe_errors():
    with pytest.raises(tessera.UsageError, match="nope"):
        swe.run("nope", "cpu")
    with pytest.raises(tessera.UsageError, match="shape"):
        swe.run({"h": np.ones((4, 5)), "z": np.ones((5, 4))}, "cpu")  # z transposed
    with pytest.raises(tessera.Error):
        swe.run({"h": -np.ones((4, 4))}, "cpu")


def test_dict_case_typos_and_types_are_refused():
    h = np.ones((4, 5))
    with pytest.raises(ValueError, match="unknown key 'manning_n'"):
        swe.run({"h": h, "manning_n": 0.03}, "cpu")
    with pytest.raises(TypeError, match=r"case\['dx'\] must be a number, got str"):
        swe.run({"h": h, "dx": "1"}, "cpu")
    with pytest.raises(TypeError, match=r"case\['t_end'\] must be a number, got bool"):
        swe.run({"h": h, "t_end": True}, "cpu")
    with pytest.raises(TypeError, match=r"case\['bc'\] must be a list of four strings"):
        swe.run({"h": h, "bc": "wall"}, "cpu")
    with pytest.raises(TypeError, match=r"case\['z'\] must be 2D"):
        swe.run({"h": h, "z": np.ones(20)}, "cpu")
    with pytest.raises(TypeError, match=r"case\['h'\] must be a 2D array of numbers"):
        swe.run({"h": [["a", "b"]]}, "cpu")
    # the good form still runs
    fields, s = swe.run({"h": h, "dx": 1.0, "dy": 2.0, "t_end": 0.01, "bc": ["wall"] * 4, "name": "pond"}, "cpu")
    assert fields["h"].shape == (4, 5)
