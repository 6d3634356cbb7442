// The access-log parser: hand-written scanning of each line (linear in its length, whatever the
// bytes), following the pattern
//   host ident authuser [date] "METHOD path PROTO" status bytes [referer agent ...]
// exactly as the browser's regular expression did before it moved here:
//   ^(\S+) (\S+) (\S+) \[([^\]]+)\] "(\S+) (\S+)(?: [^"]*)?" (\d{3}) (\d+|-)(?:\s.*)?$
#include "workload/access_log.hpp"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

namespace nicsim {

namespace {

const char* const kRejectNames[kLogRejectReasons] = {"malformed", "not-get",  "dynamic",
                                                     "not-2xx",   "no-bytes", "too-long"};

bool is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

// The UTF-8 sequence at p: its length when valid (true), else the length of its maximal
// invalid prefix, at least 1 (false), as a decoder counts one U+FFFD for each. A sequence cut by
// the end of the buffer counts as invalid.
bool utf8_at(const unsigned char* p, std::size_t n, std::size_t* len) {
  const unsigned char b = p[0];
  *len = 1;
  if (b < 0x80) return true;
  std::size_t need;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) {
    need = 1;
  } else if (b >= 0xE0 && b <= 0xEF) {
    need = 2;
    if (b == 0xE0) lo = 0xA0;
    if (b == 0xED) hi = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    need = 3;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;
  } else {
    return false;
  }
  for (std::size_t k = 1; k <= need; ++k) {
    if (k >= n) return false;
    const unsigned char c = p[k];
    if (c < (k == 1 ? lo : 0x80) || c > (k == 1 ? hi : 0xBF)) return false;
    *len = k + 1;
  }
  return true;
}

// At most `max_bytes` of `text` as valid UTF-8 (whole characters; U+FFFD for invalid bytes).
std::string sample_text(std::string_view text, std::size_t max_bytes) {
  std::string out;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t len;
    const bool ok = utf8_at(p + i, text.size() - i, &len);
    if (i + len > max_bytes) break;
    if (ok) {
      out.append(text.data() + i, len);
    } else {
      out += "\xEF\xBF\xBD";
    }
    i += len;
  }
  return out;
}

// 1234567 -> "1,234,567", as the report's limits read.
std::string grouped(std::uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// "1024 MB", "64 MB", or bytes when not whole megabytes (the tests' small limits).
std::string size_text(std::uint64_t bytes) {
  if (bytes % (1 << 20) == 0) return std::to_string(bytes >> 20) + " MB";
  return grouped(bytes) + " bytes";
}

// One line's fields, when it has the pattern.
struct Fields {
  std::string_view method, path;
  int status = 0;
  std::uint64_t bytes = 0;  // "-" is 0; saturates above 2^32 - 1
};

// `" (\d{3}) (\d+|-)(?:\s.*)?$` from position k (just past the closing quote).
bool match_tail(std::string_view s, std::size_t k, Fields* f) {
  const std::size_t n = s.size();
  if (k + 5 > n || s[k] != ' ' || !is_digit(s[k + 1]) || !is_digit(s[k + 2]) ||
      !is_digit(s[k + 3]) || s[k + 4] != ' ')
    return false;
  f->status = (s[k + 1] - '0') * 100 + (s[k + 2] - '0') * 10 + (s[k + 3] - '0');
  std::size_t m = k + 5;
  f->bytes = 0;
  if (m < n && is_digit(s[m])) {
    for (; m < n && is_digit(s[m]); ++m)
      if (f->bytes <= 0xffffffffULL) f->bytes = f->bytes * 10 + (s[m] - '0');
  } else if (m < n && s[m] == '-') {
    ++m;
  } else {
    return false;
  }
  if (m == n) return true;
  // Whitespace, then anything up to the end of the line but a carriage return ('.' stops there).
  return is_space(s[m]) && s.find('\r', m + 1) == std::string_view::npos;
}

// `(\S+) ` from i: a run of non-space, then one space.
bool match_word(std::string_view s, std::size_t* i, std::string_view* word = nullptr) {
  const std::size_t start = *i;
  while (*i < s.size() && !is_space(s[*i])) ++*i;
  if (*i == start || *i >= s.size() || s[*i] != ' ') return false;
  if (word) *word = s.substr(start, *i - start);
  ++*i;
  return true;
}

bool match_line(std::string_view s, Fields* f) {
  std::size_t i = 0;
  if (!match_word(s, &i) || !match_word(s, &i) || !match_word(s, &i))
    return false;  // host ident user
  if (i >= s.size() || s[i] != '[') return false;
  const std::size_t close = s.find(']', i + 1);
  if (close == std::string_view::npos || close == i + 1) return false;
  i = close + 1;
  if (i + 1 >= s.size() || s[i] != ' ' || s[i + 1] != '"') return false;
  i += 2;
  if (!match_word(s, &i, &f->method)) return false;
  // The path is a run of non-space; the regular expression tries it longest first, then shorter
  // ones that end at a quote (a path may hold '"').
  const std::size_t ps = i;
  std::size_t e = ps;
  while (e < s.size() && !is_space(s[e])) ++e;
  if (e == ps) return false;
  if (e < s.size() && s[e] == ' ') {
    const std::size_t quote = s.find('"', e + 1);  // ` [^"]*"`: the protocol, up to the quote
    if (quote != std::string_view::npos && match_tail(s, quote + 1, f)) {
      f->path = s.substr(ps, e - ps);
      return true;
    }
  }
  for (std::size_t q = e - 1; q > ps; --q) {
    if (s[q] == '"' && match_tail(s, q + 1, f)) {
      f->path = s.substr(ps, q - ps);
      return true;
    }
  }
  return false;
}

}  // namespace

