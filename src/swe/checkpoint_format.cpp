#include "swe/checkpoint_format.hpp"

#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/checkpoint_container.hpp"

namespace tessera::swe {

namespace {

constexpr std::string_view kMagic{"TSSWECK1", 8};
const std::string kWhat = "swe checkpoint";

template <class S>
constexpr bool is_physical =
    std::is_same_v<S, PhysSolverState<float>> || std::is_same_v<S, PhysSolverState<double>>;

/// {nx, ny} of either model's state.
template <class S>
std::array<long, 2> grid_of(const S& s) {
  if constexpr (is_physical<S>)
    return {s.nx, s.ny};
  else
    return {s.fields.grid.nx, s.fields.grid.ny};
}

template <class S>
constexpr std::size_t word_bytes() {
  if constexpr (is_physical<S>)
    return sizeof(S::dt);
  else
    return sizeof(S::k);
}

template <class T>
std::string_view bytes(const std::vector<T>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)};
}

template <class T>
std::vector<T> take(const char*& p, std::size_t n) {
  std::vector<T> v(n);
  if (n > 0) std::memcpy(v.data(), p, n * sizeof(T));  // an empty vector's data() may be null
  p += n * sizeof(T);
  return v;
}

nlohmann::json run_json(const RunProgress& r) {
  nlohmann::json series = nlohmann::json::array();
  for (const auto& [t, name] : r.series) series.push_back({t, name});
  nlohmann::json j = {{"outputs", r.outputs},
                      {"series", series},
                      {"last_output", r.last_output},
                      {"next_target", r.next_target},
                      {"mass_start", r.mass_start}};
  if (!r.samples.empty() || r.next_sample != 0) {
    j["samples"] = r.samples;
    j["next_sample"] = r.next_sample;
  }
  return j;
}

// The numbered outputs are counted in an int by the run (swe_NNNNNN files).
constexpr long kMaxOutputs = 2147483646;

// A .pvd entry's file: a plain name in the output folder (the .pvd is XML and
// lies next to it), as the run writes them ("swe_000012.vti").
bool plain_file_name(const std::string& f) {
  if (f.empty() || f.size() > 255 || f[0] == '.') return false;
  for (const char ch : f)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.' ||
          ch == '+'))
      return false;
  return true;
}

RunProgress parse_run(const nlohmann::json& r) {
  if (!r.is_object()) throw Error("'run' is not an object");
  RunProgress p;
  p.outputs = io::header_count(r.at("outputs"), "outputs", kMaxOutputs);
  const auto& s = r.at("series");
  if (!s.is_array()) throw Error("'series' is not an array");
  for (const auto& e : s) {
    if (!e.is_array() || e.size() != 2) throw Error("a 'series' entry is not [time, file]");
    p.series.emplace_back(io::header_finite(e[0], "series time"),
                          io::header_string(e[1], "series file"));
  }
  p.last_output = io::header_string(r.at("last_output"), "last_output");
  p.next_target = io::header_count(r.at("next_target"), "next_target");
  if (p.next_target < 1) throw Error("'next_target' is below 1");
  p.mass_start = io::header_finite(r.at("mass_start"), "mass_start");
  if (r.contains("samples") || r.contains("next_sample")) {
    const auto& rows = r.at("samples");
    if (!rows.is_array()) throw Error("'samples' is not an array");
    for (const auto& row : rows) {
      if (!row.is_array() || row.empty() ||
          (!p.samples.empty() && row.size() != p.samples[0].size()))
        throw Error("a 'samples' row is not an array of as many numbers as the first");
      std::vector<double> v;
      for (const auto& x : row) v.push_back(io::header_finite(x, "samples"));
      p.samples.push_back(std::move(v));
    }
    p.next_sample = io::header_count(r.at("next_sample"), "next_sample");
  }
  return p;
}

