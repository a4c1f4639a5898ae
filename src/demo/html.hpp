// The demo's summary page: one self-contained HTML file (PNG figures
// embedded as base64 data URIs, inline CSS, no script, no network access).
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "demo/section.hpp"

namespace tessera::demo {

/// What the page says about the run as a whole.
struct PageInfo {
  std::string device_line;  ///< id, name, backend, driver
  std::vector<std::pair<std::string, std::string>>
      facts;               ///< (label, value): versions, commit, date, copy bandwidth
  std::string scale_note;  ///< "" for the studies' sizes
};

std::string base64(std::string_view bytes);
std::string html_escape(std::string_view text);

/// The page for `sections`; figures are read from `dir` (a missing figure is
/// an Error naming it).
std::string render_page(const PageInfo& info, const std::vector<SectionResult>& sections,
                        const std::filesystem::path& dir);

}  // namespace tessera::demo
