#include "demo/html.hpp"

#include <cctype>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "io/xml_escape.hpp"

namespace tessera::demo {

std::string base64(std::string_view in) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = unsigned(static_cast<unsigned char>(in[i])) << 16 |
                       unsigned(static_cast<unsigned char>(in[i + 1])) << 8 |
                       static_cast<unsigned char>(in[i + 2]);
    out += {k[v >> 18 & 63], k[v >> 12 & 63], k[v >> 6 & 63], k[v & 63]};
  }
  if (i + 1 == in.size()) {
    const unsigned v = unsigned(static_cast<unsigned char>(in[i])) << 16;
    out += {k[v >> 18 & 63], k[v >> 12 & 63], '=', '='};
  } else if (i + 2 == in.size()) {
    const unsigned v = unsigned(static_cast<unsigned char>(in[i])) << 16 |
                       unsigned(static_cast<unsigned char>(in[i + 1])) << 8;
    out += {k[v >> 18 & 63], k[v >> 12 & 63], k[v >> 6 & 63], '='};
  }
  return out;
}

std::string html_escape(std::string_view s) { return io::xml_escape(s); }

namespace {

std::string read_binary(const std::filesystem::path& p) {
  return read_file(p, "demo page's figure");
}

const char* kStyle =
    R"(body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
h1{margin-bottom:.2em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.8em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}
.correct{color:#137333;font-weight:bold}.wrong{color:#c5221f;font-weight:bold}
figure{display:inline-block;margin:.5em 1em .5em 0;vertical-align:top}figure img{max-width:520px;min-width:280px;image-rendering:pixelated;border:1px solid #ddd}
figcaption{font-size:.9em;color:#555;max-width:520px}pre{background:#f5f5f5;padding:.5em;overflow-x:auto}.check{color:#444;font-size:.95em}code{background:#f5f5f5;padding:0 .2em})";

std::string cell(const std::string& v) {
  const bool numeric =
      !v.empty() && (std::isdigit(static_cast<unsigned char>(v[0])) || v[0] == '-');
  return fmt::format("<td{}>{}</td>", numeric ? " class=\"num\"" : "", html_escape(v));
}

}  // namespace

std::string render_page(const PageInfo& info, const std::vector<SectionResult>& sections,
                        const std::filesystem::path& dir) {
  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>tessera demo</title>\n<style>";
  h += kStyle;
  h += "</style>\n</head>\n<body>\n<h1>tessera demo</h1>\n";
  h += fmt::format(
      "<p>Device: <b>{}</b>{}</p>\n", html_escape(info.device_line),
      info.scale_note.empty() ? "" : " &mdash; <i>" + html_escape(info.scale_note) + "</i>");
  h += "<table id=\"run\">\n";
  for (const auto& [k, v] : info.facts)
    h += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", html_escape(k), html_escape(v));
  h +=
      "</table>\n<h2>Summary</h2>\n<table id=\"summary\">\n<tr><th>module</th><th>result</th><th>check</th></tr>\n";
  for (const auto& s : sections)
    h +=
        fmt::format("<tr><td><a href=\"#{}\">{}</a></td><td>{}</td><td class=\"{}\">{}</td></tr>\n",
                    s.id, html_escape(s.title), html_escape(s.summary),
                    s.correct ? "correct" : "wrong", s.correct ? "correct" : "wrong");
  h += "</table>\n";
  for (const auto& s : sections) {
    h += fmt::format(
        "<section id=\"{}\">\n<h2>{} <span class=\"{}\">{}</span></h2>\n<p>{}</p>\n<p class=\"check\">Check: {}</p>\n",
        s.id, html_escape(s.title), s.correct ? "correct" : "wrong",
        s.correct ? "correct" : "wrong", html_escape(s.summary), html_escape(s.check));
    if (!s.commands.empty()) {
      h += "<p class=\"check\">Reproduce:</p>\n<pre>";
      for (const auto& cmd : s.commands) h += html_escape(cmd) + "\n";
      h += "</pre>\n";
    }
    for (const auto& f : s.figures)
      h += fmt::format(
          "<figure><img alt=\"{}\" src=\"data:image/png;base64,{}\"><figcaption>{}</figcaption></figure>\n",
          html_escape(f.caption), base64(read_binary(dir / f.file)), html_escape(f.caption));
    for (const auto& t : s.tables) {
      h += fmt::format("<table>\n<caption>{}</caption>\n<tr>", html_escape(t.caption));
      for (const auto& c : t.header) h += "<th>" + html_escape(c) + "</th>";
      h += "</tr>\n";
      for (const auto& r : t.rows) {
        h += "<tr>";
        for (const auto& c : r) h += cell(c);
        h += "</tr>\n";
      }
      h += "</table>\n";
    }
    h += "</section>\n";
  }
  h += "</body>\n</html>\n";
  return h;
}

}  // namespace tessera::demo
