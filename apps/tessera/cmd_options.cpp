// `tessera options`: the options of every command as JSON, read from the
// CLI11 definitions themselves (hidden from --help). The option fuzzer
// (tests/reliability/option_fuzz.py) discovers what to try from it, so a new
// option is fuzzed without anyone listing it.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "apps/tessera/commands.hpp"

namespace tessera::app {

namespace {

void describe(CLI::App& app, const std::vector<std::string>& path, nlohmann::json& out) {
  nlohmann::json options = nlohmann::json::array();
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_name() == "--help" || o->get_name() == "-h") continue;
    options.push_back(
        {{"name", o->get_name()},
         {"names", o->get_lnames()},
         {"short_names", o->get_snames()},
         {"hidden", o->get_group().empty()},
         {"positional", o->get_positional()},
         {"type", o->get_type_name()},  // e.g. "FLOAT:FINITE", "TEXT:{a,b}", "INT:INT in [1 - 64]"
         {"flag", o->get_items_expected_max() == 0},
         {"required", o->get_required()},
         {"expected_min", o->get_items_expected_min()},
         {"expected_max", o->get_items_expected_max()}});
  }
  const auto subs = app.get_subcommands([](CLI::App*) { return true; });
  if (!path.empty())
    out.push_back({{"command", path}, {"has_subcommands", !subs.empty()}, {"options", options}});
  for (CLI::App* s : subs) {
    if (s->get_name() == "options") continue;
    auto p = path;
    p.push_back(s->get_name());
    describe(*s, p, out);
  }
}

Command add_options_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("options", "The options of every command as JSON (for the option fuzzer)");
  cmd->group("");  // hidden
  CLI::App* root = &app;
  return {cmd, [root] {
            nlohmann::json out = nlohmann::json::array();
            describe(*root, {}, out);
            std::printf("%s\n", out.dump(1).c_str());
            return 0;
          }};
}

const RegisterCommand registered{1000, add_options_command};

}  // namespace

}  // namespace tessera::app
