// Text for XML/HTML attribute values and element content: the five markup
// characters replaced by entities (.vti/.pvd names and paths, the demo page).
#pragma once
#include <string>
#include <string_view>

namespace tessera::io {

inline std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace tessera::io
