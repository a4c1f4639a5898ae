// What a demo section produces (the console line, the page's pictures and
// tables) and what it is given (the device, sizes, the measured copy
// bandwidth that roofline fractions are taken against).
#pragma once
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/device.hpp"

namespace tessera::demo {

/// Problem sizes: quick (--quick: two CPU cores in about two minutes),
/// medium (a CPU without --quick: a laptop in under ten minutes), full (a
/// GPU: the original studies' sizes, about two minutes on one H200).
enum class Scale { quick, medium, full };
std::string to_string(Scale s);

struct Context {
  std::shared_ptr<Device> device;
  Scale scale = Scale::full;
  bool quick() const { return scale == Scale::quick; }
  /// The value for the run's scale.
  template <class T>
  T pick(T quick_value, T medium_value, T full_value) const {
    return scale == Scale::quick ? quick_value : scale == Scale::medium ? medium_value : full_value;
  }
  std::filesystem::path out;  ///< the demo's folder; sections write PNGs here
  double copy_gbps = 0;       ///< device-to-device copy, measured once (0: unknown)
};

struct Figure {
  std::string file;  ///< PNG file name inside Context::out
  std::string caption;
};

/// Today (this run) against the original study.
struct Table {
  std::string caption;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

struct SectionResult {
  std::string id;  ///< mg, swe, dense, krylov, lbm
  std::string title;
  std::string summary;  ///< the one-line result
  std::string check;    ///< what was checked, with the measured value and the tolerance
  bool correct = false;
  std::vector<Figure> figures;
  std::vector<std::string> commands;  ///< the same runs with the command-line tools
  std::vector<Table> tables;
};

/// An empty result with its id and title: how every section starts.
SectionResult section(std::string id, std::string title);
/// Fraction of the copy bandwidth as "NN% of copy", or "-" without one.
std::string roofline(const Context& c, double bytes, double seconds);
/// "12.3 ms", "4.56 s".
std::string duration(double seconds);

SectionResult run_mg(const Context& c);
SectionResult run_swe(const Context& c);
SectionResult run_dense(const Context& c);
SectionResult run_krylov(const Context& c);
SectionResult run_lbm(const Context& c);

}  // namespace tessera::demo
