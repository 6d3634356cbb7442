// nlohmann::json without exceptions: only non-throwing calls are used (parse with
// allow_exceptions=false, find() instead of at(), type checks before get<>).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace nicsim {

using Json = nlohmann::json;

// Parses text; on failure returns false and a message with line and column.
bool parse_json(const std::string& text, Json* out, std::string* error);

// Dumps compactly; invalid UTF-8 is replaced rather than aborting.
std::string dump_json(const Json& j, int indent = -1);

}  // namespace nicsim