const char* log_reject_name(LogReject r) {
  const auto i = static_cast<std::size_t>(r);
  return i < kLogRejectReasons ? kRejectNames[i] : "malformed";
}

bool AccessLogParser::feed(const void* data, std::size_t size) {
  if (!open()) return false;
  const auto* p = static_cast<const unsigned char*>(data);
  if (!decided_) {
    const std::size_t take = std::min<std::size_t>(size, kLogBinaryHeadBytes - head_.size());
    head_.append(reinterpret_cast<const char*>(p), take);
    p += take;
    size -= take;
    if (head_.size() < kLogBinaryHeadBytes) return true;
    decide_binary();
    if (!open()) return false;
  }
  scan(p, size);
  return open();
}

void AccessLogParser::decide_binary() {
  decided_ = true;
  std::string head;
  head.swap(head_);
  std::size_t start = 0;
  // A byte-order mark is no part of the first line (a UTF-8 decoder drops it too).
  if (head.compare(0, 3, "\xEF\xBB\xBF") == 0) start = 3;
  const auto* p = reinterpret_cast<const unsigned char*>(head.data());
  std::size_t chars = 0, control = 0;
  for (std::size_t i = start; i < head.size();) {
    std::size_t len;
    const bool ok = utf8_at(p + i, head.size() - i, &len);
    // A character cut by the end of the head is not counted against the file.
    if (!ok && i + len == head.size() && head.size() == kLogBinaryHeadBytes) break;
    const unsigned char c = p[i];
    if (!ok || (c < 32 && c != '\t' && c != '\n' && c != '\r')) ++control;
    ++chars;
    i += len;
  }
  if (chars > 0 && static_cast<double>(control) > kLogBinaryShare * static_cast<double>(chars)) {
    report_.refused = "This is a binary file, not a text access log.";
    return;
  }
  scan(p + start, head.size() - start);
}

