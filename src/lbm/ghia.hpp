// Ghia, Ghia & Shin (J. Comput. Phys. 48, 1982), Table I: u on the vertical
// centre line of the lid-driven cavity (values as in anchors-lbm-stencil.md §5).
#pragma once
#include <array>

namespace tessera::lbm {

inline constexpr std::array<double, 17> kGhiaY = {1.0,    0.9766, 0.9688, 0.9609, 0.9531, 0.8516,
                                                  0.7344, 0.6172, 0.5,    0.4531, 0.2813, 0.1719,
                                                  0.1016, 0.0703, 0.0625, 0.0547, 0.0};
inline constexpr std::array<double, 17> kGhiaU100 = {
    1.0,      0.84123,  0.78871,  0.73722,  0.68717,  0.23151,  0.00332,  -0.13641, -0.20581,
    -0.21090, -0.15662, -0.10150, -0.06434, -0.04775, -0.04192, -0.03717, 0.0};
inline constexpr std::array<double, 17> kGhiaU1000 = {
    1.0,      0.65928,  0.57492,  0.51117,  0.46604,  0.33304,  0.18719,  0.05702, -0.06080,
    -0.10648, -0.27805, -0.38289, -0.29730, -0.22220, -0.20196, -0.18109, 0.0};

}  // namespace tessera::lbm