// The progress against the step count, the time and the schedule the config
// records: what the runs that wrote it (the first and its restarts; physical:
// run.cpp, thesis: run_thesis.cpp) can have done by step `steps` at time
// `time`. Every run segment takes a step at least, so there are at most
// steps + 1 of them. Outputs: the initial one (twice at most: a thesis
// checkpoint of step 0 restarts with it); with --every N one per health
// check (a check follows N counted steps, or ends an advance; thesis: at
// multiples of N); physical with --every-time T one at the end of each
// advance (advance k ends at k * T, or early at a segment's --t-end: at most
// time / T + 1 + segments of them); else one at the end of each segment.
// `next_target` is the number of --every-time advances done plus one.
void check_progress(const RunProgress& p, const nlohmann::json& config, bool physical, long steps,
                    double time) {
  auto number = [&](const char* key, double& v) {
    if (!config.contains(key) || !config[key].is_number()) return false;
    v = config[key].get<double>();
    return true;
  };
  double every = 1, every_time = 1;
  // a file without them (written by a test) is held to the loosest schedule
  const bool has_every = number("every", every), has_schedule = number("every-time", every_time);
  const double segments = double(steps) + 1;
  const bool scheduled = physical && every_time > 0;
  const double advances = !physical       ? 0
                          : !has_schedule ? double(steps) + 2 * segments
                          : scheduled ? std::floor(time / every_time * (1 + 1e-6)) + 1 + segments
                                      : segments;  // one advance to --t-end per segment
  const double checks = !(every > 0) ? 0
                        : physical ? std::floor(double(steps) / (has_every ? every : 1)) + advances
                                   : std::floor(double(steps) / every);
  const double ends = scheduled ? advances : 0;
  const double finals = (!has_every || !(every > 0)) && !scheduled ? segments : 0;
  const double max_outputs = 2 + checks + ends + finals;
  if (double(p.outputs) > max_outputs)
    throw Error(
        fmt::format("'outputs' = {} is more than runs write by step {} at t = {} (at most {:.0f})",
                    p.outputs, steps, time, max_outputs));
  if (long(p.series.size()) > p.outputs)
    throw Error(
        fmt::format("'series' lists {} files, 'outputs' counts {}", p.series.size(), p.outputs));
  double last = 0;
  for (std::size_t k = 0; k < p.series.size(); ++k) {
    const auto& [t, file] = p.series[k];
    if (!(t >= last) || !(t <= time))
      throw Error(
          fmt::format("'series' entry {} is at t = {}, outside {}..{} (the previous entry .. the "
                      "checkpoint's time)",
                      k, t, last, time));
    if (!plain_file_name(file))
      throw Error(fmt::format("'series' entry {} names '{}', not a file name in the output folder",
                              k, file));
    last = t;
  }
  const double scheduled_advances = scheduled ? advances : 0;
  if (double(p.next_target - 1) > scheduled_advances)
    throw Error(
        fmt::format("'next_target' = {} is more --every-time advances than runs do by t = {}{}",
                    p.next_target, time, scheduled ? "" : " without an --every-time schedule"));
}

}  // namespace

std::string SweCheckpoint::model() const {
  return std::visit(
      [](const auto& s) { return is_physical<std::decay_t<decltype(s)>> ? "physical" : "thesis"; },
      state);
}

std::string SweCheckpoint::precision() const {
  return std::visit(
      [](const auto& s) {
        return word_bytes<std::decay_t<decltype(s)>>() == 4 ? "float" : "double";
      },
      state);
}

long SweCheckpoint::nx() const {
  return std::visit([](const auto& s) { return grid_of(s)[0]; }, state);
}

long SweCheckpoint::ny() const {
  return std::visit([](const auto& s) { return grid_of(s)[1]; }, state);
}

long SweCheckpoint::steps() const {
  return std::visit([](const auto& s) { return long(s.steps); }, state);
}

double SweCheckpoint::time(double thesis_dt) const {
  return std::visit(
      [&](const auto& s) {
        if constexpr (is_physical<std::decay_t<decltype(s)>>)
          return double(s.time);
        else
          return double(s.steps) * thesis_dt;
      },
      state);
}

