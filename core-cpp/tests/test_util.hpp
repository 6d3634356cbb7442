#pragma once
#include <fstream>
#include <sstream>
#include <string>

#include "api/api.hpp"
#include "scenario/json.hpp"

namespace nicsim::testing {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

inline std::string preset(const std::string& id) {
  return read_file(std::string(NICSIM_SCENARIOS_DIR) + "/" + id + ".json");
}

// A minimal valid scenario with the given sections merged in.
inline std::string minimal(const Json& extra = Json::object()) {
  Json doc = {{"format", 1}, {"id", "test"}, {"title", "t"}, {"summary", "s"}};
  for (auto it = extra.begin(); it != extra.end(); ++it) doc[it.key()] = it.value();
  return dump_json(doc);
}

// Runs and returns the parsed output (fails the test on errors).
inline Json run_ok(const std::string& scenario, const Json& overrides = Json::object()) {
  api::RunResult r = api::run(scenario, dump_json(overrides));
  Json out = Json::parse(r.json, nullptr, false);
  if (!r.ok) ADD_FAILURE() << r.json;
  return out;
}

inline double metric(const Json& out, const std::string& name) {
  return out["results"][name]["value"].get<double>();
}

// The core's validation errors for a scenario (and overrides), as JSON.
inline Json errors_of(const std::string& scenario, const std::string& overrides = "") {
  return Json::parse(api::validate(scenario, overrides), nullptr, false);
}

// True when some error has this path and its message contains `text`.
inline bool has_error(const Json& errors, const std::string& path, const std::string& text) {
  for (const auto& e : errors) {
    if (e["path"] == path && e["message"].get<std::string>().find(text) != std::string::npos)
      return true;
  }
  return false;
}

}  // namespace nicsim::testing
