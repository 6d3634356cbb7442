// nlohmann::json without exceptions: only non-throwing calls are used (parse with
// allow_exceptions=false, find() instead of at(), type checks before get<>).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace nicsim {

using Json = nlohmann::json;

// Parses text; on failure returns false and a message with line and column. Text nesting arrays
// and objects deeper than kMaxJsonDepth (scenario/limits.hpp) is refused before it is parsed
// (copying, comparing and dumping a value recurse once per level): the message says so and
// `deep_path`, if given, names where ("reference[0].at"; "" at the top).
bool parse_json(const std::string& text, Json* out, std::string* error,
                std::string* deep_path = nullptr);

// True when text nests arrays and objects at most max_depth deep (strings skipped, syntax not
// checked); else false and `where`, the path of the value that goes deeper ("sweep.values[0]").
bool json_depth_within(std::string_view text, std::uint32_t max_depth, std::string* where);

// Dumps compactly; invalid UTF-8 is replaced rather than aborting.
std::string dump_json(const Json& j, int indent = -1);

}  // namespace nicsim
