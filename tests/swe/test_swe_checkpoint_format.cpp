// The swe checkpoint byte format (swe/checkpoint_format.hpp): round trips of
// both models and precisions; truncated, flipped, foreign and forged files are
// rejected with the file name and the reason, forged sizes before anything
// is allocated; restarting with other options names the option.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "core/error.hpp"
#include "core/hash.hpp"
#include "io/checkpoint_container.hpp"
#include "swe/checkpoint.hpp"
#include "swe/checkpoint_format.hpp"
#include "test_support.hpp"

namespace tessera::swe {
namespace {

template <class F>
void expect_error(F&& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "accepted; expected an error containing '" << part << "'";
  } catch (const UsageError& e) {
    ADD_FAILURE() << "a UsageError for a bad file: " << e.what();
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(part), std::string::npos) << what;
    EXPECT_NE(what.find("c.ckpt"), std::string::npos) << what;
  }
}

PhysSolverState<float> physical_state(long nx, long ny) {
  PhysSolverState<float> s;
  s.nx = nx;
  s.ny = ny;
  const std::size_t n = std::size_t(nx * ny);
  s.h = test::random_vector<float>(n, 1, 0, 2);
  s.hu = test::random_vector<float>(n, 2);
  s.hv = test::random_vector<float>(n, 3);
  s.z = test::random_vector<float>(n, 4);
  s.h[0] = -0.0f;  // signs and NaN payloads are kept bit for bit
  s.hu[1] = test::poison<float>();
  s.dt = 0.25f;
  s.time = 3.75f;
  s.target = 10;
  s.rate[0] = 0x3f800000u;
  s.rate[1] = 7;
  s.steps = 15;
  return s;
}

SweCheckpoint sample() {
  SweCheckpoint c;
  c.state = physical_state(5, 3);
  c.config = {{"order", 2}, {"cfl", 0.45}, {"case", "ritter"}};
  c.run.outputs = 3;
  c.run.series = {{0.0, "swe_000000.vti"}, {0.1 + 0.2, "swe_000001.vti"}};
  c.run.last_output = "out/swe_000002.png";
  c.run.next_target = 4;
  c.run.mass_start = 1.0 / 3.0;
  return c;
}

std::string reseal(std::string b) {
  const std::uint64_t sum = fnv1a64(std::string_view(b).substr(0, b.size() - 8));
  std::memcpy(b.data() + b.size() - 8, &sum, 8);
  return b;
}

// A file with this header and `payload` bytes of payload, correctly sealed.
std::string with_header(const std::string& json, std::size_t payload) {
  std::string out("TSSWECK1", 8);
  const std::uint64_t n = json.size();
  out.append(reinterpret_cast<const char*>(&n), 8);
  return reseal(out + json + std::string(payload, '\0') + std::string(8, '\0'));
}

std::string header(
    const std::string& model, const std::string& grid, const std::string& steps,
    const std::string& run =
        R"({"last_output":"","mass_start":0,"next_target":1,"outputs":0,"series":[]})") {
  return R"({"config":{},"grid":[)" + grid + R"(],"model":")" + model +
         R"(","precision":"double","run":)" + run + R"(,"steps":)" + steps + R"(,"time":0})";
}

