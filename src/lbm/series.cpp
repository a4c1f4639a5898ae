#include "lbm/series.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace tessera::lbm {
namespace {

// The rows of an earlier run's CSV up to step `start` (its first column).
std::vector<std::string> rows_up_to(const std::filesystem::path& file, long start) {
  std::vector<std::string> rows;
  std::ifstream in(file);
  std::string line;
  if (!std::getline(in, line)) return rows;  // the header
  while (std::getline(in, line)) {
    long step = -1;
    if (std::sscanf(line.c_str(), "%ld,", &step) == 1 && step >= 0 && step <= start)
      rows.push_back(line);
  }
  return rows;
}

double dot(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

}  // namespace

double strouhal(const std::vector<long>& step, const std::vector<double>& value, double length,
                double speed) {
  const std::size_t n = std::min(step.size(), value.size()), first = n / 2;
  if (n - first < 4 || !(length > 0) || !(speed > 0)) return std::nan("");
  double mean = 0;
  for (std::size_t k = first; k < n; ++k) mean += value[k];
  mean /= double(n - first);
  std::vector<double> up;  // steps where the signal crosses its mean upwards (interpolated)
  for (std::size_t k = first + 1; k < n; ++k) {
    const double a = value[k - 1] - mean, b = value[k] - mean;
    if (a < 0 && b >= 0)
      up.push_back(double(step[k - 1]) + double(step[k] - step[k - 1]) * (-a) / (b - a));
  }
  if (up.size() < 3) return std::nan("");
  const double period = (up.back() - up.front()) / double(up.size() - 1);
  return length / (period * speed);
}

Series::Series(const Case& c, std::filesystem::path out, double seconds_per_step, long start)
    : c_(c),
      out_(std::move(out)),
      dt_(seconds_per_step),
      bodies_(c.bodies.size()),
      probes_(c.probes.size()) {
  if (!out_.empty() && start > 0) {
    if (!bodies_.empty()) force_rows_ = rows_up_to(out_ / "forces.csv", start);
    if (!probes_.empty()) probe_rows_ = rows_up_to(out_ / "probes.csv", start);
  }
}

void Series::sample(long step, const std::vector<std::array<double, 3>>& F, const Fields& f) {
  const double t = double(step) * dt_;
  if (!bodies_.empty()) {
    if (F.size() != bodies_.size())
      throw Error(fmt::format("lbm: {} forces for {} bodies", F.size(), bodies_.size()));
    // coefficients against rho = 1, the reference speed and each body's area
    const double q = 0.5 * c_.speed * c_.speed;
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const double area = c_.bodies[b].area;
      const double cd = area > 0 ? dot(F[b], c_.drag_dir) / (q * area) : 0.0;
      const double cl = area > 0 ? dot(F[b], c_.lift_dir) / (q * area) : 0.0;
      bodies_[b].step.push_back(step);
      bodies_[b].force.push_back(F[b]);
      bodies_[b].cd.push_back(cd);
      bodies_[b].cl.push_back(cl);
      force_rows_.push_back(fmt::format("{},{:.9g},{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}", step, t,
                                        c_.bodies[b].name, F[b][0], F[b][1], F[b][2], cd, cl));
    }
  }
  for (std::size_t p = 0; p < probes_.size(); ++p) {
    const auto n = std::size_t(c_.probes[p].cell);
    const std::array<double, 4> v{f.ux[n], f.uy[n], f.uz[n], f.rho[n]};
    probes_[p].step.push_back(step);
    probes_[p].value.push_back(v);
    probe_rows_.push_back(fmt::format("{},{:.9g},{},{:.9g},{:.9g},{:.9g},{:.9g}", step, t,
                                      c_.probes[p].name, v[0], v[1], v[2], v[3]));
  }
  write();
}

void Series::write() const {
  if (out_.empty()) return;
  auto csv = [](const std::string& header, const std::vector<std::string>& rows) {
    std::string s = header + "\n";
    for (const auto& r : rows) s += r + "\n";
    return s;
  };
  const char* time = dt_ == 1.0 ? "time (steps)" : "time (s)";
  if (!bodies_.empty())
    write_file_atomic(
        out_ / "forces.csv",
        csv(fmt::format("step,{},body,Fx,Fy,Fz (lattice units),Cd,Cl", time), force_rows_));
  if (!probes_.empty())
    write_file_atomic(
        out_ / "probes.csv",
        csv(fmt::format("step,{},probe,ux,uy,uz (lattice units),rho", time), probe_rows_));
}

nlohmann::json Series::to_json() const {
  nlohmann::json j;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const auto& s = bodies_[b];
    const double st = strouhal(s.step, s.cl, c_.bodies[b].length, c_.speed);
    j["bodies"].push_back(
        {{"name", c_.bodies[b].name},
         {"strouhal_from_lift", std::isfinite(st) ? nlohmann::json(st) : nlohmann::json()},
         {"reference_area_cells", c_.bodies[b].area},
         {"reference_length_cells", c_.bodies[b].length},
         {"drag_direction", c_.drag_dir},
         {"lift_direction", c_.lift_dir},
         {"step", s.step},
         {"force", s.force},
         {"cd", s.cd},
         {"cl", s.cl}});
  }
  for (std::size_t p = 0; p < probes_.size(); ++p) {
    const auto& s = probes_[p];
    nlohmann::json v = nlohmann::json::array();
    std::vector<double> uy;
    for (const auto& x : s.value) v.push_back(x), uy.push_back(x[1]);
    // the Strouhal number of the transverse velocity, against the first body's length
    const double st =
        c_.bodies.empty() ? std::nan("") : strouhal(s.step, uy, c_.bodies[0].length, c_.speed);
    j["probes"].push_back(
        {{"name", c_.probes[p].name},
         {"at", c_.probes[p].at},
         {"strouhal_from_uy", std::isfinite(st) ? nlohmann::json(st) : nlohmann::json()},
         {"step", s.step},
         {"ux_uy_uz_rho", v}});
  }
  return j;
}

}  // namespace tessera::lbm