std::string format_swe_checkpoint(const SweCheckpoint& c, double thesis_dt) {
  nlohmann::json h = {{"model", c.model()},        {"precision", c.precision()},
                      {"grid", {c.nx(), c.ny()}},  {"steps", c.steps()},
                      {"time", c.time(thesis_dt)}, {"config", c.config},
                      {"run", run_json(c.run)}};
  std::visit(
      [&](const auto& s) {
        if constexpr (is_physical<std::decay_t<decltype(s)>>)
          if (!s.infil.empty() || !s.flow.empty() || !s.maxmap.empty() || !s.section_flow.empty()) {
            h["extras"] = {{"infiltrated", !s.infil.empty()},
                           {"boundary_flows", !s.flow.empty()},
                           {"max_maps", !s.maxmap.empty()}};
            if (!s.section_flow.empty()) h["extras"]["section_faces"] = s.section_flow.size();
          }
      },
      c.state);
  return std::visit(
      [&](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (is_physical<S>) {
          using T = std::decay_t<decltype(s.dt)>;
          const std::vector<T> scalars{s.dt, s.time, s.target};
          const std::vector<std::uint32_t> flags{s.rate[0], s.rate[1], s.steps, s.bad_cell,
                                                 s.bad_step};
          return io::format_container(
              kMagic, h,
              {bytes(s.h), bytes(s.hu), bytes(s.hv), bytes(s.z), bytes(scalars), bytes(flags),
               bytes(s.infil), bytes(s.flow), bytes(s.flow_comp), bytes(s.maxmap),
               bytes(s.section_flow), bytes(s.section_comp)});
        } else {
          using T = std::decay_t<decltype(s.k)>;
          const std::vector<T> k{s.k};
          return io::format_container(
              kMagic, h, {bytes(s.fields.z), bytes(s.fields.qx), bytes(s.fields.qy), bytes(k)});
        }
      },
      c.state);
}

