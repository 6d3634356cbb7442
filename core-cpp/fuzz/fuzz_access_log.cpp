// Fuzz target: the access-log parser (workload/access_log.*). Any bytes give a report; the
// report and the requests are the same whether the bytes come whole or in chunks split
// anywhere (the parser's promise); a few of the requests then drive a capped web run.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz/bounded_run.hpp"
#include "workload/access_log.hpp"

namespace {

// Small limits, so that the fuzzer reaches each of them (the parser's own defaults are tested
// by access_log_test.cpp).
nicsim::AccessLogLimits small_limits() {
  nicsim::AccessLogLimits l;
  l.log_bytes = 1 << 16;
  l.requests = 400;
  l.files = 64;
  l.path_bytes = 2048;
  return l;
}

bool same(const nicsim::AccessLog& a, const nicsim::AccessLog& b) {
  if (a.requests.size() != b.requests.size()) return false;
  for (std::size_t i = 0; i < a.requests.size(); ++i) {
    if (a.requests[i].file != b.requests[i].file || a.requests[i].bytes != b.requests[i].bytes)
      return false;
  }
  return nicsim::access_log_report_json(a.report) == nicsim::access_log_report_json(b.report);
}

// chosen: the web run replays at most this many requests, of at most this many bytes in all
// (the cache replay's time grows with the bytes).
constexpr std::size_t kRunRequests = 40;
constexpr std::uint64_t kRunBytes = std::uint64_t{16} << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nicsim::AccessLog whole = nicsim::parse_access_log(text, small_limits());

  nicsim::AccessLogParser parser(small_limits());
  const std::size_t chunk = 1 + size % 13;
  for (std::size_t at = 0; at < size; at += chunk) {
    if (!parser.feed(text.substr(at, chunk))) break;
  }
  const nicsim::AccessLog chunked = parser.finish();
  if (!same(whole, chunked)) std::abort();

  (void)nicsim::access_log_summary(whole.report);
  (void)nicsim::with_access_log_report("{\"format\":\"nicsim-results/1\"}", whole.report);

  if (whole.requests.empty() || !whole.report.refused.empty()) return 0;
  std::vector<nicsim::WebRequest> requests;
  std::uint64_t bytes = 0;
  for (const auto& r : whole.requests) {
    if (requests.size() >= kRunRequests || bytes + r.bytes > kRunBytes) break;
    bytes += r.bytes;
    requests.push_back(r);
  }
  if (requests.empty()) return 0;
  for (const auto& p : nicsim::fuzz::presets()) {
    if (p.id == "web-access-log")
      nicsim::fuzz::validate_and_run(p.text, nicsim::Json::object(), &requests);
  }
  return 0;
}
