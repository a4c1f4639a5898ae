"""Lattice Boltzmann (D2Q9, D3Q19, D3Q27; BGK or TRT; FP32, FP16S or FP64
storage): the built-in cases of `tessera lbm` (``run``) and a case of the
user's own, described as the tables of a `tessera lbm --config` case file
(``simulate``)."""
import numpy as np

from . import _tessera as _ext

__all__ = ["run", "simulate"]

_TABLES = ("domain", "units", "flow", "boundary", "run")
_LISTS = ("body", "probe")


def _text(where, v):
    """A scalar as the case file's command-line text (bool before int: True is an int)."""
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    if isinstance(v, str):
        return v
    raise TypeError(f"lbm.simulate: {where}: expected a number, string or bool, got {type(v).__name__}")


def _rows(case):
    if not isinstance(case, dict):
        raise TypeError(f"lbm.simulate: case must be a dict of tables, got {type(case).__name__}")
    rows = []

    def table(name, index, d):
        where = name if index < 0 else f"{name}[{index}]"
        if not isinstance(d, dict):
            raise TypeError(f"lbm.simulate: {where} must be a dict, got {type(d).__name__}")
        for k, v in d.items():
            if not isinstance(k, str):
                raise TypeError(f"lbm.simulate: {where}: keys are strings, got {k!r}")
            key = k.replace("_", "-")
            if isinstance(v, (list, tuple, np.ndarray)):
                items = [_text(f"{where}.{k}", x) for x in np.asarray(v, dtype=object).ravel()] \
                    if not isinstance(v, np.ndarray) or v.ndim == 1 else None
                if items is None or any(isinstance(x, (list, tuple, dict)) for x in v):
                    raise TypeError(f"lbm.simulate: {where}.{k}: a flat list of numbers")
                rows.append((name, index, key, "", items, True))
            else:
                rows.append((name, index, key, _text(f"{where}.{k}", v), [], False))

    for name, value in case.items():
        if name in _TABLES:
            table(name, -1, value)
        elif name in _LISTS:
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"lbm.simulate: '{name}' is a list of dicts (one per {name}), "
                                f"got {type(value).__name__}")
            for i, d in enumerate(value):
                table(name, i, d)
        else:
            raise ValueError(f"lbm.simulate: unknown table '{name}' (tables: "
                             f"{', '.join(_TABLES + _LISTS)})")
    return rows


def _masks_to_files(case, folder):
    """A body {"shape": "mask", "array": A}: A (shape (nz, ny, nx), or (ny, nx)
    in 2D; nonzero = solid) goes through the same .npy reader as a file."""
    import os
    bodies = case.get("body")
    if not isinstance(bodies, (list, tuple)):
        return case
    out = dict(case)
    out["body"] = []
    for i, b in enumerate(bodies):
        if isinstance(b, dict) and "array" in b:
            if "file" in b:
                raise ValueError(f"lbm.simulate: body[{i}]: give 'array' or 'file', not both")
            a = b["array"]
            if not isinstance(a, np.ndarray):
                raise TypeError(f"lbm.simulate: body[{i}].array must be a NumPy array, got {type(a).__name__}")
            if a.dtype.kind not in "biuf":
                raise TypeError(f"lbm.simulate: body[{i}].array: a bool, integer or float array, got {a.dtype}")
            path = os.path.join(folder, f"body{i}.npy")
            np.save(path, np.ascontiguousarray(a.astype(np.uint8) if a.dtype.kind == "b" else a))
            b = {k: v for k, v in b.items() if k != "array"}
            b["file"] = path
        out["body"].append(b)
    return out


def simulate(case, device=None, *, lattice="D3Q19", collision="bgk", precision="fp32", trt_magic=None,
             steps=None, every=None):
    """Runs a case described as a dict of the case-file tables of
    `tessera lbm --config` (docs/lbm.md, "Case files"): ``domain``, ``units``,
    ``flow``, ``boundary``, ``run`` (dicts), ``body`` and ``probe`` (lists of
    dicts); keys with ``_`` or ``-``. The same checks as the command: an
    unknown table or key, a missing one, an unstable setting raise
    ``ValueError``; a value of the wrong type ``TypeError``.

    A body may be a NumPy array: ``{"shape": "mask", "array": A}`` with A
    of the domain's shape (nz, ny, nx) ((ny, nx) in 2D), nonzero = solid.

    ``steps``/``every`` (steps) override the ``run`` table's time and output
    interval. Returns ``(fields, summary)``: fields as in ``run``; the
    summary's ``series`` holds, per body, ``step``, ``force`` (n x 3), ``cd``
    and ``cl``, and per probe ``step`` and ``ux_uy_uz_rho`` (n x 4), as
    NumPy arrays, sampled every ``every`` steps and at the end; ``units``
    the conversion.
    """
    for name, v in (("steps", steps), ("every", every)):
        if v is not None and (not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 0):
            raise TypeError(f"lbm.simulate: {name} must be an int >= 0, got {v!r}")
    if trt_magic is not None and (isinstance(trt_magic, bool) or not isinstance(trt_magic, (int, float))):
        raise TypeError(f"lbm.simulate: trt_magic must be a number, got {type(trt_magic).__name__}")
    if trt_magic is not None and not trt_magic > 0:  # 0 and NaN too: used or refused, never "not given"
        raise ValueError(f"lbm.simulate: trt_magic {trt_magic}: TRT's Lambda must be a finite number > 0")
    import tempfile
    with tempfile.TemporaryDirectory(prefix="tessera-lbm-") as folder:
        rows = _rows(_masks_to_files(case, folder))
        fields, summary = _ext.lbm._simulate(device, rows, lattice, collision, precision,
                                             0.0 if trt_magic is None else float(trt_magic), -1 if steps is None else int(steps),
                                             -1 if every is None else int(every))
    series = summary.get("series", {})
    for b in series.get("bodies", []):
        for k in ("step", "force", "cd", "cl"):
            b[k] = np.asarray(b[k], dtype=np.int64 if k == "step" else np.float64)
    for p in series.get("probes", []):
        p["step"] = np.asarray(p["step"], dtype=np.int64)
        p["ux_uy_uz_rho"] = np.asarray(p["ux_uy_uz_rho"], dtype=np.float64)
    return fields, summary


def run(case="cavity", device=None, *, size=(), lattice="D2Q9", collision="bgk", precision="fp32", steps=1000,
        re=100.0, u=0.1, tau=0.0, diameter=0.0):
    """Runs ``steps`` time steps; returns ``(fields, summary)``.

    ``case``: cavity (``size=(n,)`` fluid cells per side, ``re``, lid speed
    ``u``), poiseuille (``size=(nx, ny, nz)``, ``tau``, centre-line ``u``),
    tgv (Taylor-Green, ``tau``, ``u``), cylinder (``re``, inlet ``u``,
    ``diameter``). ``fields``: rho, ux, uy, uz as float64 arrays of shape
    (nz, ny, nx). ``summary``: steps, seconds (device time), mlups,
    mass_start, mass_end, tau and the case's validation figures.
    """
    return _ext.lbm._run(device, case, [int(s) for s in size], lattice, collision, precision, float(re), float(u),
                         float(tau), float(diameter), int(steps))
