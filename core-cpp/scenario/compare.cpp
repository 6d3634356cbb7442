#include "scenario/compare.hpp"

#include <set>

#include "scenario/params.hpp"
#include "scenario/scenario.hpp"

namespace nicsim {
namespace {

// Long enough for "PARALLEL, SRAM-BOTH" or "16 MB cache", short enough for a column heading.
constexpr std::size_t kMaxLabel = 40;

std::string joined(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

// One variant: {label, set}. Fills `set` with the valid settings; returns false on any error.
bool check_variant(const Json& v, const std::string& path, std::string* label,
                   std::map<std::string, Json>* set, Errors* errors) {
  if (!v.is_object()) {
    errors->push_back({path, "must be an object with fields label, set"});
    return false;
  }
  const std::size_t before = errors->size();
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it.key() != "label" && it.key() != "set") {
      errors->push_back({path + "." + it.key(), "unknown field; allowed: label, set"});
    }
  }
  auto l = v.find("label");
  if (l == v.end() || !l->is_string() || l->get<std::string>().empty() ||
      l->get<std::string>().size() > kMaxLabel) {
    errors->push_back({path + ".label", "is required: a string of 1 to " +
                                            std::to_string(kMaxLabel) + " characters"});
  } else {
    *label = l->get<std::string>();
  }
  if (auto s = v.find("set"); s != v.end()) {
    if (!s->is_object()) {
      errors->push_back({path + ".set", "must be an object of parameter path → value"});
    } else {
      for (auto it = s->begin(); it != s->end(); ++it) {
        const ParamSpec* spec = find_param(it.key());
        if (spec == nullptr) {
          errors->push_back({path + ".set", "unknown parameter '" + it.key() +
                                                "'; see --list-parameters for the allowed paths"});
          continue;
        }
        // The point of A/B is one difference under the same random draws.
        if (it.key() == "run.seed") {
          errors->push_back({path + ".set.run.seed",
                             "cannot be set: both variants run with the scenario's seed"});
          continue;
        }
        const std::string msg = check_param_value(*spec, it.value());
        if (!msg.empty()) {
          errors->push_back({path + ".set." + it.key(), msg});
          continue;
        }
        (*set)[it.key()] = it.value();
      }
    }
  }
  return errors->size() == before;
}

}  // namespace

void check_compare(const Json& compare, const std::map<std::string, Json>& params, Errors* errors) {
  static const std::set<std::string> kFields = {"a", "b", "metrics", "note"};
  if (!compare.is_object()) {
    errors->push_back(
        {"compare", "must be an object with fields a, b (and optional metrics, note)"});
    return;
  }
  const std::size_t before = errors->size();
  for (auto it = compare.begin(); it != compare.end(); ++it) {
    if (kFields.count(it.key()) == 0) {
      errors->push_back({"compare." + it.key(), "unknown field; allowed: " + joined(kFields)});
    }
  }
  if (auto n = compare.find("note"); n != compare.end() && !n->is_string()) {
    errors->push_back({"compare.note", "must be a string"});
  }
  if (auto m = compare.find("metrics"); m != compare.end()) {
    std::set<std::string> names;
    for (const auto& x : result_metrics()) names.insert(x.name);
    if (!m->is_array() || m->empty() || m->size() > 12) {
      errors->push_back({"compare.metrics", "must be an array of 1 to 12 metric names"});
    } else {
      for (std::size_t i = 0; i < m->size(); ++i) {
        const Json& x = (*m)[i];
        if (!x.is_string() || names.count(x.get<std::string>()) == 0) {
          errors->push_back({"compare.metrics[" + std::to_string(i) + "]",
                             "unknown metric " + dump_json(x) + "; allowed: " + joined(names)});
        }
      }
    }
  }
  std::string label[2];
  std::map<std::string, Json> set[2];
  bool ok[2] = {false, false};
  const char* side[2] = {"a", "b"};
  for (int k = 0; k < 2; ++k) {
    const std::string path = std::string("compare.") + side[k];
    auto v = compare.find(side[k]);
    if (v == compare.end()) {
      errors->push_back({path, "is required: an object with fields label, set"});
      continue;
    }
    ok[k] = check_variant(*v, path, &label[k], &set[k], errors);
  }
  if (!ok[0] || !ok[1]) return;
  if (label[0] == label[1]) {
    errors->push_back({"compare.b.label", "must differ from compare.a.label (\"" + label[0] +
                                              "\"): the labels tell the two sides apart"});
  }
  // Each variant's parameters: the scenario's, then its own settings.
  std::map<std::string, Json> full[2] = {params, params};
  for (int k = 0; k < 2; ++k) {
    for (const auto& [path, value] : set[k]) full[k][path] = value;
  }
  // A setting equal to the default and no setting at all are the same run.
  auto value_of = [](const std::map<std::string, Json>& p, const std::string& path) {
    auto it = p.find(path);
    return it != p.end() ? it->second : find_param(path)->def;
  };
  bool differ = false;
  for (int k = 0; k < 2 && !differ; ++k) {
    for (const auto& [path, value] : set[k]) {
      if (value_of(full[0], path) != value_of(full[1], path)) differ = true;
    }
  }
  if (!differ) {
    errors->push_back({"compare.b.set",
                       "gives the same parameters as compare.a.set: nothing to "
                       "compare; set at least one parameter to another value"});
  }
  // Each variant must be a valid run, so the A/B view never fails half-way. Only checked when the
  // scenario itself builds (else its own errors, reported by load_scenario, would repeat here).
  if (errors->size() != before) return;
  Config scenario_config;
  if (!build_config(params, "", &scenario_config).empty()) return;
  for (int k = 0; k < 2; ++k) {
    Config unused;
    Errors e =
        build_config(full[k], std::string("compare.") + side[k] + " \"" + label[k] + "\"", &unused);
    errors->insert(errors->end(), e.begin(), e.end());
  }
}

Json compare_schema(const Json& paths, const Json& metrics) {
  const Json variant = {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"label"}},
      {"properties",
       {{"label",
         {{"type", "string"},
          {"minLength", 1},
          {"maxLength", kMaxLabel},
          {"description", "the column heading of this side (\"RELEASE\", \"16 MB cache\")"}}},
        {"set",
         {{"type", "object"},
          {"description",
           "parameter path → value this side runs with (an overrides object; run.seed excluded: "
           "both sides share the scenario's seed)"},
          {"propertyNames", {{"enum", paths}, {"not", {{"const", "run.seed"}}}}}}}}}};
  return {{"type", "object"},
          {"additionalProperties", false},
          {"required", {"a", "b"}},
          {"description",
           "two variants of this scenario for the A/B view, run with the same seed side by side"},
          {"properties",
           {{"note", {{"type", "string"}, {"description", "what the comparison shows"}}},
            {"metrics",
             {{"type", "array"},
              {"minItems", 1},
              {"maxItems", 12},
              {"items", {{"enum", metrics}}},
              {"description", "the results the differences table lists first"}}},
            {"a", variant},
            {"b", variant}}}};
}

}  // namespace nicsim
