"""Skeletons on device fields: map, zip, fold and mapStencil.

The user function is either a built-in name (C++ functors that run on every
backend) or :class:`Source`, OpenCL C text around which the library generates
the kernel (OpenCL devices only). Arrays of 1-3 dimensions (float32 or
float64); a 3-D array is indexed [z, y, x].

Built-ins: map ``affine`` (2.5 v - 1), ``increment`` (v + 1); zip ``add``,
``max``, ``axpy`` (0.5 a + b); fold ``add``, ``max``; map_stencil ``jacobi5``
(2-D mean of the 4 neighbours, radius (1, 1, 0)), ``heat7`` (u + (sum of 6
neighbours - 6u)/8), ``blur27`` (3x3x3 mean).
"""
from dataclasses import dataclass

import numpy as np

from . import _tessera as _ext

__all__ = ["Source", "map", "zip", "fold", "map_stencil"]

_STENCIL_RADIUS = {"jacobi5": (1, 1, 0), "heat7": (1, 1, 1), "blur27": (1, 1, 1)}


@dataclass
class Source:
    """An OpenCL C function given as text: ``name`` is the function called per
    element (map: ``T f(T v)``, zip/fold: ``T f(T a, T b)``, map_stencil:
    ``TS_STENCIL_FN(name, s)`` reading ``TS_AT(s, dx, dy, dz)``); T is float or
    double as the array. Compiler messages name ``origin`` and the line."""
    source: str
    name: str
    origin: str = "user function"


def _arr(a):
    a = np.ascontiguousarray(a)
    if a.dtype not in (np.float32, np.float64):
        a = a.astype(np.float64)
    return a


def map(a, fn, device=None):  # noqa: A001 - Muesli's name
    """fn(v) on every element; returns a new array."""
    return _ext.skeleton._map(device, _arr(a), fn)


def zip(a, b, fn, device=None):  # noqa: A001
    """fn(a, b) element-wise; b is converted to a's dtype."""
    a = _arr(a)
    return _ext.skeleton._zip(device, a, np.ascontiguousarray(b, dtype=a.dtype), fn)


def fold(a, fn="add", device=None):
    """Reduces all elements with the associative fn (a float)."""
    return _ext.skeleton._fold(device, _arr(a), fn)


def map_stencil(a, fn, device=None, *, radius=None, boundary="neutral", neutral=0.0):
    """out = fn(neighbourhood) on every cell; reads outside the array follow
    ``boundary`` (neutral: the value ``neutral``; periodic; clamp; mirror).
    ``radius``: (x, y, z) cells read on each side (built-ins know theirs)."""
    if radius is None:
        radius = _STENCIL_RADIUS.get(fn, (1, 1, 1)) if isinstance(fn, str) else (1, 1, 1)
    elif isinstance(radius, int):
        radius = (radius, radius, radius)
    return _ext.skeleton._map_stencil(device, _arr(a), fn, [int(r) for r in radius], boundary, float(neutral))
