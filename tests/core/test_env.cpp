// core/env.hpp: every environment variable tessera reads is checked; a value
// that is set but malformed is a usage error naming the variable, the value
// and what was expected, and the default is used only when it is unset.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "core/env.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"

namespace tessera {
namespace {

// Sets (or unsets) a variable for one scope and restores what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// The message of the UsageError f throws ("" and a test failure if none).
template <class F>
std::string usage_error(F&& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

constexpr const char* kVar = "TESSERA_ENV_TEST_VALUE";

TEST(Env, UnsetOrEmptyTakesTheDefault) {
  for (const char* value : {static_cast<const char*>(nullptr), ""}) {
    const ScopedEnv env(kVar, value);
    EXPECT_FALSE(env_string(kVar));
    EXPECT_EQ(env_int(kVar, 5, 0, 64), 5);
    EXPECT_TRUE(env_flag(kVar, true));
    EXPECT_FALSE(env_flag(kVar, false));
    EXPECT_EQ(env_choice(kVar, "auto", {"auto", "log", "off"}), "auto");
    EXPECT_FALSE(env_bytes(kVar));
  }
}

TEST(Env, IntTakesDecimalsInRange) {
  for (const auto& [value, n] : {std::pair{"0", 0L}, {"64", 64L}, {"7", 7L}, {"-3", -3L}}) {
    const ScopedEnv env(kVar, value);
    EXPECT_EQ(env_int(kVar, 5, -3, 64), n) << value;
  }
}

TEST(Env, MalformedOrOutOfRangeIntNamesTheVariableTheValueAndTheRange) {
  for (const char* value : {"12abc", "5x", " 5", "5 ", "+5", "0x10", "5.0", "banana", "65", "-1",
                            "99999999999999999999999"}) {
    const ScopedEnv env(kVar, value);
    const std::string what = usage_error([] { env_int(kVar, 5, 0, 64); });
    EXPECT_NE(what.find(std::string(kVar) + "=" + value + ": expected an integer from 0 to 64"),
              std::string::npos)
        << what;
  }
}

TEST(Env, FlagIsZeroOrOne) {
  {
    const ScopedEnv env(kVar, "1");
    EXPECT_TRUE(env_flag(kVar, false));
  }
  {
    const ScopedEnv env(kVar, "0");
    EXPECT_FALSE(env_flag(kVar, true));
  }
  for (const char* value : {"yes", "true", "2", "01", "on"}) {
    const ScopedEnv env(kVar, value);
    const std::string what = usage_error([] { env_flag(kVar, false); });
    EXPECT_NE(what.find(std::string(kVar) + "=" + value + ": expected 0 or 1"), std::string::npos)
        << what;
  }
}

TEST(Env, ChoiceListsTheAcceptedValues) {
  {
    const ScopedEnv env(kVar, "off");
    EXPECT_EQ(env_choice(kVar, "on", {"on", "off"}), "off");
  }
  const ScopedEnv env(kVar, "OFF");
  EXPECT_NE(usage_error([] {
              env_choice(kVar, "on", {"on", "off"});
            }).find("=OFF: expected on or off"),
            std::string::npos);
}

TEST(Env, BytesTakeSuffixesAndRefuseTheRest) {
  for (const auto& [value, n] : {std::pair{"100", std::uint64_t(100)},
                                 {"64M", std::uint64_t(64) << 20},
                                 {"1.5G", std::uint64_t(3) << 29},
                                 {"2kB", std::uint64_t(2048)},
                                 {"1t", std::uint64_t(1) << 40}}) {
    const ScopedEnv env(kVar, value);
    EXPECT_EQ(env_bytes(kVar), n) << value;
  }
  for (const char* value : {"G", "12Q", "1.5.5", "-1", "1e3", "4 G", "4GiB", "20000000T", ".M"}) {
    const ScopedEnv env(kVar, value);
    const std::string what = usage_error([] { env_bytes(kVar); });
    EXPECT_NE(what.find(std::string(kVar) + "=" + value + ": expected a number of bytes"),
              std::string::npos)
        << what;
  }
}

// A variable the library reads: a malformed TESSERA_PROGRESS is refused
// where a progress indicator is made, not taken for the default.
TEST(Env, MalformedProgressModeIsAUsageError) {
  const ScopedEnv env("TESSERA_PROGRESS", "banana");
  const std::string what = usage_error([] { Progress p("test", 1); });
  EXPECT_NE(what.find("environment variable TESSERA_PROGRESS=banana: expected auto, log or off"),
            std::string::npos)
      << what;
}

TEST(Env, ProgressModeDefaultsToABarOnTerminalsAndAPulseElsewhere) {
  const auto expected_default =
      ::isatty(STDERR_FILENO) == 1 ? Progress::Mode::bar : Progress::Mode::pulse;
  {
    const ScopedEnv env("TESSERA_PROGRESS", nullptr);
    EXPECT_EQ(Progress("test", 1).mode(), expected_default);
  }
  {
    const ScopedEnv env("TESSERA_PROGRESS", "auto");
    EXPECT_EQ(Progress("test", 1).mode(), expected_default);
  }
  {
    const ScopedEnv env("TESSERA_PROGRESS", "log");
    EXPECT_EQ(Progress("test", 1).mode(), Progress::Mode::log);
  }
  const ScopedEnv env("TESSERA_PROGRESS", "off");
  EXPECT_EQ(Progress("test", 1).mode(), Progress::Mode::off);
}

// Piped (the pulse): a step's line only once the interval has passed since
// the last line, so a long run still says where it is and a short one is quiet.
TEST(Env, APipedProgressPrintsALineAfterEachInterval) {
  if (::isatty(STDERR_FILENO) == 1) GTEST_SKIP() << "stderr is a terminal here";
  const ScopedEnv env("TESSERA_PROGRESS", nullptr);
  ::testing::internal::CaptureStderr();
  {
    Progress every("every", 2, 0.0);  // no interval: every step
    every.step("first");
    every.step("second");
    Progress never("never", 2, 1e9);
    never.step("hidden");
  }
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("every [1/2] first (at "), std::string::npos) << err;
  EXPECT_NE(err.find("every [2/2] second"), std::string::npos) << err;
  EXPECT_EQ(err.find("hidden"), std::string::npos) << err;
}

}  // namespace
}  // namespace tessera
