// A web server's access log, in Common Log Format or Combined (which only adds fields after the
// size), read into the requests a trace-driven run replays: which file, how many bytes. Like the
// thesis's traces (the thesis Table 4.1), only static, successful GET responses count; every other
// line is counted under the reason it was rejected, with the first few as samples. The one parser
// of the command line (--log FILE) and the browser (the engine worker feeds it the file's bytes).
//
// Bytes in, never text: a line is split at '\n' (a '\r' before it is dropped), whitespace is ASCII,
// and a chunk may end anywhere (inside a line, a UTF-8 character, the first 4 KB) with the same
// result. Nothing throws; any bytes give a report, and memory stays within the limits below.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "scenario/limits.hpp"
#include "workload/web_trace.hpp"

namespace nicsim {

// Why a line was not taken as a request (the report's names in quotes).
enum class LogReject : std::uint8_t {
  Malformed,  // "malformed": not host ident user [date] "METHOD path ..." status bytes
  NotGet,     // "not-get": HEAD, POST, ... (no file content sent)
  Dynamic,    // "dynamic": a query string or a CGI path, not a static file
  Not2xx,     // "not-2xx": errors, redirects and 304 Not Modified send no file
  NoBytes,    // "no-bytes": "-", 0, or more than kMaxRequestBytes (1 GB)
  TooLong,    // "too-long": a line over kLogMaxLineBytes
};
constexpr std::size_t kLogRejectReasons = 6;
const char* log_reject_name(LogReject r);

// Limits (all chosen). Together they bound the parser's memory: requests 8 bytes each, paths held
// once each, one line buffered; a hostile file cannot take more.
// chosen: a browser tab reads 1 GB in well under a minute; about 10 million typical log lines.
constexpr std::uint64_t kLogMaxBytes = std::uint64_t{1} << 30;
// chosen: 80 MB of requests in memory; six times Table 4.1's NASA trace (1.7 million requests),
// though short of IBM's 15.6 million.
constexpr std::uint32_t kLogMaxRequests = 10000000;
// chosen: twenty times Table 4.1's largest count of distinct files (Berkeley, 97,766); bounds
// the path index.
constexpr std::uint32_t kLogMaxFiles = 2000000;
// chosen: the total length of the distinct paths held (2 million paths of 32 bytes).
constexpr std::uint64_t kLogMaxPathBytes = std::uint64_t{64} << 20;
// chosen: Apache's default LimitRequestLine is 8190 bytes; a longer line is no log line.
constexpr std::uint32_t kLogMaxLineBytes = 8192;
// chosen: a few examples of each reason are enough to see what went wrong.
constexpr std::uint32_t kLogSamplesPerReason = 3;
constexpr std::uint32_t kLogSampleBytes = 200;         // a sample line is cut here
constexpr std::uint32_t kLogTooLongSampleBytes = 120;  // ... and an over-long one here
// chosen: a file whose first 4 KB hold more than 5% control characters (other than tab, CR,
// LF) or invalid UTF-8 is binary, not a log.
constexpr std::uint32_t kLogBinaryHeadBytes = 4096;
constexpr double kLogBinaryShare = 0.05;

// The limits a parser keeps (tests make them small).
struct AccessLogLimits {
  std::uint64_t log_bytes = kLogMaxBytes;
  std::uint32_t requests = kLogMaxRequests;
  std::uint32_t files = kLogMaxFiles;
  std::uint64_t path_bytes = kLogMaxPathBytes;
};

struct LogSample {
  std::uint64_t line = 0;  // 1-based line number in the file
  LogReject reason = LogReject::Malformed;
  std::string text;  // valid UTF-8 (invalid bytes become U+FFFD), at most kLogSampleBytes
};

struct AccessLogReport {
  std::uint64_t lines = 0;  // non-blank lines read: accepted + every rejected
  std::uint64_t accepted = 0;
  std::array<std::uint64_t, kLogRejectReasons> rejected{};  // by LogReject
  std::vector<LogSample> samples;                           // in file order
  bool truncated = false;                                   // stopped at a limit ...
  std::string limit;    // ... which: "10,000,000 requests", "the first 1024 MB", ...
  std::string refused;  // empty, or why the log cannot be used (then no request is kept)
  // Table 4.1's statistics of the accepted requests; a file's size is its largest response.
  std::uint64_t files = 0;
  std::uint64_t content_bytes = 0;
  std::uint64_t data_set_bytes = 0;
  AccessLogLimits limits;
};

struct AccessLog {
  std::vector<WebRequest> requests;  // file ids in first-seen order of their paths
  AccessLogReport report;
};

// Feed chunks split anywhere, then finish(). After finish() the parser starts over.
class AccessLogParser {
 public:
  explicit AccessLogParser(const AccessLogLimits& limits = {}) { report_.limits = limits; }
  // False once the parser takes no more input (a limit reached or the file refused): stop reading.
  bool feed(const void* data, std::size_t size);
  bool feed(std::string_view chunk) { return feed(chunk.data(), chunk.size()); }
  bool open() const { return report_.limit.empty() && report_.refused.empty(); }
  AccessLog finish();

 private:
  void decide_binary();
  void scan(const unsigned char* p, std::size_t n);
  void end_line();
  void take_line(std::string_view text);
  void reject(LogReject r, std::string_view text);
  void stop(const std::string& limit);

  AccessLogReport report_;
  std::vector<WebRequest> requests_;
  std::vector<std::uint32_t> file_bytes_;
  std::unordered_map<std::string, std::uint32_t> index_;
  std::string key_;  // the path being looked up
  std::uint64_t path_bytes_ = 0;
  std::uint64_t seen_ = 0;  // bytes taken, at most limits.log_bytes
  std::string head_;        // the first bytes, until the binary test is made
  bool decided_ = false;
  std::string line_;  // the line being read, at most kLogMaxLineBytes + 1 bytes
  bool line_too_long_ = false;
  bool line_blank_ = true;
  std::uint64_t line_no_ = 0;
};

AccessLog parse_access_log(std::string_view text, const AccessLogLimits& limits = {});

// {"lines", "accepted", "rejected": {reason: count}, "samples": [{line, reason, text}],
//  "truncated", "limit" (null or text), "refused" (null or text), "files", "content_bytes",
//  "data_set_bytes", "limits": {...}}: the same document from the CLI and the wasm module.
std::string access_log_report_json(const AccessLogReport& r);
// One line for a terminal: "120 requests to 12 files from 124 lines; 4 rejected (...)."
std::string access_log_summary(const AccessLogReport& r);
// The run's output document with the report added as its last field, "access_log".
std::string with_access_log_report(const std::string& output_json, const AccessLogReport& r);

// Why request `index` of a list given from outside (the CLI's --requests, the browser's
// setAccessLog) cannot be replayed, or "": a file id from 0 to kLogMaxFiles - 1 (what the
// parser numbers), bytes from 1 to kMaxRequestBytes.
std::string check_request(const WebRequest& r);
// The first few such requests, and a list over kLogMaxRequests, as errors of `path`.
Errors check_requests(const std::vector<WebRequest>& requests, const std::string& path);

}  // namespace nicsim
