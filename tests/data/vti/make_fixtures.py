#!/usr/bin/env python3
"""Writes the .vti fixtures of tests/io/test_vti_read.cpp with VTK itself
(pip install vtk numpy): one image of 5 x 4 x 3 cells (cell data) or points
(point data), arrays 'solid' (UInt8, 1 where (x + 2y + 3z) % 4 == 0) and
'value' (Float64 x + 10 y + 100 z + 0.25, and Float32 'velocity' with
3 components (x, y, z)), in each of VTK's layouts. The test computes the
expected values from the same formulas, not from these files."""
import os
import numpy as np
import vtk
from vtk.util import numpy_support as ns

here = os.path.dirname(os.path.abspath(__file__))
nx, ny, nz = 5, 4, 3


def image(cell):
    im = vtk.vtkImageData()
    if cell:
        im.SetDimensions(nx + 1, ny + 1, nz + 1)
    else:
        im.SetDimensions(nx, ny, nz)
    im.SetSpacing(0.5, 0.5, 0.5)
    z, y, x = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    solid = ((x + 2 * y + 3 * z) % 4 == 0).astype(np.uint8).ravel()
    value = (x + 10 * y + 100 * z + 0.25).astype(np.float64).ravel()
    vel = np.stack([x, y, z], axis=-1).reshape(-1, 3).astype(np.float32)
    data = im.GetCellData() if cell else im.GetPointData()
    for name, a in (("solid", solid), ("value", value), ("velocity", vel)):
        v = ns.numpy_to_vtk(a, deep=True)
        v.SetName(name)
        data.AddArray(v)
    return im


def write(name, cell=True, mode="appended", encode=True, compress=True, header64=True):
    w = vtk.vtkXMLImageDataWriter()
    w.SetFileName(os.path.join(here, name))
    w.SetInputData(image(cell))
    {"ascii": w.SetDataModeToAscii, "binary": w.SetDataModeToBinary,
     "appended": w.SetDataModeToAppended}[mode]()
    w.SetEncodeAppendedData(1 if encode else 0)
    if compress:
        w.SetCompressorTypeToZLib()
        w.SetBlockSize(64)  # several blocks even for these small arrays
    else:
        w.SetCompressorTypeToNone()
    w.SetHeaderTypeToUInt64() if header64 else w.SetHeaderTypeToUInt32()
    assert w.Write() == 1


write("cells_ascii.vti", mode="ascii", compress=False)
write("cells_binary_zlib.vti", mode="binary")
write("cells_binary_u32.vti", mode="binary", compress=False, header64=False)
write("cells_appended_base64_zlib.vti")
write("cells_appended_raw.vti", encode=False, compress=False)
write("cells_appended_raw_zlib_u32.vti", encode=False, header64=False)
write("points_appended_base64.vti", cell=False, compress=False)