SweCheckpoint parse_swe_checkpoint(std::string_view data, const std::string& source) {
  const io::ContainerReader in(data, kMagic, kWhat, source);
  SweCheckpoint out;
  std::string model, precision;
  long nx = 0, ny = 0, steps = 0;
  double header_time = 0;
  bool infiltrated = false, flows = false, maxima = false;  // the physical state's extras
  std::uint64_t section_faces = 0;
  in.read_header([&](const nlohmann::json& h) {
    model = io::header_string(h.at("model"), "model");
    if (model != "physical" && model != "thesis")
      throw Error("'model' is neither physical nor thesis");
    precision = io::header_string(h.at("precision"), "precision");
    if (precision != "float" && precision != "double")
      throw Error("'precision' is neither float nor double");
    const auto& g = h.at("grid");
    if (!g.is_array() || g.size() != 2) throw Error("'grid' is not an array of 2 integers");
    nx = io::header_integer(g[0], "grid");
    ny = io::header_integer(g[1], "grid");
    const long min_side = model == "physical" ? 2 : 1;
    if (nx < min_side || ny < min_side)
      throw Error(fmt::format("'grid' sides must be at least {}", min_side));
    steps = io::header_count(h.at("steps"), "steps");
    header_time =
        io::header_finite(h.at("time"), "time");  // for humans; the state carries the exact time
    if (header_time < 0) throw Error(fmt::format("'time' = {} is negative", header_time));
    out.config = h.at("config");
    if (!out.config.is_object()) throw Error("'config' is not an object");
    out.run = parse_run(h.at("run"));
    if (h.contains("extras")) {
      const auto& x = h.at("extras");
      const bool sections = x.is_object() && x.contains("section_faces");
      if (model != "physical" || !x.is_object() || x.size() != 3u + sections ||
          !x.contains("infiltrated") || !x.at("infiltrated").is_boolean() ||
          !x.contains("boundary_flows") || !x.at("boundary_flows").is_boolean() ||
          !x.contains("max_maps") || !x.at("max_maps").is_boolean())
        throw Error(
            "'extras' is not {\"infiltrated\": bool, \"boundary_flows\": bool, \"max_maps\": "
            "bool[, \"section_faces\": count]} of a physical state");
      if (sections)
        section_faces = std::uint64_t(io::header_count(x.at("section_faces"), "section_faces"));
      infiltrated = x["infiltrated"].get<bool>();
      flows = x["boundary_flows"].get<bool>();
      maxima = x["max_maps"].get<bool>();
    }
    check_progress(out.run, out.config, model == "physical", steps, header_time);
    if (model == "thesis" && out.config.contains("dt") && out.config["dt"].is_number()) {
      const double dt =
          out.config["dt"].get<double>();  // the thesis run records its time as steps * dt
      if (!(dt > 0) || header_time != double(steps) * dt)
        throw Error(
            fmt::format("'time' = {} is not 'steps' * dt = {} * {}", header_time, steps, dt));
    }
  });
  // Sizes from the header, overflow-checked, compared with the payload before
  // anything is allocated.
  const bool physical = model == "physical";
  const std::uint64_t word = precision == "float" ? 4 : 8;
  std::uint64_t cells = 0, needed = 0;
  // faces of the tallies: 2 (nx + ny), bounded by the cells' count check
  const std::uint64_t faces = 2 * (std::uint64_t(nx) + std::uint64_t(ny));
  const bool fits =
      physical ? io::checked_size(std::uint64_t(nx), std::uint64_t(ny), 0, cells) &&
                     cells < std::uint64_t(slot::none) &&
                     io::checked_size(cells, (4 + infiltrated + 4 * maxima) * word,
                                      3 * word + 5 * 4 + (flows ? 2 * faces * word : 0) +
                                          2 * section_faces * word,
                                      needed) &&
                     section_faces <= 2 * cells
               : io::checked_size(std::uint64_t(nx) + 2, std::uint64_t(ny) + 2, 0, cells) &&
                     io::checked_size(cells, 3 * word, word, needed);
  if (!fits) throw in.bad(fmt::format("grid {}x{} is too large", nx, ny));
  if (physical && std::uint64_t(steps) > std::uint64_t(slot::none - 1))
    throw in.bad(fmt::format("header: 'steps' {} exceeds the 32-bit step counter", steps));
  if (in.payload().size() != needed)
    throw in.bad(fmt::format("{} payload bytes, the header's {} {} {}x{} state needs {}",
                             in.payload().size(), model, precision, nx, ny, needed));
  const char* p = in.payload().data();
  auto fill = [&](auto tag) {
    using T = decltype(tag);
    if (physical) {
      PhysSolverState<T> s;
      s.nx = nx;
      s.ny = ny;
      for (auto* v : {&s.h, &s.hu, &s.hv, &s.z}) *v = take<T>(p, cells);
      const auto sc = take<T>(p, 3);
      const auto fl = take<std::uint32_t>(p, 5);
      s.dt = sc[0];
      s.time = sc[1];
      s.target = sc[2];
      s.rate[0] = fl[0];
      s.rate[1] = fl[1];
      s.steps = fl[2];
      s.bad_cell = fl[3];
      s.bad_step = fl[4];
      if (long(s.steps) != steps)
        throw in.bad(fmt::format("the header says step {}, the state step {}", steps, s.steps));
      if (s.bad_cell != slot::none && std::uint64_t(s.bad_cell) >= cells)
        throw in.bad(
            fmt::format("the bad cell {} lies outside the {}x{} grid", s.bad_cell, nx, ny));
      if (double(s.time) != header_time)
        throw in.bad(
            fmt::format("the header says t = {}, the state t = {}", header_time, double(s.time)));
      if (infiltrated) s.infil = take<T>(p, cells);
      if (flows) {
        s.flow = take<T>(p, faces);
        s.flow_comp = take<T>(p, faces);
      }
      if (maxima) s.maxmap = take<T>(p, 4 * cells);
      s.section_flow = take<T>(p, section_faces);
      s.section_comp = take<T>(p, section_faces);
      out.state = std::move(s);
    } else {
      ThesisSolverState<T> s;
      s.fields.grid = ThesisGrid{nx, ny, ny + 2};
      s.fields.z = take<T>(p, cells);
      s.fields.qx = take<T>(p, cells);
      s.fields.qy = take<T>(p, cells);
      s.k = take<T>(p, 1)[0];
      s.steps = steps;
      out.state = std::move(s);
    }
  };
  if (word == 4)
    fill(float{});
  else
    fill(double{});
  return out;
}

