#include "swe/checkpoint_format.hpp"

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
constexpr bool is_physical = std::is_same_v<S, PhysSolverState<float>> || std::is_same_v<S, PhysSolverState<double>>;

template <class S>
long grid_nx(const S& s) {
  if constexpr (is_physical<S>) return s.nx;
  else return s.fields.grid.nx;
}

template <class S>
long grid_ny(const S& s) {
  if constexpr (is_physical<S>) return s.ny;
  else return s.fields.grid.ny;
}

template <class S>
constexpr std::size_t word_bytes() {
  if constexpr (is_physical<S>) return sizeof(S::dt);
  else return sizeof(S::k);
}

template <class T>
std::string_view bytes(const std::vector<T>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)};
}

template <class T>
std::vector<T> take(const char*& p, std::size_t n) {
  std::vector<T> v(n);
  std::memcpy(v.data(), p, n * sizeof(T));
  p += n * sizeof(T);
  return v;
}

nlohmann::json run_json(const RunProgress& r) {
  nlohmann::json series = nlohmann::json::array();
  for (const auto& [t, name] : r.series) series.push_back({t, name});
  return {{"outputs", r.outputs}, {"series", series}, {"last_output", r.last_output},
          {"next_target", r.next_target}, {"mass_start", r.mass_start}};
}

RunProgress parse_run(const nlohmann::json& r) {
  if (!r.is_object()) throw Error("'run' is not an object");
  RunProgress p;
  p.outputs = io::header_integer(r.at("outputs"), "outputs");
  if (p.outputs < 0) throw Error("'outputs' is negative");
  const auto& s = r.at("series");
  if (!s.is_array()) throw Error("'series' is not an array");
  for (const auto& e : s) {
    if (!e.is_array() || e.size() != 2) throw Error("a 'series' entry is not [time, file]");
    p.series.emplace_back(io::header_real(e[0], "series time"), io::header_string(e[1], "series file"));
  }
  p.last_output = io::header_string(r.at("last_output"), "last_output");
  p.next_target = io::header_integer(r.at("next_target"), "next_target");
  if (p.next_target < 1) throw Error("'next_target' is below 1");
  p.mass_start = io::header_real(r.at("mass_start"), "mass_start");
  return p;
}

}  // namespace

std::string SweCheckpoint::model() const {
  return std::visit([](const auto& s) { return is_physical<std::decay_t<decltype(s)>> ? "physical" : "thesis"; }, state);
}

std::string SweCheckpoint::precision() const {
  return std::visit([](const auto& s) { return word_bytes<std::decay_t<decltype(s)>>() == 4 ? "float" : "double"; },
                    state);
}

long SweCheckpoint::nx() const {
  return std::visit([](const auto& s) { return grid_nx(s); }, state);
}

long SweCheckpoint::ny() const {
  return std::visit([](const auto& s) { return grid_ny(s); }, state);
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
  const nlohmann::json h = {{"model", c.model()}, {"precision", c.precision()}, {"grid", {c.nx(), c.ny()}},
                            {"steps", c.steps()}, {"time", c.time(thesis_dt)}, {"config", c.config},
                            {"run", run_json(c.run)}};
  return std::visit(
      [&](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (is_physical<S>) {
          using T = std::decay_t<decltype(s.dt)>;
          const std::vector<T> scalars{s.dt, s.time, s.target};
          const std::vector<std::uint32_t> flags{s.rate[0], s.rate[1], s.steps, s.bad_cell, s.bad_step};
          return io::format_container(kMagic, h,
                                      {bytes(s.h), bytes(s.hu), bytes(s.hv), bytes(s.z), bytes(scalars), bytes(flags)});
        } else {
          using T = std::decay_t<decltype(s.k)>;
          const std::vector<T> k{s.k};
          return io::format_container(kMagic, h, {bytes(s.fields.z), bytes(s.fields.qx), bytes(s.fields.qy), bytes(k)});
        }
      },
      c.state);
}

SweCheckpoint parse_swe_checkpoint(std::string_view data, const std::string& source) {
  auto bad = [&](const std::string& why) { return io::container_error(source, kWhat, why); };
  const io::ContainerContents box = io::parse_container(data, kMagic, kWhat, source);
  const nlohmann::json& h = box.header;
  SweCheckpoint out;
  std::string model, precision;
  long nx = 0, ny = 0, steps = 0;
  try {
    model = io::header_string(h.at("model"), "model");
    if (model != "physical" && model != "thesis") throw Error("'model' is neither physical nor thesis");
    precision = io::header_string(h.at("precision"), "precision");
    if (precision != "float" && precision != "double") throw Error("'precision' is neither float nor double");
    const auto& g = h.at("grid");
    if (!g.is_array() || g.size() != 2) throw Error("'grid' is not an array of 2 integers");
    nx = io::header_integer(g[0], "grid");
    ny = io::header_integer(g[1], "grid");
    const long min_side = model == "physical" ? 2 : 1;
    if (nx < min_side || ny < min_side) throw Error(fmt::format("'grid' sides must be at least {}", min_side));
    steps = io::header_integer(h.at("steps"), "steps");
    if (steps < 0) throw Error("'steps' is negative");
    io::header_real(h.at("time"), "time");  // for humans; the state carries the exact time
    out.config = h.at("config");
    if (!out.config.is_object()) throw Error("'config' is not an object");
    out.run = parse_run(h.at("run"));
  } catch (const std::exception& e) {
    throw bad(std::string("header: ") + e.what());
  }
  // Sizes from the header, overflow-checked, compared with the payload before
  // anything is allocated.
  const bool physical = model == "physical";
  const std::uint64_t word = precision == "float" ? 4 : 8;
  std::uint64_t cells = 0, needed = 0;
  const bool fits = physical ? io::checked_size(std::uint64_t(nx), std::uint64_t(ny), 0, cells) &&
                                   cells < std::uint64_t(slot::none) &&
                                   io::checked_size(cells, 4 * word, 3 * word + 5 * 4, needed)
                             : io::checked_size(std::uint64_t(nx) + 2, std::uint64_t(ny) + 2, 0, cells) &&
                                   io::checked_size(cells, 3 * word, word, needed);
  if (!fits) throw bad(fmt::format("grid {}x{} is too large", nx, ny));
  if (physical && std::uint64_t(steps) > std::uint64_t(slot::none - 1))
    throw bad(fmt::format("header: 'steps' {} exceeds the 32-bit step counter", steps));
  if (box.payload.size() != needed)
    throw bad(fmt::format("{} payload bytes, the header's {} {} {}x{} state needs {}", box.payload.size(), model,
                          precision, nx, ny, needed));
  const char* p = box.payload.data();
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
        throw bad(fmt::format("the header says step {}, the state step {}", steps, s.steps));
      if (s.bad_cell != slot::none && std::uint64_t(s.bad_cell) >= cells)
        throw bad(fmt::format("the bad cell {} lies outside the {}x{} grid", s.bad_cell, nx, ny));
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

}  // namespace tessera::swe