TEST(SweCheckpointFormat, RoundTripsBothModelsBitForBit) {
  const SweCheckpoint c = sample();
  const SweCheckpoint back = parse_swe_checkpoint(format_swe_checkpoint(c), "c.ckpt");
  EXPECT_EQ(back.model(), "physical");
  EXPECT_EQ(back.precision(), "float");
  EXPECT_EQ(back.config, c.config);
  EXPECT_EQ(back.run.outputs, 3);
  EXPECT_EQ(back.run.series, c.run.series);  // doubles exactly
  EXPECT_EQ(back.run.last_output, c.run.last_output);
  EXPECT_EQ(back.run.next_target, 4);
  EXPECT_EQ(back.run.mass_start, c.run.mass_start);
  const auto& a = std::get<PhysSolverState<float>>(c.state);
  const auto& b = std::get<PhysSolverState<float>>(back.state);
  EXPECT_EQ(std::memcmp(a.h.data(), b.h.data(), a.h.size() * 4), 0);
  EXPECT_EQ(std::memcmp(a.hu.data(), b.hu.data(), a.hu.size() * 4), 0);
  EXPECT_EQ(a.hv, b.hv);
  EXPECT_EQ(a.z, b.z);
  EXPECT_EQ(b.dt, 0.25f);
  EXPECT_EQ(b.time, 3.75f);
  EXPECT_EQ(b.target, 10.0f);
  EXPECT_EQ(b.rate[0], a.rate[0]);
  EXPECT_EQ(b.rate[1], 7u);
  EXPECT_EQ(b.steps, 15u);
  EXPECT_EQ(b.bad_cell, slot::none);

  ThesisSolverState<double> t;
  t.fields = ThesisState<double>(ThesisGrid{4, 3, 5});
  t.fields.z = test::random_vector<double>(t.fields.grid.size(), 5);
  t.fields.qx = test::random_vector<double>(t.fields.grid.size(), 6);
  t.fields.qy = test::random_vector<double>(t.fields.grid.size(), 7);
  t.steps = 9;
  t.k = 0.125;
  SweCheckpoint ct;
  ct.state = t;
  const std::string bytes = format_swe_checkpoint(ct, 0.5);
  EXPECT_NE(bytes.find(R"("time":4.5)"), std::string::npos);  // steps * dt, for humans
  const SweCheckpoint tb = parse_swe_checkpoint(bytes, "c.ckpt");
  EXPECT_EQ(tb.model(), "thesis");
  EXPECT_EQ(tb.precision(), "double");
  EXPECT_EQ(tb.nx(), 4);
  EXPECT_EQ(tb.ny(), 3);
  const auto& u = std::get<ThesisSolverState<double>>(tb.state);
  EXPECT_EQ(u.fields.z, t.fields.z);
  EXPECT_EQ(u.fields.qx, t.fields.qx);
  EXPECT_EQ(u.fields.qy, t.fields.qy);
  EXPECT_EQ(u.fields.grid.w, 5);
  EXPECT_EQ(u.steps, 9);
  EXPECT_EQ(u.k, 0.125);
}

// A physical state with the sources', boundaries' and cross-sections'
// extras: each present alone or with others, back bit for bit; a header that
// claims extras the payload lacks, or extras of a thesis state, is refused.
TEST(SweCheckpointFormat, ExtrasRoundTripAndMustMatchThePayload) {
  for (int mask = 1; mask < 8; ++mask) {
    SweCheckpoint c = sample();
    auto& s = std::get<PhysSolverState<float>>(c.state);
    if (mask & 1) s.infil = test::random_vector<float>(15, 8, 0, 0.1);
    if (mask & 2) {
      s.flow = test::random_vector<float>(16, 9);
      s.flow_comp = test::random_vector<float>(16, 10, -1e-7, 1e-7);
    }
    if (mask & 4) {
      s.section_flow = test::random_vector<float>(7, 11);
      s.section_comp = test::random_vector<float>(7, 12, -1e-7, 1e-7);
    }
    const std::string bytes = format_swe_checkpoint(c);
    const SweCheckpoint back = parse_swe_checkpoint(bytes, "c.ckpt");
    const auto& b = std::get<PhysSolverState<float>>(back.state);
    EXPECT_EQ(b.infil, s.infil) << mask;
    EXPECT_EQ(b.flow, s.flow) << mask;
    EXPECT_EQ(b.flow_comp, s.flow_comp) << mask;
    EXPECT_EQ(b.section_flow, s.section_flow) << mask;
    EXPECT_EQ(b.section_comp, s.section_comp) << mask;
    EXPECT_EQ(b.h.size(), s.h.size());
    // the same header on the payload of a state without extras: sizes differ
    SweCheckpoint plain = sample();
    const std::string none = format_swe_checkpoint(plain);
    const std::size_t hb = 16, hn = 8;
    std::uint64_t len_b = 0, len_n = 0;
    std::memcpy(&len_b, bytes.data() + hn, 8);
    std::memcpy(&len_n, none.data() + hn, 8);
    const std::string forged = with_header(bytes.substr(hb, len_b), none.size() - hb - len_n - 8);
    expect_error([&] { parse_swe_checkpoint(forged, "c.ckpt"); }, "payload bytes");
  }
  SweCheckpoint c = sample();
  std::get<PhysSolverState<float>>(c.state).hu[1] = 0;  // the sample's NaN would be named first
  std::get<PhysSolverState<float>>(c.state).infil.assign(15, -1.0f);
  expect_error(
      [&] {
        validate_swe_state(parse_swe_checkpoint(format_swe_checkpoint(c), "c.ckpt"), "c.ckpt");
      },
      "negative value -1 of 'infiltrated depth'");
  const std::string thesis_extras =
      header("thesis", "2,2", "0")
          .insert(1, R"("extras":{"infiltrated":true,"boundary_flows":false},)");
  expect_error([&] { parse_swe_checkpoint(with_header(thesis_extras, 0), "c.ckpt"); }, "'extras'");
  // more section faces than a grid has faces: refused before the payload
  const std::string many = header("physical", "3,5", "0")
                               .insert(1, R"("extras":{"infiltrated":false,"boundary_flows":false,)"
                                          R"("max_maps":false,"section_faces":31},)");
  expect_error([&] { parse_swe_checkpoint(with_header(many, 0), "c.ckpt"); }, "too large");
}