void AccessLogParser::scan(const unsigned char* p, std::size_t n) {
  const std::uint64_t max_bytes = report_.limits.log_bytes;
  if (seen_ + n > max_bytes) {
    // Only the first max_bytes are read; a line they cut is not read.
    scan(p, static_cast<std::size_t>(max_bytes - seen_));
    if (open()) stop("the first " + size_text(max_bytes));
    return;
  }
  seen_ += n;
  while (n > 0 && open()) {
    const auto* nl = static_cast<const unsigned char*>(std::memchr(p, '\n', n));
    const std::size_t len = nl ? static_cast<std::size_t>(nl - p) : n;
    if (line_blank_) {
      for (std::size_t k = 0; k < len; ++k) {
        if (!is_space(p[k])) {
          line_blank_ = false;
          break;
        }
      }
    }
    if (!line_too_long_) {
      const std::size_t room = kLogMaxLineBytes + 1 - line_.size();  // + 1: a '\r' may end it
      if (len <= room) {
        line_.append(reinterpret_cast<const char*>(p), len);
      } else {
        // Keep the start for the sample; the rest of the line is skipped, not held.
        line_.append(reinterpret_cast<const char*>(p), room);
        line_too_long_ = true;
      }
    }
    if (!nl) return;
    end_line();
    p = nl + 1;
    n -= len + 1;
  }
}

void AccessLogParser::end_line() {
  ++line_no_;
  if (!line_blank_) {
    std::string_view text(line_);
    if (!line_too_long_ && !text.empty() && text.back() == '\r') text.remove_suffix(1);
    ++report_.lines;
    if (line_too_long_ || text.size() > kLogMaxLineBytes)
      reject(LogReject::TooLong, text.substr(0, kLogTooLongSampleBytes));
    else
      take_line(text);
  }
  line_.clear();
  line_too_long_ = false;
  line_blank_ = true;
}

void AccessLogParser::take_line(std::string_view text) {
  Fields f;
  if (!match_line(text, &f)) return reject(LogReject::Malformed, text);
  if (f.method != "GET") return reject(LogReject::NotGet, text);
  if (f.path.find('?') != std::string_view::npos ||
      f.path.find("/cgi-bin/") != std::string_view::npos)
    return reject(LogReject::Dynamic, text);
  if (f.status < 200 || f.status > 299) return reject(LogReject::Not2xx, text);
  if (f.bytes == 0 || f.bytes > kMaxRequestBytes) return reject(LogReject::NoBytes, text);
  const auto bytes = static_cast<std::uint32_t>(f.bytes);
  std::uint32_t id;
  std::string& path = key_;  // reused: no allocation per line
  path.assign(f.path.data(), f.path.size());
  auto it = index_.find(path);
  if (it == index_.end()) {
    if (file_bytes_.size() >= report_.limits.files) {
      --report_.lines;  // the line is not read
      return stop(grouped(report_.limits.files) + " distinct files");
    }
    if (path_bytes_ + path.size() > report_.limits.path_bytes) {
      --report_.lines;
      return stop(size_text(report_.limits.path_bytes) + " of distinct paths");
    }
    id = static_cast<std::uint32_t>(file_bytes_.size());
    path_bytes_ += path.size();
    index_.emplace(path, id);
    file_bytes_.push_back(bytes);
    report_.data_set_bytes += bytes;
  } else {
    id = it->second;
    if (bytes > file_bytes_[id]) {
      report_.data_set_bytes += bytes - file_bytes_[id];
      file_bytes_[id] = bytes;
    }
  }
  const std::uint32_t max_requests = report_.limits.requests;
  if (requests_.size() == requests_.capacity())
    requests_.reserve(
        std::min<std::size_t>(std::max<std::size_t>(1024, 2 * requests_.size()), max_requests));
  requests_.push_back({id, bytes});
  ++report_.accepted;
  report_.content_bytes += bytes;
  if (requests_.size() >= max_requests) stop(grouped(max_requests) + " requests");
}

void AccessLogParser::reject(LogReject r, std::string_view text) {
  if (report_.rejected[static_cast<std::size_t>(r)]++ < kLogSamplesPerReason)
    report_.samples.push_back({line_no_, r, sample_text(text, kLogSampleBytes)});
}

void AccessLogParser::stop(const std::string& limit) {
  report_.truncated = true;
  report_.limit = limit;
}

AccessLog AccessLogParser::finish() {
  if (!decided_) decide_binary();
  // The last line, without a final newline; not when reading stopped inside it.
  if (open() && (!line_.empty() || line_too_long_)) end_line();
  AccessLog out;
  out.report = std::move(report_);
  AccessLogReport& r = out.report;
  r.files = file_bytes_.size();
  if (r.refused.empty() && r.lines == 0) r.refused = "The file is empty.";
  if (r.refused.empty() && r.accepted == 0)
    r.refused =
        "No line is a static, successful GET in Common Log Format, so there is nothing to replay.";
  if (r.refused.empty()) out.requests = std::move(requests_);
  *this = AccessLogParser(r.limits);
  return out;
}