void validate_swe_state(const SweCheckpoint& c, const std::string& source) {
  auto bad = [&](const std::string& why) { return io::container_error(source, kWhat, why); };
  auto physical = [&](const auto& s) {
    using T = std::decay_t<decltype(s.dt)>;
    // run.cpp takes no checkpoint of a bad state
    if (s.bad_cell != slot::none || s.bad_step != slot::none)
      throw bad(
          fmt::format("state: marked bad (cell {}, step {}): no checkpoint is taken of a bad state",
                      s.bad_cell, s.bad_step));
    // the kernels' health check: finite values, depths >= 0 (dry cells hold 0)
    const struct {
      const char* name;
      const std::vector<T>& v;
      bool depth;
    } fields[] = {{"h", s.h, true},
                  {"hu", s.hu, false},
                  {"hv", s.hv, false},
                  {"bed z", s.z, false},
                  {"infiltrated depth", s.infil, true}};
    for (const auto& f : fields)
      for (std::size_t m = 0; m < f.v.size(); ++m) {
        const char* what = !std::isfinite(f.v[m])     ? "non-finite"
                           : f.depth && f.v[m] < T(0) ? "negative"
                                                      : nullptr;
        if (what)
          throw bad(fmt::format("state: {} value {} of '{}' in cell (i={}, j={})", what,
                                double(f.v[m]), f.name, long(m) / s.ny, long(m) % s.ny));
      }
    const struct {
      const char* name;
      T v;
    } scalars[] = {{"dt", s.dt}, {"time", s.time}, {"target", s.target}};
    for (const auto& sc : scalars)
      if (!std::isfinite(sc.v) || sc.v < T(0))
        throw bad(fmt::format("state: the scalar '{}' = {} is not a finite value >= 0", sc.name,
                              double(sc.v)));
    for (const auto* f : {&s.flow, &s.flow_comp, &s.maxmap, &s.section_flow, &s.section_comp})
      for (std::size_t m = 0; m < f->size(); ++m)
        if (!std::isfinite((*f)[m]))
          throw bad(
              fmt::format("state: boundary tally {} of face {} is not finite", double((*f)[m]), m));
    for (int r = 0; r < 2; ++r)  // the float bits of a wave rate >= 0 (0x7f800000: infinity)
      if (s.rate[r] >= 0x7f800000u)
        throw bad(fmt::format(
            "state: wave rate slot {} holds 0x{:08x}, not the bits of a finite rate >= 0", r,
            s.rate[r]));
  };
  auto thesis = [&](const auto& s) {
    using T = std::decay_t<decltype(s.k)>;
    // run_thesis.cpp checks the interior for Z > 0 and finite discharges
    // before every checkpoint (the frame is refilled by every step before it
    // is read, and its corners are never written: NaN there is legitimate)
    const ThesisGrid& g = s.fields.grid;
    const struct {
      const char* name;
      const std::vector<T>& v;
      bool depth;
    } fields[] = {{"Z", s.fields.z, true}, {"Qx", s.fields.qx, false}, {"Qy", s.fields.qy, false}};
    for (const auto& f : fields)
      for (long i = 1; i <= g.nx; ++i)
        for (long j = 1; j <= g.ny; ++j) {
          const T v = f.v[std::size_t(g.at(i, j))];
          const char* what = !std::isfinite(v)        ? "non-finite"
                             : f.depth && !(v > T(0)) ? "non-positive"
                                                      : nullptr;
          if (what)
            throw bad(fmt::format(
                "state: {} value {} of '{}' in cell ({}, {}) (the frame's indices: interior "
                "1..{} x 1..{})",
                what, double(v), f.name, i, j, g.nx, g.ny));
        }
    if (!std::isfinite(s.k) || !(s.k > T(0)))
      throw bad(fmt::format("state: k = dt/(2 dx) = {} is not a finite value > 0", double(s.k)));
  };
  std::visit(
      [&](const auto& s) {
        if constexpr (is_physical<std::decay_t<decltype(s)>>)
          physical(s);
        else
          thesis(s);
      },
      c.state);
}

}  // namespace tessera::swe