TEST(SweCheckpointFormat, TruncatedFlippedAndForeignFilesAreRejected) {
  const std::string good = format_swe_checkpoint(sample());
  for (std::size_t cut :
       {std::size_t(0), std::size_t(10), std::size_t(30), good.size() / 2, good.size() - 1})
    expect_error([&] { parse_swe_checkpoint(good.substr(0, cut), "c.ckpt"); },
                 cut < 24 ? "signature" : "checksum mismatch");
  for (std::size_t at : {std::size_t(12), std::size_t(40), good.size() - 30, good.size() - 3}) {
    std::string flipped = good;
    flipped[at] ^= 0x10;
    expect_error([&] { parse_swe_checkpoint(flipped, "c.ckpt"); }, "checksum mismatch");
  }
  std::string lbm = good;
  std::memcpy(lbm.data(), "TSLBMCK1", 8);
  expect_error([&] { parse_swe_checkpoint(reseal(lbm), "c.ckpt"); }, "no TSSWECK1 signature");
  // a file cut after a whole payload piece, resealed: the sizes disagree
  expect_error([&] { parse_swe_checkpoint(reseal(good.substr(0, good.size() - 20)), "c.ckpt"); },
               "payload bytes, the header's physical float 5x3 state needs");
  expect_error([&] { parse_swe_checkpoint(reseal(good + std::string(4, 'x')), "c.ckpt"); },
               "state needs");
}

