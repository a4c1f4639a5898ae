// Cross-section discharge lines (`--section NAME:X0:Y0:X1:Y1`): the water
// that crosses a straight line, tallied every step from the update's own
// face fluxes, so that the volume between two sections changes by exactly
// the difference of their tallies (and the sources between them).
//
// The line is represented by cell faces: those between a cell whose centre
// lies on the line's left and one whose centre lies on its right (walking
// from (X0, Y0) to (X1, Y1)), whose midpoints project onto the segment.
// They form the staircase that separates the two sides. Positive is the
// water that crosses from the left to the right: a line drawn from south
// to north counts eastward flow positive.
#pragma once
#include <string>
#include <vector>

namespace tessera::swe {

/// One face of a section: between interior cells (i, j) and (i + 1, j)
/// (`y` false: an x-face, the normal momentum hu) or (i, j) and (i, j + 1)
/// (`y` true), i along x; `sign` +1 when (i, j) lies on the line's left.
struct SectionFace {
  long i = 0, j = 0;
  bool y = false;
  int sign = 1;
};

struct Section {
  std::string name;
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  std::vector<SectionFace> faces;
};

/// The grid a section is drawn on (PhysCase's geometry).
struct SectionGrid {
  long nx = 0, ny = 0;
  double dx = 1, dy = 1, x0 = 0, y0 = 0;
};

/// `NAME:X0:Y0:X1:Y1` in world coordinates; UsageError naming the option for
/// a bad name or number, a line of zero length, an end off the grid, or a
/// line that crosses no face.
Section parse_section(const std::string& spec, const SectionGrid& g);

/// The volume [m^3] that crossed each section, from the per-face tallies
/// `acc` (face order: the sections' faces one section after another; each
/// the mass flux times dt summed, per unit face length) with the faces'
/// lengths dy (x-faces) and dx (y-faces); summed in face order.
std::vector<double> section_volumes(const std::vector<Section>& sections,
                                    const std::vector<double>& acc, double dx, double dy);

/// The number of faces of all sections.
std::size_t section_faces(const std::vector<Section>& sections);

}  // namespace tessera::swe