AccessLog parse_access_log(std::string_view text, const AccessLogLimits& limits) {
  AccessLogParser p(limits);
  p.feed(text);
  return p.finish();
}

std::string access_log_report_json(const AccessLogReport& r) {
  using J = nlohmann::ordered_json;
  J rejected = J::object();
  for (std::size_t i = 0; i < kLogRejectReasons; ++i) rejected[kRejectNames[i]] = r.rejected[i];
  J samples = J::array();
  for (const LogSample& s : r.samples)
    samples.push_back({{"line", s.line}, {"reason", log_reject_name(s.reason)}, {"text", s.text}});
  J doc = {{"lines", r.lines},
           {"accepted", r.accepted},
           {"rejected", rejected},
           {"samples", samples},
           {"truncated", r.truncated},
           {"limit", r.limit.empty() ? J(nullptr) : J(r.limit)},
           {"refused", r.refused.empty() ? J(nullptr) : J(r.refused)},
           {"files", r.files},
           {"content_bytes", r.content_bytes},
           {"data_set_bytes", r.data_set_bytes},
           {"limits",
            {{"log_bytes", r.limits.log_bytes},
             {"requests", r.limits.requests},
             {"files", r.limits.files},
             {"path_bytes", r.limits.path_bytes},
             {"line_bytes", kLogMaxLineBytes}}}};
  // Samples are valid UTF-8 already; replacing is only a guard against an abort.
  return doc.dump(-1, ' ', false, J::error_handler_t::replace);
}

std::string access_log_summary(const AccessLogReport& r) {
  if (!r.refused.empty()) return r.refused;
  std::uint64_t rejected = 0;
  std::string reasons;
  for (std::size_t i = 0; i < kLogRejectReasons; ++i) {
    if (r.rejected[i] == 0) continue;
    rejected += r.rejected[i];
    reasons += (reasons.empty() ? "" : ", ") + grouped(r.rejected[i]) + " " + kRejectNames[i];
  }
  std::string out = grouped(r.accepted) + " requests to " + grouped(r.files) + " files from " +
                    grouped(r.lines) + " lines";
  if (rejected) out += "; " + grouped(rejected) + " rejected (" + reasons + ")";
  if (r.truncated) out += "; read only " + r.limit;
  return out + ".";
}

std::string with_access_log_report(const std::string& output_json, const AccessLogReport& r) {
  if (output_json.size() < 2 || output_json.front() != '{' || output_json.back() != '}')
    return output_json;
  std::string out = output_json;
  out.pop_back();
  if (out.size() > 1) out += ',';
  out += "\"access_log\":" + access_log_report_json(r) + "}";
  return out;
}

std::string check_request(const WebRequest& r) {
  if (r.file >= kLogMaxFiles)
    return "file id " + std::to_string(r.file) + " is out of range; allowed 0 to " +
           std::to_string(kLogMaxFiles - 1) + " (the distinct files a log may have)";
  if (r.bytes == 0 || r.bytes > kMaxRequestBytes)
    return std::to_string(r.bytes) + " bytes is out of range; allowed 1 to " +
           std::to_string(kMaxRequestBytes) + " (1 GB)";
  return "";
}

Errors check_requests(const std::vector<WebRequest>& requests, const std::string& path) {
  Errors errors;
  if (requests.size() > kLogMaxRequests) {
    errors.push_back({path, std::to_string(requests.size()) + " requests; at most " +
                                std::to_string(kLogMaxRequests)});
    return errors;
  }
  for (std::size_t i = 0; i < requests.size() && errors.size() < 3; ++i) {
    const std::string why = check_request(requests[i]);
    if (!why.empty()) errors.push_back({path, "request " + std::to_string(i + 1) + ": " + why});
  }
  return errors;
}

}  // namespace nicsim