// Forged headers: sizes are compared with the file before anything is
// allocated (10^5 x 10^5 doubles would be 320 GB), integers are checked
// before conversion.
TEST(SweCheckpointFormat, ForgedHeadersAreRejectedBeforeAllocating) {
  expect_error(
      [&] {
        parse_swe_checkpoint(with_header(header("physical", "60000,60000", "0"), 64), "c.ckpt");
      },
      "64 payload bytes, the header's physical double 60000x60000 state needs 115200000044");
  expect_error(
      [&] {
        parse_swe_checkpoint(with_header(header("thesis", "100000,100000", "0"), 64), "c.ckpt");
      },
      "state needs");
  expect_error(
      [&] {
        parse_swe_checkpoint(with_header(header("physical", "4294967296,4294967296", "0"), 0),
                             "c.ckpt");
      },
      "too large");
  expect_error(
      [&] {
        parse_swe_checkpoint(with_header(header("physical", "70000,70000", "0"), 0), "c.ckpt");
      },
      "too large");  // more cells than a 32-bit cell index
  expect_error(
      [&] {
        parse_swe_checkpoint(
            with_header(header("thesis", "9223372036854775807,9223372036854775807", "0"), 0),
            "c.ckpt");
      },
      "too large");
  expect_error(
      [&] { parse_swe_checkpoint(with_header(header("thesis", "2,2", "1e300"), 0), "c.ckpt"); },
      "'steps' is not an integer");
  expect_error(
      [&] { parse_swe_checkpoint(with_header(header("thesis", "2,2", "-1"), 0), "c.ckpt"); },
      "'steps' = -1 is outside 0..2^53");
  expect_error(
      [&] {
        parse_swe_checkpoint(with_header(header("physical", "2,2", "4294967296"), 0), "c.ckpt");
      },
      "32-bit step counter");
  expect_error(
      [&] { parse_swe_checkpoint(with_header(header("thesis", "2.5,2", "0"), 0), "c.ckpt"); },
      "'grid' is not an integer");
  expect_error(
      [&] { parse_swe_checkpoint(with_header(header("physical", "1,5", "0"), 0), "c.ckpt"); },
      "at least 2");
  expect_error(
      [&] { parse_swe_checkpoint(with_header(header("thesis", "0,5", "0"), 0), "c.ckpt"); },
      "at least 1");
  expect_error([&] { parse_swe_checkpoint(with_header(header("lbm", "2,2", "0"), 0), "c.ckpt"); },
               "neither physical nor thesis");
  expect_error(
      [&] { parse_swe_checkpoint(with_header(header("thesis", "2,2", "0", "[]"), 0), "c.ckpt"); },
      "'run' is not an object");
  expect_error(
      [&] {
        parse_swe_checkpoint(
            with_header(
                header(
                    "thesis", "2,2", "0",
                    R"({"last_output":"","mass_start":0,"next_target":0,"outputs":0,"series":[]})"),
                0),
            "c.ckpt");
      },
      "'next_target' is below 1");
  expect_error(
      [&] {
        parse_swe_checkpoint(
            with_header(
                header(
                    "thesis", "2,2", "0",
                    R"({"last_output":"","mass_start":0,"next_target":1,"outputs":0,"series":[[1]]})"),
                0),
            "c.ckpt");
      },
      "'series' entry");
  expect_error([&] { parse_swe_checkpoint(with_header("[1,2]", 0), "c.ckpt"); },
               "not a JSON object");
  expect_error([&] { parse_swe_checkpoint(with_header("{\"model\":", 0), "c.ckpt"); }, "header: ");
  std::string long_header("TSSWECK1", 8);
  const std::uint64_t huge = 1ull << 62;
  long_header.append(reinterpret_cast<const char*>(&huge), 8);
  expect_error(
      [&] { parse_swe_checkpoint(reseal(long_header + "{}" + std::string(8, '\0')), "c.ckpt"); },
      "header length exceeds the file");
}

TEST(SweCheckpointFormat, StateAndHeaderMustAgree) {
  SweCheckpoint c = sample();
  std::string bytes = format_swe_checkpoint(c);
  const std::size_t at = bytes.find(R"("steps":15)");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 9] = '4';  // the header says 14, the state's counter 15
  expect_error([&] { parse_swe_checkpoint(reseal(bytes), "c.ckpt"); },
               "the header says step 14, the state step 15");
  auto& s = std::get<PhysSolverState<float>>(c.state);
  s.bad_cell = 15;  // 5x3 cells: 0..14
  expect_error([&] { parse_swe_checkpoint(format_swe_checkpoint(c), "c.ckpt"); },
               "outside the 5x3 grid");
}

