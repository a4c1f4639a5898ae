"""The physical shallow-water model: conservative SWE with bathymetry and
Manning friction, HLL fluxes with hydrostatic reconstruction, first order or
MUSCL + RK2, CFL time step on the device."""
import numpy as np

from . import _tessera as _ext

__all__ = ["run", "cases"]

cases = _ext.swe.cases


_ARRAYS = ("h", "z", "hu", "hv")
_NUMBERS = ("dx", "dy", "manning", "g", "t_end")


def _checked_case(case):
    """The dict case with its arrays as float64, every key known and every
    value of the right type: a typo is a ValueError, a wrong type a TypeError
    (not ignored, not a C++ cast error)."""
    known = _ARRAYS + _NUMBERS + ("bc", "name")
    out = {}
    for k, v in case.items():
        if k not in known:
            raise ValueError(f"swe.run: unknown key {k!r} in the case dict (keys: {', '.join(known)})")
        if k in _ARRAYS:
            try:
                a = np.ascontiguousarray(v, dtype=np.float64)
            except (TypeError, ValueError) as e:
                raise TypeError(f"swe.run: case[{k!r}] must be a 2D array of numbers: {e}") from None
            if a.ndim != 2:
                raise TypeError(f"swe.run: case[{k!r}] must be 2D (ny, nx), got shape {a.shape}")
            out[k] = a
        elif k in _NUMBERS:
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise TypeError(f"swe.run: case[{k!r}] must be a number, got {type(v).__name__}")
            out[k] = float(v)
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


def run(case="thesis-dam", device=None, *, nx=0, ny=0, t_end=-1.0, order="first", cfl=0.45, manning=-1.0,
        precision="double", check_every=16):
    """Runs a case to ``t_end``; returns ``(fields, summary)``.

    ``case``: a built-in name (``tessera.swe.cases()``; ``nx``/``ny`` 0 take
    its default size, ``t_end`` < 0 its end time) or a dict with arrays of
    shape (ny, nx) (C order, index [j, i], x fastest, as every tessera module
    takes and returns fields): ``h`` (required), ``z``, ``hu``,
    ``hv``, and ``dx``, ``dy``, ``manning``, ``g``, ``t_end``, ``bc`` (four of
    wall, transmissive, periodic, level:V, discharge:Q for x_lo, x_hi, y_lo,
    y_hi).
    ``fields``: h, hu, hv, z as float64 arrays (ny, nx). ``summary``: steps,
    time, dt, bad (and bad_step, bad_cell: the (y, x) index of the first bad
    cell), mass_start, mass_end, device.
    """
    if isinstance(case, dict):
        case = _checked_case(case)
    return _ext.swe._run(device, case, int(nx), int(ny), float(t_end), order, float(cfl), float(manning),
                         precision, int(check_every))
