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


def _basin(nx=12, ny=10, depth=0.0):
    return {"h": np.full((ny, nx), depth), "z": np.zeros((ny, nx)), "dx": 2.0, "dy": 3.0,
            "x0": 100.0, "y0": 50.0, "t_end": 300.0}


def test_rain_fills_a_basin_and_the_balance_closes(device):
    # 36 mm/h for 100 s then 72 mm/h for 100 s: 3 mm everywhere, nothing moves
    rain = np.array([[0, 36], [100, 72], [200, 0], [400, 0]])
    fields, s = swe.run(_basin(), device, rain=rain)
    np.testing.assert_allclose(fields["h"], 3e-3, rtol=1e-12)
    b = s["mass_balance"]
    assert b["rain_m3"] == pytest.approx(3e-3 * 12 * 10 * 6, rel=1e-12)
    assert abs(b["residual_m3"]) < 1e-13 * b["rain_m3"]


def test_inflow_gauges_and_series_are_numpy(tmp_path):
    q = tmp_path / "q.csv"
    q.write_text("time,q\n0,0\n60,4\n100,1\n")
    case = _basin(depth=0.2)
    case["t_end"] = 80.0
    case["bc"] = ["wall", "normal-depth", "wall", "wall"]
    fields, s = swe.run(case, "cpu", order="second", inflows=[("x-lo:56:70", str(q))],
                        sources=[(118.0, 60.0, [[0, 0.5], [100, 0.5]])], series_every=10.0,
                        gauges={"mid": (112.0, 65.0)}, max_maps=True)
    ser = s["series"]
    assert isinstance(ser["time_s"], np.ndarray)
    np.testing.assert_array_equal(ser["time_s"], np.arange(0.0, 81.0, 10.0))
    assert set(ser) >= {"mid_depth_m", "mid_level_m", "mid_u_m_s", "mid_v_m_s",
                        "x-hi_outflow_m3", "x-hi_outflow_m3_s"}
    assert ser["mid_depth_m"][-1] > 0.2  # the basin filled
    b = s["mass_balance"]
    assert b["inflow_m3"] == pytest.approx(120 + 65 + 40, rel=1e-12)  # trapezoids by hand
    assert abs(b["residual_m3"]) < 1e-12 * b["stored_end_m3"]
    assert fields["max_depth"].shape == (10, 12)
    assert (fields["max_depth"] >= fields["h"]).all()


def test_sections_tally_what_crosses_them():
    # a dam break in a closed basin [100, 124] x [50, 80]: deep water west of
    # x = 108; the line x = 110 drawn north counts eastward flow positive, the
    # same line drawn south negates it, and the water east of it grew by the
    # tally
    case = _basin(depth=0.1)
    case["h"][:, :4] = 0.5
    case["t_end"] = 6.0
    fields, s = swe.run(case, "cpu", series_every=2.0,
                        sections={"east": (110.0, 50.0, 110.0, 80.0),
                                  "west": (110.0, 80.0, 110.0, 50.0)})
    ser = s["series"]
    np.testing.assert_array_equal(ser["time_s"], [0.0, 2.0, 4.0, 6.0])
    east = ser["east_volume_m3"]
    assert east[0] == 0 and east[-1] > 1.0
    np.testing.assert_array_equal(ser["west_volume_m3"], -east)
    gained = (fields["h"][:, 5:].sum() - case["h"][:, 5:].sum()) * 2.0 * 3.0
    assert east[-1] == pytest.approx(gained, rel=1e-12)
    np.testing.assert_allclose(ser["east_discharge_m3_s"][1:], np.diff(east) / 2.0, rtol=1e-12)
    with pytest.raises(TypeError, match="sections must be a dict"):
        swe.run(case, "cpu", series_every=2.0, sections=[(110.0, 50.0, 110.0, 80.0)])
    with pytest.raises(TypeError, match="gauges must be a dict"):
        swe.run(case, "cpu", series_every=2.0, gauges={"g": ("a", 60.0)})
    with pytest.raises(ValueError, match="lies outside the grid"):
        swe.run(case, "cpu", series_every=2.0, sections={"far": (110.0, 50.0, 110.0, 90.0)})


def test_snapshots_and_callback():
    seen = []
    _, s = swe.run("radial-dam", "cpu", nx=24, ny=24, t_end=0.4, every=0.1,
                   callback=lambda t, f: seen.append((t, f["h"].shape)))
    assert [round(t, 6) for t, _ in seen] == [0.1, 0.2, 0.3]
    assert seen[0][1] == (24, 24) and "snapshots" not in s
    _, s = swe.run("radial-dam", "cpu", nx=24, ny=24, t_end=0.4, every=0.2)
    assert [round(t, 6) for t, _ in s["snapshots"]] == [0.2]


def test_forcing_arguments_are_checked():
    with pytest.raises(TypeError, match=r"\(n, 2\) array"):
        swe.run(_basin(), "cpu", rain=[1, 2, 3])
    with pytest.raises(tessera.UsageError, match="times must increase"):
        swe.run(_basin(), "cpu", rain=[[0, 1], [0, 2]])
    with pytest.raises(tessera.UsageError, match="ends at t = 100"):
        swe.run(_basin(), "cpu", rain=[[0, 1], [100, 2]])  # the run lasts 300 s
    with pytest.raises(tessera.UsageError, match="--losses sponge"):
        swe.run(_basin(), "cpu", losses="sponge")
    with pytest.raises(tessera.UsageError, match="reaches beyond side x-lo, which runs from 50 to 80"):
        swe.run(_basin(), "cpu", inflows=[("x-lo:0:10", [[0, 1], [400, 1]])])
    with pytest.raises(TypeError, match="callable"):
        swe.run(_basin(), "cpu", every=10.0, callback=3)
    with pytest.raises(tessera.UsageError, match="finite and >= 0"):
        swe.run(_basin(), "cpu", every=float("nan"))
    with pytest.raises(tessera.UsageError, match="10\\^7 snapshots"):
        swe.run(_basin(), "cpu", every=1e-6)
    with pytest.raises(tessera.UsageError, match="10\\^7 rows"):
        swe.run(_basin(), "cpu", series_every=1e-6)
    with pytest.raises(tessera.UsageError, match="--gauge needs --series-every"):
        swe.run(_basin(), "cpu", gauges={"g": (110.0, 60.0)})


def test_rain_grid_frames_equal_uniform_rain():
    uniform = np.full((10, 12), 36.0)
    _, a = swe.run(_basin(), "cpu", rain=[[0, 36], [100, 0], [400, 0]])
    fields, b = swe.run(_basin(), "cpu", rain_grid=[(0.0, uniform), (100.0, 0 * uniform), (400.0, 0 * uniform)])
    assert b["mass_balance"]["rain_m3"] == pytest.approx(a["mass_balance"]["rain_m3"], rel=1e-12)
    np.testing.assert_allclose(fields["h"], 1e-3, rtol=1e-12)
    with pytest.raises(tessera.UsageError, match="not both"):
        swe.run(_basin(), "cpu", rain=[[0, 1], [400, 1]], rain_grid=[(0.0, uniform), (400.0, uniform)])