TEST(SweCheckpointFormat, RestartWithOtherOptionsNamesTheOption) {
  const SweCheckpoint c = sample();
  auto usage = [&](const std::string& model, const std::string& precision, long nx,
                   const nlohmann::ordered_json& cfg, const std::string& part) {
    try {
      check_restart_config(c, model, precision, nx, 3, cfg, "c.ckpt");
      ADD_FAILURE() << "accepted: " << part;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("c.ckpt"), std::string::npos) << e.what();
    }
  };
  const nlohmann::ordered_json same = {{"case", "ritter"}, {"order", 2}, {"cfl", 0.45}};
  EXPECT_NO_THROW(check_restart_config(c, "physical", "float", 5, 3, same, "c.ckpt"));
  usage("thesis", "float", 5, same, "--model physical, this run has --model thesis");
  usage("physical", "double", 5, same, "--precision float, this run has --precision double");
  usage("physical", "float", 6, same, "the grid 5x3, this run has the grid 6x3");
  usage("physical", "float", 5, {{"case", "ritter"}, {"order", 1}, {"cfl", 0.45}},
        "--order 2, this run has --order 1");
  usage("physical", "float", 5, {{"case", "stoker"}, {"order", 1}},
        "--case ritter, this run has --case stoker");
  usage("physical", "float", 5, {{"cfl", 0.45 + 1e-16 * 4}}, "--cfl");
  try {
    check_restart_config(c, "physical", "float", 5, 3, {{"manning", 0.0}}, "c.ckpt");
    ADD_FAILURE() << "a checkpoint without 'manning' accepted";
  } catch (const UsageError&) {
    ADD_FAILURE() << "a missing field is a bad file, not a usage error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no 'manning'"), std::string::npos) << e.what();
  }
}

TEST(SweCheckpointFormat, FilesAreReadAndWrittenWhole) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("tessera_swe_ckpt_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  SweCheckpoint c = sample();
  std::get<PhysSolverState<float>>(c.state).hu[1] =
      0.5f;  // a restart refuses the sample's NaN (validate_swe_state)
  write_swe_checkpoint(dir / "c.ckpt", c);
  const SweCheckpoint back = read_swe_checkpoint(dir / "c.ckpt");
  EXPECT_EQ(back.steps(), 15);
  expect_error([&] { read_swe_checkpoint(dir / "missing" / "c.ckpt"); }, "cannot open");
  std::ofstream(dir / "c.ckpt", std::ios::binary) << "TSSWECK1 but nothing else";
  expect_error([&] { read_swe_checkpoint(dir / "c.ckpt"); }, "checksum mismatch");
  std::filesystem::remove_all(dir);
}

// Issue 40, item 5: checkpoints whose checksum is valid but whose header no
// run can have written. Each was accepted; an output counter of 2^62 made the
// restarted run skip its final output and exit 0.

/// `good` with header fields (JSON pointer -> JSON text) replaced, re-sealed.
std::string forged(const std::string& good,
                   std::initializer_list<std::pair<const char*, const char*>> fields) {
  const auto box = io::parse_container(good, "TSSWECK1", "swe checkpoint", "forge");
  nlohmann::json h = box.header;
  for (const auto& [key, value] : fields)
    h[nlohmann::json::json_pointer(key)] = nlohmann::json::parse(value);
  return io::format_container("TSSWECK1", h, {box.payload});
}

