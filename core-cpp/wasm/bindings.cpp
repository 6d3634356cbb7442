// The embind surface: the façade and nothing else (typed by hand in web/engine/core.d.ts).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <vector>

#include "api/api.hpp"
#include "workload/access_log.hpp"

namespace {

// The last run's trace stays here until the next run; traceBytes() hands JS a copy.
std::vector<nicsim::TraceRecord>& last_trace() {
  static std::vector<nicsim::TraceRecord> trace;  // per module instance (one per worker)
  return trace;
}

// The access log the runs replay (workload.trace "log"), per module instance (one per worker),
// and the report of the parse it came from (none when it came as requests).
struct HeldLog {
  std::vector<nicsim::WebRequest> requests;
  nicsim::AccessLogReport report;
  bool parsed = false;
};
HeldLog& held_log() {
  static HeldLog log;
  return log;
}
std::vector<nicsim::WebRequest>& access_log() { return held_log().requests; }

// The parse under way: accessLogBegin(), accessLogFeed(bytes)..., accessLogFinish().
nicsim::AccessLogParser& log_parser() {
  static nicsim::AccessLogParser parser;
  return parser;
}

// files[i], bytes[i]: request i of a log parsed elsewhere. Returns the count.
double set_access_log(const emscripten::val& files, const emscripten::val& bytes) {
  const auto f = emscripten::convertJSArrayToNumberVector<std::uint32_t>(files);
  const auto b = emscripten::convertJSArrayToNumberVector<std::uint32_t>(bytes);
  HeldLog& held = held_log();
  held = HeldLog();
  held.requests.reserve(std::min(f.size(), b.size()));
  for (std::size_t i = 0; i < f.size() && i < b.size(); ++i) held.requests.push_back({f[i], b[i]});
  return static_cast<double>(held.requests.size());
}

// The last chunk, copied into the module's memory for the parser.
std::vector<unsigned char>& feed_buffer() {
  static std::vector<unsigned char> buffer;
  return buffer;
}

void access_log_begin() { log_parser() = nicsim::AccessLogParser(); }

// One chunk of the file, cut anywhere. False once the parser takes no more (stop reading).
bool access_log_feed(const emscripten::val& bytes) {
  const auto n = bytes["length"].as<std::size_t>();
  std::vector<unsigned char>& buffer = feed_buffer();
  buffer.resize(n);
  // Copied straight into the module's memory (no allocation between the view and the copy).
  emscripten::val view(emscripten::typed_memory_view(n, buffer.data()));
  view.call<void>("set", bytes);
  return log_parser().feed(buffer.data(), n);
}

// The report as JSON; an accepted log becomes the one the runs replay (a refused one leaves the
// previous log in place).
std::string access_log_finish() {
  nicsim::AccessLog log = log_parser().finish();
  std::vector<unsigned char>().swap(feed_buffer());
  const std::string json = nicsim::access_log_report_json(log.report);
  if (log.report.refused.empty()) {
    HeldLog& held = held_log();
    held.requests = std::move(log.requests);
    held.report = std::move(log.report);
    held.parsed = true;
  }
  return json;
}

// The requests the runs replay: {files: Uint32Array, bytes: Uint32Array} (copies).
emscripten::val access_log_requests() {
  const auto& req = access_log();
  std::vector<std::uint32_t> f(req.size()), b(req.size());
  for (std::size_t i = 0; i < req.size(); ++i) {
    f[i] = req[i].file;
    b[i] = req[i].bytes;
  }
  emscripten::val out = emscripten::val::object();
  out.set("files", emscripten::val::global("Uint32Array")
                       .new_(emscripten::val(emscripten::typed_memory_view(f.size(), f.data()))));
  out.set("bytes", emscripten::val::global("Uint32Array")
                       .new_(emscripten::val(emscripten::typed_memory_view(b.size(), b.data()))));
  return out;
}

// validate() with the checks of the access log this instance holds, as run() would make them.
std::string validate_run(const std::string& scenario, const std::string& overrides) {
  return nicsim::api::validate_run(scenario, overrides, &access_log());
}

std::string run(const std::string& scenario, const std::string& overrides) {
  nicsim::api::RunResult r = nicsim::api::run(scenario, overrides, &access_log());
  last_trace() = std::move(r.trace);
  // As the CLI's --log: the output carries the report of the log it was given.
  if (r.ok && held_log().parsed) return nicsim::with_access_log_report(r.json, held_log().report);
  return r.json;
}

// run() in three steps for the worker pool (web/engine/pool.ts): the main run (its trace kept
// as run's), one sweep point, and the document put together with the checks.
std::string run_main(const std::string& scenario, const std::string& overrides) {
  nicsim::api::RunResult r = nicsim::api::run_main(scenario, overrides, &access_log());
  last_trace() = std::move(r.trace);
  // The log's report goes on the complete document only (finish adds it after the sweep).
  if (r.ok && r.pending_points == 0 && held_log().parsed)
    return nicsim::with_access_log_report(r.json, held_log().report);
  return r.json;
}

std::string run_point(const std::string& scenario, const std::string& overrides, double index) {
  return nicsim::api::run_point(scenario, overrides, static_cast<std::size_t>(index), &access_log())
      .json;
}

std::string finish(const std::string& scenario, const std::string& overrides,
                   const std::string& main, const std::string& entries) {
  nicsim::api::RunResult r = nicsim::api::finish(scenario, overrides, main, entries);
  if (r.ok && held_log().parsed) return nicsim::with_access_log_report(r.json, held_log().report);
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
  emscripten::function("validateRun", &validate_run);
  emscripten::function("run", &run);
  emscripten::function("runMain", &run_main);
  emscripten::function("runPoint", &run_point);
  emscripten::function("finish", &finish);
  emscripten::function("setAccessLog", &set_access_log);
  emscripten::function("accessLogBegin", &access_log_begin);
  emscripten::function("accessLogFeed", &access_log_feed);
  emscripten::function("accessLogFinish", &access_log_finish);
  emscripten::function("accessLogRequests", &access_log_requests);
  emscripten::function("traceBytes", &trace_bytes);
  emscripten::function("traceKindNames", &nicsim::api::trace_kind_names);
  emscripten::function("componentNames", &nicsim::api::component_names);
  emscripten::function("purposeNames", &nicsim::api::purpose_names);
  emscripten::function("tigonInfo", &nicsim::api::tigon_info);
  emscripten::function("nullLoop", &null_loop);
  emscripten::function("parameterInfo", &nicsim::api::parameter_info);
}
