"""Lattice Boltzmann (D2Q9, D3Q19, D3Q27; BGK or TRT; FP32, FP16S or FP64
storage) on the cases of `tessera lbm`, in lattice units."""
from . import _tessera as _ext

__all__ = ["run"]


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
