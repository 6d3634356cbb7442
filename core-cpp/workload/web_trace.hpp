// Synthetic web traces standing in for the five traces of the thesis Table 4.1 (Berkeley, IBM,
// NASA, Rice, World Cup), which are not public in full. Each is built from a seeded Rng to have
// Table 4.1's distinct file count, data set size, total request count and average response
// size, with a file-size distribution and a popularity distribution whose shape parameters
// were FITTED so that the cache-only simulator (nic/cache/cache_sim.hpp) reproduces the
// thesis's content-traffic reductions (Table 4.4 and Fig 4.3). See web_trace.cpp for the
// fitted values and what each reproduces; fitted_parameters() returns them as a table.
//
// The model, per trace (every step integer or IEEE-exact arithmetic, so native and wasm agree):
//  - file sizes: lognormal with spread `size_sigma`, clamped at +-3 sigma, scaled so that they
//    sum to the data set size exactly;
//  - popularity: Zipf-Mandelbrot (rank r from 1 weighs (r + zipf_offset)^-zipf_alpha), every
//    file requested at least once (Table 4.1 counts distinct files that were requested), the
//    rest of the requests apportioned by weight with random rounding;
//  - size-popularity correlation: files are paired with popularity ranks by a noisy sort whose
//    mix (-1: the most popular are the smallest, 0: independent, +1: the most popular are the
//    largest) is solved by bisection so the average response size is Table 4.1's: derived,
//    not fitted;
//  - optionally a few large popular files outside the Zipf body (NASA: see web_trace.cpp);
//  - order: each request gets a random time; with probability `locality` a file's next request
//    instead follows its previous one 1 to `locality_window` requests later (log-uniformly):
//    short-term temporal locality, which is what makes two half-traffic caches slightly worse
//    than one (§4.2).
//
// A scaled trace (`requests` below the published total) is the first `requests` of the full
// trace: the same popularity and locality, fewer distinct files and a smaller data set touched.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "sim/status.hpp"

namespace nicsim {

// One request of a trace: the file and the response content bytes (from offset 0). An uploaded
// Common Log Format log, parsed in the browser, becomes a vector of these (one file id per
// distinct URL, bytes from the size field).
struct WebRequest {
  std::uint32_t file = 0;
  std::uint32_t bytes = 0;
};

enum class WebTraceId : std::uint8_t { Berkeley, Ibm, Nasa, Rice, WorldCup };
constexpr std::array<WebTraceId, 5> kWebTraces = {WebTraceId::Berkeley, WebTraceId::Ibm,
                                                  WebTraceId::Nasa, WebTraceId::Rice,
                                                  WebTraceId::WorldCup};
const char* web_trace_name(WebTraceId t);  // "berkeley", "ibm", "nasa", "rice", "worldcup"
bool web_trace_from_name(const std::string& name, WebTraceId* out);

// Table 4.1 [EXACT]. Its "MB" are 10^6 bytes: total response bytes / total requests is the
// average response size only so (e.g. NASA 96,069e6 / 1,685,904 = 56,983).
struct PublishedTraceStatistics {
  const char* title;
  std::uint64_t total_response_bytes;
  std::uint32_t average_response_bytes;
  std::uint64_t data_set_bytes;
  std::uint64_t total_requests;
  std::uint32_t distinct_files;
};
const PublishedTraceStatistics& published_statistics(WebTraceId t);

// The fitted shape of one trace (values, and what each reproduces, in web_trace.cpp).
struct WebTraceModel {
  double zipf_alpha;
  double zipf_offset;              // the weight of rank r (from 1) is (r + offset)^-alpha
  double size_sigma;               // of the natural log of file sizes
  double locality;                 // probability a request follows its file's previous one
  std::uint32_t locality_window;   // ... at most this many requests later
  std::uint32_t large_files;       // large popular files outside the Zipf body
  std::uint32_t large_file_bytes;  // each
  double large_file_share;         // of all requests, split evenly among them
};
const WebTraceModel& fitted_model(WebTraceId t);

// One row of the parameter table returned with a trace.
struct TraceParameter {
  std::string name;
  double value;
  std::string unit;
  std::string source;  // "thesis Table 4.1", "chosen: fitted to ...", "derived: ..."
};
std::vector<TraceParameter> fitted_parameters(WebTraceId t);

struct WebTraceConfig {
  WebTraceId trace = WebTraceId::Nasa;
  std::uint64_t seed = 1;  // workload.trace_seed; the fit was made with seed 1
  // 0 = Table 4.1's total. Fewer = the first `requests` of the full trace (faster; the full
  // IBM trace has 15.6 million requests and needs ~16 bytes each while being generated).
  std::uint64_t requests = 0;
};
Errors validate(const WebTraceConfig& c, const std::string& prefix = "workload.trace");

// Statistics of a request list, in Table 4.1's terms.
struct TraceSummary {
  std::uint64_t requests = 0;
  std::uint64_t distinct_files = 0;
  std::uint64_t data_set_bytes = 0;  // total size of the distinct files requested
  std::uint64_t total_response_bytes = 0;
  double average_response_bytes = 0;
};
// Files' sizes are taken as the largest response seen for them (an uploaded log has no other).
TraceSummary summarize(const std::vector<WebRequest>& requests);

struct WebTrace {
  std::string name;
  std::vector<std::uint32_t> file_bytes;  // by file id (every file of the data set)
  std::vector<WebRequest> requests;
  std::vector<TraceParameter> parameters;  // the table: Table 4.1, fitted, derived
  double size_correlation = 0;             // the derived mix (see above)
  TraceSummary summary;                    // of `requests`
};
// `config` must pass validate().
WebTrace generate_web_trace(const WebTraceConfig& config);

// Generated traces kept by (trace, seed, requests). Generation walks the whole of Table 4.1's
// request count, so a sweep of cache sizes, or a re-run after moving the cache-size knob, reuses
// a trace rather than make it again; it is a pure function of the key, so results are the same.
// The least recently used traces go once more than `max_requests` requests are held.
class WebTraceCache {
 public:
  explicit WebTraceCache(std::uint64_t max_requests = 4000000) : max_requests_(max_requests) {}
  std::shared_ptr<const WebTrace> get(const WebTraceConfig& config);
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::tuple<int, std::uint64_t, std::uint64_t> key;
    std::shared_ptr<const WebTrace> trace;
  };
  std::uint64_t max_requests_;
  std::vector<Entry> entries_;  // most recently used last; a handful at most
};
// The calling thread's cache (one per thread: api::run's workers natively, one wasm worker).
WebTraceCache& shared_web_trace_cache();

// The same generator with a model of one's own (the fitting tool; the parameter lab).
WebTrace generate_web_trace(const WebTraceConfig& config, const WebTraceModel& model);

}  // namespace nicsim
