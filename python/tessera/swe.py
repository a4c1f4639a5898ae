"""The physical shallow-water model: conservative SWE with bathymetry and
Manning friction, HLL fluxes with hydrostatic reconstruction, first order or
MUSCL + RK2, CFL time step on the device."""
import numpy as np

from . import _tessera as _ext

__all__ = ["run", "cases"]

cases = _ext.swe.cases


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
        case = {k: (np.ascontiguousarray(v, dtype=np.float64) if k in ("h", "z", "hu", "hv") else v)
                for k, v in case.items()}
    return _ext.swe._run(device, case, int(nx), int(ny), float(t_end), order, float(cfl), float(manning),
                         precision, int(check_every))
