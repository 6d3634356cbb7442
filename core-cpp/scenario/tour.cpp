#include "scenario/tour.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "scenario/params.hpp"
#include "trace/trace_kinds.hpp"

namespace nicsim {

namespace {

constexpr std::size_t kMaxSteps = 20;
constexpr std::size_t kMaxTitle = 80;
constexpr std::size_t kMaxText = 700;
constexpr std::size_t kMaxChoices = 6;
constexpr std::size_t kMaxMetrics = 6;

const std::set<std::string> kStepFields = {"title", "text",  "at_us",   "highlight",
                                           "view",  "pause", "metrics", "predict"};
const std::set<std::string> kPredictFields = {"question", "choices", "set", "reveal", "metrics"};

std::string join(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

std::string join(const std::vector<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

// 1000 → "1000", 0.5 → "0.5" (no trailing zeros in messages).
std::string number_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

bool known_metric(const std::string& name) {
  const auto& m = result_metrics();
  return std::any_of(m.begin(), m.end(), [&](const MetricInfo& x) { return name == x.name; });
}

std::set<std::string> metric_names() {
  std::set<std::string> names;
  for (const auto& x : result_metrics()) names.insert(x.name);
  return names;
}

// The scenario's own value of a parameter (its file, else the registry default).
double own_number(const TourContext& ctx, const std::string& path) {
  if (ctx.params) {
    auto it = ctx.params->find(path);
    if (it != ctx.params->end() && it->second.is_number()) return it->second.get<double>();
  }
  const ParamSpec* spec = find_param(path);
  return spec && spec->def.is_number() ? spec->def.get<double>() : 0.0;
}

void require_text(const Json& obj, const std::string& key, const std::string& path,
                  std::size_t max_len, bool required, Errors* errors) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (required) errors->push_back({path + "." + key, "is required (a string)"});
    return;
  }
  if (!it->is_string() || it->get<std::string>().empty() ||
      it->get<std::string>().size() > max_len) {
    errors->push_back(
        {path + "." + key, "must be a string of 1 to " + std::to_string(max_len) + " characters"});
  }
}

// A metric shown live: "name" (the main run) or {"metric": name, "at": {sweep point}}.
void check_metrics(const Json& list, const std::string& path, const TourContext& ctx,
                   Errors* errors) {
  if (!list.is_array() || list.empty() || list.size() > kMaxMetrics) {
    errors->push_back(
        {path, "must be an array of 1 to " + std::to_string(kMaxMetrics) +
                   " metric names (or {\"metric\", \"at\"} objects for a sweep point)"});
    return;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = path + "[" + std::to_string(i) + "]";
    const Json& m = list[i];
    const Json* name = &m;
    if (m.is_object()) {
      for (auto it = m.begin(); it != m.end(); ++it) {
        if (it.key() != "metric" && it.key() != "at")
          errors->push_back({where + "." + it.key(), "unknown field; allowed: at, metric"});
      }
      auto n = m.find("metric");
      if (n == m.end()) {
        errors->push_back({where + ".metric", "is required (a metric name)"});
        continue;
      }
      name = &*n;
      if (auto at = m.find("at"); at != m.end()) {
        const SweepSpec* sweep = ctx.sweep;
        if (!sweep || !sweep->present || !at->is_object()) {
          errors->push_back({where + ".at",
                             "must be an object naming sweep parameters, and the scenario must "
                             "have a sweep"});
        } else {
          for (auto p = at->begin(); p != at->end(); ++p) {
            const std::vector<Json>* values = nullptr;
            if (p.key() == sweep->parameter) values = &sweep->values;
            if (p.key() == sweep->series_parameter) values = &sweep->series_values;
            if (!values) {
              errors->push_back(
                  {where + ".at." + p.key(), "must be the sweep parameter '" + sweep->parameter +
                                                 (sweep->series_parameter.empty()
                                                      ? "'"
                                                      : "' or '" + sweep->series_parameter + "'")});
            } else if (std::find(values->begin(), values->end(), p.value()) == values->end()) {
              errors->push_back({where + ".at." + p.key(), "value " + dump_json(p.value()) +
                                                               " is not among the sweep's values"});
            }
          }
          if (at->find(sweep->parameter) == at->end() ||
              (!sweep->series_parameter.empty() &&
               at->find(sweep->series_parameter) == at->end())) {
            errors->push_back({where + ".at", "must give a value for every sweep parameter"});
          }
        }
      }
    }
    if (!name->is_string() || !known_metric(name->get<std::string>())) {
      errors->push_back({m.is_object() ? where + ".metric" : where,
                         "unknown metric " +
                             (name->is_string() ? "'" + name->get<std::string>() + "'"
                                                : std::string("(not a string)")) +
                             "; allowed: " + join(metric_names())});
    }
  }
}

// The variant a predict step runs: known parameters with allowed values, and a config (and every
// sweep point of it) the core accepts, so "Run it" never fails in front of the class.
void check_set(const Json& set, const std::string& path, const TourContext& ctx, Errors* errors) {
  if (!set.is_object() || set.empty()) {
    errors->push_back({path, "must be an object of 1 or more parameter path → value"});
    return;
  }
  std::map<std::string, Json> params = ctx.params ? *ctx.params : std::map<std::string, Json>{};
  bool ok = true;
  for (auto it = set.begin(); it != set.end(); ++it) {
    const ParamSpec* spec = find_param(it.key());
    if (!spec) {
      errors->push_back({path + "." + it.key(), "unknown parameter '" + it.key() +
                                                    "'; see --list-parameters for the allowed "
                                                    "paths"});
      ok = false;
      continue;
    }
    const std::string msg = check_param_value(*spec, it.value());
    if (!msg.empty()) {
      errors->push_back({path + "." + it.key(), msg});
      ok = false;
      continue;
    }
    params[it.key()] = it.value();
  }
  if (!ok) return;
  Config unused;
  if (!build_config(ctx.params ? *ctx.params : params, "", &unused).empty())
    return;  // the scenario itself is invalid: its own errors say why
  Errors e = build_config(params, "", &unused);
  const SweepSpec* sweep = ctx.sweep;
  if (e.empty() && sweep && sweep->present) {
    std::vector<Json> series = sweep->series_values;
    if (series.empty()) series.push_back(Json());
    for (const auto& s : series) {
      for (const auto& v : sweep->values) {
        auto p = params;
        p[sweep->parameter] = v;
        std::string ctx_text = "sweep point " + sweep->parameter + "=" + dump_json(v);
        if (!s.is_null()) {
          p[sweep->series_parameter] = s;
          ctx_text += ", " + sweep->series_parameter + "=" + dump_json(s);
        }
        Errors pe = build_config(p, ctx_text, &unused);
        e.insert(e.end(), pe.begin(), pe.end());
        if (e.size() > 5) break;
      }
      if (e.size() > 5) break;
    }
  }
  for (auto& x : e) {
    x.message = "the variant is not a valid run: " + x.path + " " + x.message;
    x.path = path;
    errors->push_back(x);
  }
}

void check_predict(const Json& p, const std::string& path, const TourContext& ctx, Errors* errors) {
  if (!p.is_object()) {
    errors->push_back({path, "must be an object with fields " + join(kPredictFields)});
    return;
  }
  for (auto it = p.begin(); it != p.end(); ++it) {
    if (kPredictFields.count(it.key()) == 0)
      errors->push_back({path + "." + it.key(), "unknown field; allowed: " + join(kPredictFields)});
  }
  require_text(p, "question", path, kMaxText, true, errors);
  require_text(p, "reveal", path, kMaxText, true, errors);
  if (auto c = p.find("choices"); c != p.end()) {
    bool ok = c->is_array() && c->size() >= 2 && c->size() <= kMaxChoices;
    if (ok) {
      for (const auto& x : *c) ok = ok && x.is_string() && !x.get<std::string>().empty();
    }
    if (!ok)
      errors->push_back(
          {path + ".choices",
           "must be an array of 2 to " + std::to_string(kMaxChoices) + " non-empty strings"});
  }
  if (auto s = p.find("set"); s != p.end()) check_set(*s, path + ".set", ctx, errors);
  if (auto m = p.find("metrics"); m != p.end()) check_metrics(*m, path + ".metrics", ctx, errors);
}

void check_step(const Json& step, const std::string& path, const TourContext& ctx, Errors* errors) {
  if (!step.is_object()) {
    errors->push_back({path, "must be an object with fields " + join(kStepFields)});
    return;
  }
  for (auto it = step.begin(); it != step.end(); ++it) {
    if (kStepFields.count(it.key()) == 0)
      errors->push_back({path + "." + it.key(), "unknown field; allowed: " + join(kStepFields)});
  }
  require_text(step, "title", path, kMaxTitle, true, errors);
  require_text(step, "text", path, kMaxText, true, errors);
  if (auto at = step.find("at_us"); at != step.end()) {
    const double start = own_number(ctx, "run.trace.start_us");
    const double end = own_number(ctx, "run.trace.end_us");
    const std::string window = number_text(start) + "–" + number_text(end) + " µs";
    if (!at->is_number() || !std::isfinite(at->get<double>())) {
      errors->push_back({path + ".at_us", "must be a number within the trace window " + window});
    } else if (at->get<double>() < start || at->get<double>() > end) {
      errors->push_back({path + ".at_us", "must be within the trace window " + window + ", got " +
                                              number_text(at->get<double>())});
    }
  }
  if (auto h = step.find("highlight"); h != step.end()) {
    if (!h->is_array()) {
      errors->push_back({path + ".highlight", "must be an array of parts: " + join(tour_parts())});
    } else {
      for (std::size_t i = 0; i < h->size(); ++i) {
        const Json& x = (*h)[i];
        if (!x.is_string() || tour_parts().count(x.get<std::string>()) == 0) {
          errors->push_back({path + ".highlight[" + std::to_string(i) + "]",
                             "unknown part " +
                                 (x.is_string() ? "'" + x.get<std::string>() + "'"
                                                : std::string("(not a string)")) +
                                 "; allowed: " + join(tour_parts())});
        }
      }
    }
  }
  if (auto v = step.find("view"); v != step.end()) {
    const bool own = ctx.views && !ctx.views->empty();
    const bool ok = v->is_string() && (own ? std::find(ctx.views->begin(), ctx.views->end(),
                                                       v->get<std::string>()) != ctx.views->end()
                                           : allowed_views().count(v->get<std::string>()) > 0);
    if (!ok) {
      errors->push_back({path + ".view", "must be one of the views the scenario opens: " +
                                             (own ? join(*ctx.views) : join(allowed_views()))});
    }
  }
  if (auto p = step.find("pause"); p != step.end() && !p->is_boolean()) {
    errors->push_back({path + ".pause", "must be true or false"});
  }
  if (auto m = step.find("metrics"); m != step.end())
    check_metrics(*m, path + ".metrics", ctx, errors);
  if (auto p = step.find("predict"); p != step.end())
    check_predict(*p, path + ".predict", ctx, errors);
}

}  // namespace

const std::set<std::string>& tour_parts() {
  static const std::set<std::string> parts = [] {
    std::set<std::string> s = {"memory",  "send_ring", "receive_ring", "return_ring",
                               "mailbox", "tx_buffer", "rx_buffer",    "interrupt"};
#define NICSIM_X(name, str) s.insert(str);
    NICSIM_COMPONENTS(NICSIM_X)
#undef NICSIM_X
    return s;
  }();
  return parts;
}

void check_tour(const Json& tour, const TourContext& ctx, Errors* errors) {
  if (!tour.is_array() || tour.empty() || tour.size() > kMaxSteps) {
    errors->push_back({"tour", "must be an array of 1 to " + std::to_string(kMaxSteps) + " steps"});
    return;
  }
  for (std::size_t i = 0; i < tour.size(); ++i)
    check_step(tour[i], "tour[" + std::to_string(i) + "]", ctx, errors);
}

Json tour_schema() {
  Json metric_names = Json::array();
  for (const auto& m : result_metrics()) metric_names.push_back(m.name);
  // The metric list appears once; the other places refer to it (the schema stays short).
  const std::string at = "#/properties/tour/items/properties/metrics";
  const Json metric = {
      {"oneOf",
       {{{"enum", metric_names}},
        {{"type", "object"},
         {"additionalProperties", false},
         {"required", {"metric"}},
         {"properties",
          {{"metric", {{"$ref", at + "/items/oneOf/0"}}},
           {"at",
            {{"type", "object"},
             {"description", "sweep parameter → value of the sweep point shown"}}}}}}}}};
  const Json metrics = {{"type", "array"},
                        {"minItems", 1},
                        {"maxItems", kMaxMetrics},
                        {"items", metric},
                        {"description", "result metrics shown live from the run"}};
  const Json text = [](std::size_t max) {
    return Json{{"type", "string"}, {"minLength", 1}, {"maxLength", max}};
  }(kMaxText);
  const Json predict = {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"question", "reveal"}},
      {"properties",
       {{"question", text},
        {"choices",
         {{"type", "array"},
          {"minItems", 2},
          {"maxItems", kMaxChoices},
          {"items", {{"type", "string"}, {"minLength", 1}}}}},
        {"set",
         {{"type", "object"},
          {"minProperties", 1},
          {"description", "parameter path → value: the variant \"Run it\" runs"}}},
        {"reveal", text},
        {"metrics", {{"$ref", at}}}}}};
  const Json step = {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"title", "text"}},
      {"properties",
       {{"title", {{"type", "string"}, {"minLength", 1}, {"maxLength", kMaxTitle}}},
        {"text", text},
        {"at_us",
         {{"type", "number"},
          {"minimum", 0},
          {"description", "cursor time, within the scenario's trace window (run.trace)"}}},
        {"highlight",
         {{"type", "array"},
          {"items",
           {{"enum", Json(std::vector<std::string>(tour_parts().begin(), tour_parts().end()))}}}}},
        {"view",
         {{"enum",
           Json(std::vector<std::string>(allowed_views().begin(), allowed_views().end()))}}},
        {"pause",
         {{"type", "boolean"},
          {"description", "true (default): the step pauses playback; false: it plays from at_us"}}},
        {"metrics", metrics},
        {"predict", predict}}}};
  return {{"type", "array"}, {"minItems", 1}, {"maxItems", kMaxSteps}, {"items", step}};
}

}  // namespace nicsim
