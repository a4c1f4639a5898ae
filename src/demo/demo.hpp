// `tessera demo`: one representative case per module, each checked against
// its reference ("correct" / "wrong"), with pictures, and a self-contained
// summary page DIR/index.html (images embedded as data URIs).
#pragma once
#include <filesystem>
#include <string>

namespace tessera::demo {

struct DemoOptions {
  std::string device = "best";
  bool quick =
      false;  ///< small sizes: two CPU cores in about two minutes (else: the studies' sizes on a GPU, medium ones on a CPU)
  std::filesystem::path out = "out/demo";
};

/// Runs every section and writes out/index.html; returns 0 when every
/// section is correct, 1 otherwise. Errors of a section (out of memory, a
/// driver failure) mark that section wrong and the others still run.
int run_demo(const DemoOptions& options);

}  // namespace tessera::demo
