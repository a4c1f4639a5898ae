"""The physical shallow-water model: conservative SWE with bathymetry and
Manning friction, HLL fluxes with hydrostatic reconstruction, first order or
MUSCL + RK2, CFL time step on the device."""
import numpy as np

from . import _tessera as _ext

__all__ = ["run", "cases"]

cases = _ext.swe.cases


_ARRAYS = ("h", "z", "hu", "hv")
_NUMBERS = ("dx", "dy", "g", "t_end", "x0", "y0", "z_nodata")


def _array2d(k, v):
    """case[k] as a 2D float64 array (ny, nx), or a TypeError naming k."""
    try:
        a = np.ascontiguousarray(v, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise TypeError(f"swe.run: case[{k!r}] must be a 2D array of numbers: {e}") from None
    if a.ndim != 2:
        raise TypeError(f"swe.run: case[{k!r}] must be 2D (ny, nx), got shape {a.shape}")
    return a


def _checked_case(case):
    """The dict case with its arrays as float64, every key known and every
    value of the right type: a typo is a ValueError, a wrong type a TypeError
    (not ignored, not a C++ cast error)."""
    known = _ARRAYS + _NUMBERS + ("bc", "name", "manning")
    out = {}
    for k, v in case.items():
        if k not in known:
            raise ValueError(f"swe.run: unknown key {k!r} in the case dict (keys: {', '.join(known)})")
        if k in _ARRAYS:
            out[k] = _array2d(k, v)
        elif k in _NUMBERS:
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise TypeError(f"swe.run: case[{k!r}] must be a number, got {type(v).__name__}")
            out[k] = float(v)
        elif k == "manning":  # a number, or a map of h's shape
            if isinstance(v, bool):
                raise TypeError("swe.run: case['manning'] must be a number or a 2D array")
            out[k] = float(v) if isinstance(v, (int, float, np.integer, np.floating)) else _array2d(k, v)
        elif k == "name":
            if not isinstance(v, str):
                raise TypeError(f"swe.run: case['name'] must be a string, got {type(v).__name__}")
            out[k] = v
        else:  # bc
            if not isinstance(v, (list, tuple)) or not all(isinstance(b, str) for b in v):
                raise TypeError("swe.run: case['bc'] must be a list of four strings "
                                "(x_lo, x_hi, y_lo, y_hi)")
            out[k] = list(v)
    return out


def _series(v, what):
    """A (time, value) series: a CSV path, or an (n, 2) array of rows."""
    if isinstance(v, str):
        return v
    try:
        a = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise TypeError(f"swe.run: {what} must be a CSV path or an (n, 2) array of (time, value): {e}") from None
    if a.ndim != 2 or a.shape[1] != 2:
        raise TypeError(f"swe.run: {what} must be an (n, 2) array of (time, value), got shape {a.shape}")
    return (a[:, 0].tolist(), a[:, 1].tolist())


def _named_specs(arg, what, form, n):
    """{name: n numbers} as the command line's NAME:V1:...:Vn strings (gauges,
    sections); anything else is a TypeError naming the argument."""
    if arg is None:
        return []
    bad = TypeError(f"swe.run: {what} must be a dict {{name: {form}}}")
    if not isinstance(arg, dict):
        raise bad
    specs = []
    for name, values in arg.items():
        try:
            numbers = [float(v) for v in values]
        except (TypeError, ValueError):
            raise bad from None
        if not isinstance(name, str) or len(numbers) != n:
            raise bad
        specs.append(":".join([name] + [repr(v) for v in numbers]))
    return specs


def run(case="thesis-dam", device=None, *, nx=0, ny=0, t_end=-1.0, order="first", cfl=0.45, manning=-1.0,
        precision="double", check_every=16, rain=None, losses="none", inflows=(), sources=(),
        bc_segments=(), series_every=0.0, gauges=None, max_maps=False, arrival_depth=0.01,
        every=0.0, callback=None, rain_grid=None, sections=None):
    """Runs a case to ``t_end``; returns ``(fields, summary)``.

    ``case``: a built-in name (``tessera.swe.cases()``; ``nx``/``ny`` 0 take
    its default size, ``t_end`` < 0 its end time) or a dict with arrays of
    shape (ny, nx) (C order, index [j, i], x fastest, as every tessera module
    takes and returns fields): ``h`` (required), ``z``, ``hu``, ``hv``,
    ``manning`` (a number or a map), and ``dx``, ``dy``, ``x0``, ``y0`` (the
    lower-left corner), ``g``, ``t_end``, ``z_nodata`` (cells with z at or
    above it are high ground: no rain), ``bc`` (four of wall, transmissive,
    normal-depth, periodic, level:V, discharge:Q for x_lo, x_hi, y_lo, y_hi).

    Sources and outputs, as ``tessera swe``'s options (docs/swe.md):
    ``rain`` (a CSV path or an (n, 2) array of time s, intensity mm/h, each
    row held to the next), ``rain_grid`` (a CSV of time s, raster path, or
    a list of (time, (ny, nx) array of mm/h), each frame held to the next),
    ``losses`` ("none", "constant:MM_H",
    "green-ampt:KS,PSI,DTHETA"), ``inflows`` (a list of (side, series): side
    "x-lo" or "x-lo:FROM:TO" in world coordinates, series of time s,
    discharge m3/s, linear), ``sources`` (a list of (x, y, series)),
    ``bc_segments`` (strings "SIDE:FROM:TO:KIND"), ``series_every`` (s) with
    ``gauges`` ({name: (x, y)}): ``summary["series"]`` holds the columns as
    NumPy arrays (time_s, NAME_depth_m, NAME_level_m, NAME_u_m_s,
    NAME_v_m_s, per section NAME_volume_m3 and NAME_discharge_m3_s, per
    open side SIDE_outflow_m3, SIDE_outflow_m3_s); ``sections`` ({name:
    (x0, y0, x1, y1)}): cross-section lines, the water that crossed from
    the line's left to its right (walking from (x0, y0) to (x1, y1)) and the
    mean discharge since the previous row, from the update's face fluxes;
    ``max_maps``: fields gain max_depth, max_speed, time_of_max_depth,
    arrival_time (< 0: never; ``arrival_depth`` m); ``every`` (s):
    ``callback(t, fields)`` between advances, or ``summary["snapshots"]``, a
    list of (t, fields).

    ``fields``: h, hu, hv, z as float64 arrays (ny, nx). ``summary``: steps,
    time, dt, bad (and bad_step, bad_cell: the (y, x) index of the first bad
    cell), mass_start, mass_end, mass_balance (the volumes: stored, rain,
    inflow, infiltrated, through each side, residual), device.
    """
    if isinstance(case, dict):
        case = _checked_case(case)
    if callback is not None and not callable(callback):
        raise TypeError("swe.run: callback must be callable as callback(t, fields)")
    gauge_specs = _named_specs(gauges, "gauges", "(x, y)", 2)
    section_specs = _named_specs(sections, "sections", "(x0, y0, x1, y1)", 4)
    inflow_list = [(str(side), _series(ser, f"inflow {side!r}")) for side, ser in inflows]
    source_list = [(float(x), float(y), _series(ser, f"source ({x}, {y})")) for x, y, ser in sources]
    return _ext.swe._run(device, case, int(nx), int(ny), float(t_end), order, float(cfl), float(manning),
                         precision, int(check_every), None if rain is None else _series(rain, "rain"),
                         str(losses), inflow_list, source_list, [str(b) for b in bc_segments],
                         float(series_every), gauge_specs, bool(max_maps), float(arrival_depth),
                         float(every), callback,
                         rain_grid if rain_grid is None or isinstance(rain_grid, str)
                         else [(float(t), np.ascontiguousarray(a, dtype=np.float64)) for t, a in rain_grid],
                         section_specs)
