// The embind surface: the façade and nothing else (typed by hand in web/engine/core.d.ts).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <vector>

#include "api/api.hpp"

namespace {

// The last run's trace stays here until the next run; traceBytes() hands JS a copy.
std::vector<nicsim::TraceRecord>& last_trace() {
  static std::vector<nicsim::TraceRecord> trace;  // per module instance (one per worker)
  return trace;
}

// The access log the user opened (workload.trace "log"), kept for the runs that follow.
std::vector<nicsim::WebRequest>& access_log() {
  static std::vector<nicsim::WebRequest> log;  // per module instance (one per worker)
  return log;
}

// files[i], bytes[i]: request i (the browser parsed and checked the log). Returns the count.
double set_access_log(const emscripten::val& files, const emscripten::val& bytes) {
  const auto f = emscripten::convertJSArrayToNumberVector<std::uint32_t>(files);
  const auto b = emscripten::convertJSArrayToNumberVector<std::uint32_t>(bytes);
  auto& log = access_log();
  log.clear();
  log.reserve(std::min(f.size(), b.size()));
  for (std::size_t i = 0; i < f.size() && i < b.size(); ++i) log.push_back({f[i], b[i]});
  return static_cast<double>(log.size());
}

std::string run(const std::string& scenario, const std::string& overrides) {
  nicsim::api::RunResult r = nicsim::api::run(scenario, overrides, &access_log());
  last_trace() = std::move(r.trace);
  return r.json;
}

emscripten::val trace_bytes() {
  const auto& t = last_trace();
  const auto* bytes = reinterpret_cast<const unsigned char*>(t.data());
  emscripten::val view =
      emscripten::val(emscripten::typed_memory_view(t.size() * sizeof(nicsim::TraceRecord), bytes));
  return emscripten::val::global("Uint8Array").new_(view);  // a copy, safe after memory grows
}

double null_loop(double events) {
  return static_cast<double>(nicsim::api::null_loop(static_cast<std::uint64_t>(events)));
}

}  // namespace

EMSCRIPTEN_BINDINGS(nicsim) {
  emscripten::function("validate", &nicsim::api::validate);
  emscripten::function("run", &run);
  emscripten::function("setAccessLog", &set_access_log);
  emscripten::function("traceBytes", &trace_bytes);
  emscripten::function("traceKindNames", &nicsim::api::trace_kind_names);
  emscripten::function("componentNames", &nicsim::api::component_names);
  emscripten::function("purposeNames", &nicsim::api::purpose_names);
  emscripten::function("tigonInfo", &nicsim::api::tigon_info);
  emscripten::function("nullLoop", &null_loop);
  emscripten::function("parameterInfo", &nicsim::api::parameter_info);
}