TEST(SweCheckpointFormat, ImpossibleProgressIsRefused) {
  const std::string good = format_swe_checkpoint(sample());  // physical, step 15 at t = 3.75
  auto refused = [&](std::initializer_list<std::pair<const char*, const char*>> f,
                     const std::string& part) {
    expect_error([&] { parse_swe_checkpoint(forged(good, f), "c.ckpt"); }, part);
  };
  auto accepted = [&](std::initializer_list<std::pair<const char*, const char*>> f) {
    EXPECT_NO_THROW(parse_swe_checkpoint(forged(good, f), "c.ckpt"));
  };
  // the counter itself: the run numbers its outputs in an int
  refused({{"/run/outputs", "4611686018427387904"}},
          "header: 'outputs' = 4611686018427387904 is outside 0..2147483646");
  refused({{"/run/outputs", "2147483647"}}, "'outputs' = 2147483647 is outside 0..2147483646");
  // --every 5, no --every-time, by step 15: the initial output (twice at
  // most), one per check: a check follows 5 counted steps (3) or ends one of
  // the at most 16 run segments (each takes a step): 21; no advance
  accepted({{"/config/every", "5"},
            {"/config/every-time", "0"},
            {"/run/outputs", "21"},
            {"/run/next_target", "1"}});
  refused({{"/config/every", "5"}, {"/config/every-time", "0"}, {"/run/outputs", "22"}},
          "'outputs' = 22 is more than runs write by step 15 at t = 3.75 (at most 21)");
  refused(
      {{"/config/every", "5"},
       {"/config/every-time", "0"},
       {"/run/outputs", "2"},
       {"/run/next_target", "2"}},
      "'next_target' = 2 is more --every-time advances than runs do by t = 3.75 without an --every-time");
  // --every-time 1 by t = 3.75: advances ending at 1, 2, 3, one more, and one
  // ended early at --t-end per segment (16): 20; an output after each
  accepted({{"/config/every", "0"},
            {"/config/every-time", "1"},
            {"/run/outputs", "22"},
            {"/run/next_target", "21"}});
  refused({{"/config/every", "0"},
           {"/config/every-time", "1"},
           {"/run/outputs", "7"},
           {"/run/next_target", "22"}},
          "'next_target' = 22 is more --every-time advances");
  refused({{"/config/every", "0"}, {"/config/every-time", "1"}, {"/run/outputs", "23"}},
          "'outputs' = 23 is more");
  // the .pvd series: one entry per output at most, ordered times within
  // 0..the checkpoint's, plain file names (the .pvd is written next to them)
  refused({{"/run/outputs", "1"}}, "'series' lists 2 files, 'outputs' counts 1");
  refused({{"/run/series", R"([[0, "swe_000000.vti"], [3.76, "swe_000001.vti"]])"}},
          "'series' entry 1 is at t = 3.76, outside 0..3.75");
  refused({{"/run/series", R"([[0.5, "swe_000000.vti"], [0.25, "swe_000001.vti"]])"}},
          "'series' entry 1 is at t = 0.25, outside 0.5..3.75");
  refused({{"/run/series", R"([[-1, "swe_000000.vti"]])"}}, "'series' entry 0 is at t = -1");
  for (const char* name :
       {R"("../../x.vti")", R"("/tmp/x.vti")", R"("")", R"("a\"b.vti")", R"("..")"}) {
    const std::string series = std::string("[[0, ") + name + "]]";
    expect_error(
        [&] {
          parse_swe_checkpoint(forged(good, {{"/run/series", series.c_str()}}), "c.ckpt");
        },
        "not a file name in the output folder");
  }
  // the time: the state's (physical), not negative
  refused({{"/time", "3.5"}}, "the header says t = 3.5, the state t = 3.75");
  refused({{"/time", "-1"}}, "'time' = -1 is negative");
  refused({{"/run/mass_start", "\"x\""}}, "'mass_start' is not a number");
}

TEST(SweCheckpointFormat, ThesisStepsAndTimeMustMakeSense) {
  ThesisSolverState<double> t;
  t.fields = ThesisState<double>(ThesisGrid{4, 3, 5});
  t.fields.z = test::random_vector<double>(t.fields.grid.size(), 5, 0.5, 2);
  t.steps = 9;
  t.k = 0.125;
  SweCheckpoint c;
  c.state = t;
  c.config = {{"dt", 0.5}, {"every", 4}};
  const std::string good = format_swe_checkpoint(c, 0.5);  // t = 4.5
  EXPECT_NO_THROW(parse_swe_checkpoint(good, "c.ckpt"));
  expect_error(
      [&] {
        parse_swe_checkpoint(forged(good, {{"/steps", "4611686018427387904"}}), "c.ckpt");
      },
      "header: 'steps' = 4611686018427387904 is outside 0..2^53");
  expect_error(
      [&] {
        parse_swe_checkpoint(forged(good, {{"/time", "4"}}), "c.ckpt");
      },
      "'time' = 4 is not 'steps' * dt = 9 * 0.5");
  // --every 4 by step 9: the first (twice at most), steps 4 and 8; no
  // advances (next_target stays 1)
  EXPECT_NO_THROW(parse_swe_checkpoint(forged(good, {{"/run/outputs", "4"}}), "c.ckpt"));
  expect_error(
      [&] {
        parse_swe_checkpoint(forged(good, {{"/run/outputs", "5"}}), "c.ckpt");
      },
      "'outputs' = 5 is more than runs write by step 9 at t = 4.5 (at most 4)");
  expect_error(
      [&] {
        parse_swe_checkpoint(forged(good, {{"/run/next_target", "2"}}), "c.ckpt");
      },
      "'next_target' = 2 is more --every-time advances");
}

