#include "scenario/json.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <vector>

#include "scenario/limits.hpp"

namespace nicsim {

namespace {
// SAX handler that only records where the parser gave up.
struct ErrorSax : nlohmann::json_sax<Json> {
  std::size_t position = 0;
  std::string what;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t pos, const std::string& token,
                   const nlohmann::detail::exception&) override {
    position = pos;
    what = token;
    return false;
  }
};
}  // namespace

bool json_depth_within(std::string_view text, std::uint32_t max_depth, std::string* where) {
  // One frame per open array or object: its last key (objects) or element index (arrays).
  struct Frame {
    bool object;
    bool key_next;  // an object's next string is a key
    std::size_t index;
    std::string key;
  };
  std::vector<Frame> open;
  bool in_string = false, escaped = false, capturing = false;
  std::string key;
  for (const char ch : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (ch == '\\') {
        escaped = true;
      } else if (ch == '"') {
        in_string = false;
        if (capturing) {
          open.back().key = key;
          open.back().key_next = false;
          capturing = false;
        }
        continue;
      }
      if (capturing && key.size() < 100) key += ch;
      continue;
    }
    switch (ch) {
      case '"':
        in_string = true;
        capturing = !open.empty() && open.back().object && open.back().key_next;
        key.clear();
        break;
      case '{':
      case '[':
        if (open.size() >= max_depth) {
          // The path down to the last key: the field the deep value sits in (its own arrays
          // and objects below are not named), at most 8 steps.
          std::size_t upto = 0;
          for (std::size_t i = 0; i < open.size(); ++i)
            if (open[i].object && !open[i].key.empty()) upto = i + 1;
          std::string path;
          for (std::size_t i = 0; i < upto && i < 8; ++i) {
            if (open[i].object)
              path += (path.empty() ? "" : ".") + open[i].key;
            else
              path += "[" + std::to_string(open[i].index) + "]";
          }
          if (upto > 8) path += "…";
          if (where) *where = path;
          return false;
        }
        open.push_back({ch == '{', ch == '{', 0, ""});
        break;
      case '}':
      case ']':
        if (!open.empty()) open.pop_back();
        break;
      case ',':
        if (!open.empty()) {
          if (open.back().object)
            open.back().key_next = true;
          else
            ++open.back().index;
        }
        break;
      default:
        break;
    }
  }
  return true;
}

bool parse_json(const std::string& text, Json* out, std::string* error, std::string* deep_path) {
  std::string where;
  if (!json_depth_within(text, kMaxJsonDepth, &where)) {
    *error = "nested deeper than " + std::to_string(kMaxJsonDepth) +
             " levels of arrays and objects" + (where.empty() ? "" : " in " + where) +
             "; at most " + std::to_string(kMaxJsonDepth);
    if (deep_path) *deep_path = where;
    return false;
  }
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_discarded()) {
    *out = std::move(j);
    return true;
  }
  ErrorSax sax;
  Json::sax_parse(text, &sax, nlohmann::detail::input_format_t::json, /*strict=*/true);
  std::size_t line = 1, col = 1;
  const std::size_t upto = sax.position > 0 ? sax.position - 1 : 0;
  for (std::size_t i = 0; i < upto && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  std::string near = sax.what.size() > 24 ? sax.what.substr(0, 24) + "…" : sax.what;
  *error = "not valid JSON: syntax error at line " + std::to_string(line) + ", column " +
           std::to_string(col) + (near.empty() ? "" : " near '" + near + "'");
  return false;
}

namespace {
// A string nlohmann's serializer writes as it is: printable ASCII, no quote or backslash.
bool plain_ascii(const std::string& s) {
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return false;
  }
  return true;
}

void write_string(const std::string& s, std::string* out) {
  if (plain_ascii(s)) {
    out->push_back('"');
    out->append(s);
    out->push_back('"');
  } else {  // escapes, UTF-8 checked and replaced: nlohmann's own rules
    out->append(Json(s).dump(-1, ' ', false, Json::error_handler_t::replace));
  }
}

template <typename Int>
void write_integer(Int v, std::string* out) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, r.ptr);
}

void write_number(double x, std::string* out) {
  if (!std::isfinite(x)) {
    out->append("null");
    return;
  }
  // A whole number below 1e15: nlohmann's shortest digits are the integer's own, written with
  // ".0" (its to_chars keeps plain notation up to 15 digits); most results and parameters are.
  if (std::fabs(x) < 1e15 && x == std::trunc(x)) {
    if (x == 0 && std::signbit(x)) out->push_back('-');
    write_integer(static_cast<std::int64_t>(x), out);
    out->append(".0");
    return;
  }
  char buf[64];
  char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, x);
  out->append(buf, end);
}

// The compact dump, byte for byte as nlohmann's serializer writes it, without its output
// adapter's virtual call per character run, and with whole numbers written without Grisu2:
// a run's results document is dumped once per run, a quarter of its work outside the event loop.
void write_json(const Json& j, std::string* out) {
  switch (j.type()) {
    case Json::value_t::object: {
      out->push_back('{');
      const char* comma = "";
      for (const auto& [key, value] : *j.get_ptr<const Json::object_t*>()) {
        out->append(comma);
        comma = ",";
        write_string(key, out);
        out->push_back(':');
        write_json(value, out);
      }
      out->push_back('}');
      return;
    }
    case Json::value_t::array: {
      out->push_back('[');
      const char* comma = "";
      for (const auto& value : *j.get_ptr<const Json::array_t*>()) {
        out->append(comma);
        comma = ",";
        write_json(value, out);
      }
      out->push_back(']');
      return;
    }
    case Json::value_t::string:
      write_string(*j.get_ptr<const Json::string_t*>(), out);
      return;
    case Json::value_t::boolean:
      out->append(*j.get_ptr<const Json::boolean_t*>() ? "true" : "false");
      return;
    case Json::value_t::number_integer:
      write_integer(*j.get_ptr<const Json::number_integer_t*>(), out);
      return;
    case Json::value_t::number_unsigned:
      write_integer(*j.get_ptr<const Json::number_unsigned_t*>(), out);
      return;
    case Json::value_t::number_float:
      write_number(*j.get_ptr<const Json::number_float_t*>(), out);
      return;
    case Json::value_t::null:
      out->append("null");
      return;
    default:  // binary, discarded: as nlohmann writes them
      out->append(j.dump(-1, ' ', false, Json::error_handler_t::replace));
      return;
  }
}
}  // namespace

std::string dump_json(const Json& j, int indent) {
  if (indent >= 0) return j.dump(indent, ' ', false, Json::error_handler_t::replace);
  std::string out;
  write_json(j, &out);
  return out;
}

}  // namespace nicsim
