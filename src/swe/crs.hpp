// The linear unit of a grid's coordinate system, read from its WKT (OGC
// WKT1, ESRI WKT1 or WKT2, as .prj files and GDAL write them), so that a
// terrain in degrees or feet is refused instead of run as metres.
#pragma once
#include <string>

namespace tessera::swe {

struct CrsUnit {
  bool known = false;       ///< the WKT named a coordinate system this reader understands
  bool geographic = false;  ///< latitude/longitude (angular units)
  std::string crs;          ///< the coordinate system's name
  std::string unit;         ///< the linear unit's name (projected)
  double metres = 1;        ///< metres per unit (projected)
};

/// What the WKT says; known = false for an empty or unrecognised text.
CrsUnit crs_unit(const std::string& wkt);

/// Error naming `path` unless its coordinate system is unknown or projected
/// in metres: the cell sizes are taken as metres.
void require_metres(const std::string& path, const std::string& wkt);

}  // namespace tessera::swe