// The state a restart continues from (read_swe_checkpoint): NaN depths,
// negative depths, infinite discharges and bad marks were restored and ran.
TEST(SweCheckpointFormat, ImpossibleStatesAreRefusedOnRead) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("tessera_swe_meaning_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto read_back = [&](const SweCheckpoint& c) {
    write_swe_checkpoint(dir / "c.ckpt", c, 0.5);
    return read_swe_checkpoint(dir / "c.ckpt");
  };
  SweCheckpoint c = sample();
  auto& s = std::get<PhysSolverState<float>>(c.state);
  s.hu[1] = 0.5f;                 // the sample's NaN, for the format's bit-for-bit test
  EXPECT_NO_THROW(read_back(c));  // -0 depth, a denormal rate: fine
  const float nan = std::numeric_limits<float>::quiet_NaN(),
              inf = std::numeric_limits<float>::infinity();
  auto refused = [&](auto change, const std::string& part) {
    SweCheckpoint f = c;
    change(std::get<PhysSolverState<float>>(f.state));
    expect_error([&] { read_back(f); }, part);
    expect_error([&] { validate_swe_state(f, "c.ckpt"); }, part);
  };
  // 5 x 3 cells, index i * 3 + j
  refused([&](auto& x) { x.h[7] = nan; }, "state: non-finite value nan of 'h' in cell (i=2, j=1)");
  refused([&](auto& x) { x.h[4] = -0.5f; }, "state: negative value -0.5 of 'h' in cell (i=1, j=1)");
  refused([&](auto& x) { x.hu[14] = -inf; }, "non-finite value -inf of 'hu' in cell (i=4, j=2)");
  refused([&](auto& x) { x.hv[0] = inf; }, "non-finite value inf of 'hv' in cell (i=0, j=0)");
  refused([&](auto& x) { x.z[5] = nan; }, "non-finite value nan of 'bed z' in cell (i=1, j=2)");
  refused([&](auto& x) { x.dt = nan; }, "the scalar 'dt' = nan");
  refused([&](auto& x) { x.dt = -0.25f; }, "the scalar 'dt' = -0.25");
  refused([&](auto& x) { x.target = inf; }, "the scalar 'target' = inf");
  refused([&](auto& x) { x.rate[0] = 0x7f800000u; }, "wave rate slot 0 holds 0x7f800000");
  refused([&](auto& x) { x.rate[1] = 0xbf800000u; }, "wave rate slot 1 holds 0xbf800000");  // -1.0f
  refused([&](auto& x) { x.bad_cell = 3, x.bad_step = 12; }, "marked bad (cell 3, step 12)");

  ThesisSolverState<double> t;
  t.fields = ThesisState<double>(ThesisGrid{4, 3, 5});  // frame included: 6 x 5
  t.fields.z = test::random_vector<double>(t.fields.grid.size(), 5, 0.5, 2);
  t.fields.z[0] = 0;  // frame cells: refilled by every step, corners never written
  t.fields.qx[5 * 5 + 4] = std::nan("");
  t.steps = 9;
  t.k = 0.125;
  SweCheckpoint ct;
  ct.state = t;
  EXPECT_NO_THROW(read_back(ct));
  auto thesis_refused = [&](auto change, const std::string& part) {
    SweCheckpoint f = ct;
    change(std::get<ThesisSolverState<double>>(f.state));
    expect_error([&] { read_back(f); }, part);
  };
  thesis_refused([](auto& x) { x.fields.z[2 * 5 + 3] = 0; },
                 "non-positive value 0 of 'Z' in cell (2, 3)");
  thesis_refused([](auto& x) { x.fields.qx[4 * 5 + 1] = std::nan(""); },
                 "non-finite value nan of 'Qx' in cell (4, 1)");
  thesis_refused([](auto& x) { x.fields.qy[1 * 5 + 3] = -HUGE_VAL; },
                 "non-finite value -inf of 'Qy' in cell (1, 3)");
  thesis_refused([](auto& x) { x.k = 0; }, "k = dt/(2 dx) = 0 is not a finite value > 0");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tessera::swe
