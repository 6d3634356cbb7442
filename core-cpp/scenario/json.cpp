#include "scenario/json.hpp"

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

bool parse_json(const std::string& text, Json* out, std::string* error) {
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

std::string dump_json(const Json& j, int indent) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace nicsim
