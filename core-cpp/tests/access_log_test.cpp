// The access-log parser (workload/access_log.hpp): every rule and reason of Common and Combined
// Log Format lines, the report, chunks cut anywhere, the limits, refusals, and any bytes at all.
#include "workload/access_log.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "scenario/json.hpp"

namespace nicsim {
namespace {

std::string line(const std::string& path, int status = 200, const std::string& bytes = "1000",
                 const std::string& method = "GET") {
  return "host1 - - [01/Jul/1995:00:00:01 -0400] \"" + method + " " + path + " HTTP/1.0\" " +
         std::to_string(status) + " " + bytes;
}

std::uint64_t rejected(const AccessLog& log, LogReject r) {
  return log.report.rejected[static_cast<std::size_t>(r)];
}

std::uint64_t rejected_total(const AccessLog& log) {
  std::uint64_t n = 0;
  for (auto c : log.report.rejected) n += c;
  return n;
}

// What a parse gives, as one comparable text: the report and every request.
std::string result(const AccessLog& log) {
  std::string out = access_log_report_json(log.report);
  for (const WebRequest& r : log.requests)
    out += " " + std::to_string(r.file) + ":" + std::to_string(r.bytes);
  return out;
}

AccessLog parse_in_chunks(const std::string& text, const std::vector<std::size_t>& cuts,
                          const AccessLogLimits& limits = {}) {
  AccessLogParser p(limits);
  std::size_t at = 0;
  for (std::size_t cut : cuts) {
    if (cut < at || cut > text.size()) continue;
    p.feed(text.data() + at, cut - at);
    at = cut;
  }
  p.feed(text.data() + at, text.size() - at);
  return p.finish();
}

bool valid_utf8(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

// What holds for any input: every line counted once, the samples bounded and printable, the
// report valid JSON, the requests consistent with it.
void expect_sound(const AccessLog& log) {
  const AccessLogReport& r = log.report;
  EXPECT_EQ(r.lines, r.accepted + rejected_total(log));
  EXPECT_LE(r.samples.size(), kLogRejectReasons * kLogSamplesPerReason);
  for (const LogSample& s : r.samples) {
    EXPECT_LE(s.text.size(), kLogSampleBytes);
    EXPECT_TRUE(valid_utf8(s.text));
  }
  if (r.refused.empty()) {
    EXPECT_EQ(log.requests.size(), r.accepted);
    EXPECT_GT(r.accepted, 0u);
  } else {
    EXPECT_TRUE(log.requests.empty());
  }
  Json doc;
  std::string error;
  EXPECT_TRUE(parse_json(access_log_report_json(r), &doc, &error)) << error;
}

TEST(AccessLog, TakesStaticSuccessfulGetsOneFilePerPathSizedByItsLargestResponse) {
  const AccessLog log =
      parse_access_log(line("/a.html", 200, "500") + "\n" + line("/b.gif", 200, "7000") + "\n" +
                       line("/a.html", 200, "800") + "\n");
  EXPECT_EQ(log.report.refused, "");
  EXPECT_EQ(log.report.lines, 3u);
  EXPECT_EQ(log.report.accepted, 3u);
  ASSERT_EQ(log.requests.size(), 3u);
  EXPECT_EQ(log.requests[0].file, 0u);
  EXPECT_EQ(log.requests[1].file, 1u);
  EXPECT_EQ(log.requests[2].file, 0u);
  EXPECT_EQ(log.requests[0].bytes, 500u);
  EXPECT_EQ(log.requests[1].bytes, 7000u);
  EXPECT_EQ(log.requests[2].bytes, 800u);
  // Table 4.1's statistics, as the runs count a trace.
  const TraceSummary s = summarize(log.requests);
  EXPECT_EQ(log.report.files, 2u);
  EXPECT_EQ(log.report.files, s.distinct_files);
  EXPECT_EQ(log.report.content_bytes, 8300u);
  EXPECT_EQ(log.report.content_bytes, s.total_response_bytes);
  EXPECT_EQ(log.report.data_set_bytes, 7800u);
  EXPECT_EQ(log.report.data_set_bytes, s.data_set_bytes);
  expect_sound(log);
}

TEST(AccessLog, CountsEveryRejectedLineUnderItsReasonWithSamples) {
  const std::vector<std::string> lines = {line("/ok"),
                                          "garbage line",
                                          line("/x", 200, "10", "POST"),
                                          line("/search?q=1"),
                                          line("/cgi-bin/counter"),
                                          line("/missing", 404, "200"),
                                          line("/cached", 304, "-"),
                                          line("/empty", 200, "-"),
                                          line("/zero", 200, "0"),
                                          ""};
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i)
    text += lines[i] + (i + 1 < lines.size() ? "\r\n" : "");
  const AccessLog log = parse_access_log(text);
  EXPECT_EQ(log.report.accepted, 1u);
  EXPECT_EQ(log.report.lines, 9u);
  EXPECT_EQ(rejected(log, LogReject::Malformed), 1u);
  EXPECT_EQ(rejected(log, LogReject::NotGet), 1u);
  EXPECT_EQ(rejected(log, LogReject::Dynamic), 2u);
  EXPECT_EQ(rejected(log, LogReject::Not2xx), 2u);
  EXPECT_EQ(rejected(log, LogReject::NoBytes), 2u);
  EXPECT_EQ(rejected(log, LogReject::TooLong), 0u);
  ASSERT_EQ(log.report.samples.size(), 8u);
  EXPECT_EQ(log.report.samples[0].line, 2u);
  EXPECT_EQ(log.report.samples[0].reason, LogReject::Malformed);
  EXPECT_EQ(log.report.samples[0].text, "garbage line");  // without its '\r'
  EXPECT_EQ(access_log_summary(log.report),
            "1 requests to 1 files from 9 lines; 8 rejected (1 malformed, 1 not-get, 2 dynamic, "
            "2 not-2xx, 2 no-bytes).");
  expect_sound(log);
}

TEST(AccessLog, KeepsThreeSamplesPerReasonWithTheirLineNumbersInTheFile) {
  std::string text = line("/ok") + "\n\n   \n";  // blank lines are not counted, but numbered
  for (int i = 0; i < 10; ++i) text += "junk " + std::to_string(i) + "\n";
  const AccessLog log = parse_access_log(text);
  EXPECT_EQ(log.report.lines, 11u);
  EXPECT_EQ(rejected(log, LogReject::Malformed), 10u);
  ASSERT_EQ(log.report.samples.size(), 3u);
  EXPECT_EQ(log.report.samples[0].line, 4u);
  EXPECT_EQ(log.report.samples[2].line, 6u);
  EXPECT_EQ(log.report.samples[2].text, "junk 2");
}

TEST(AccessLog, ReadsTheCombinedFormatWhichAddsRefererAndAgent) {
  const AccessLog log = parse_access_log(line("/c.html") + " \"http://x/\" \"Mozilla/4.0\"");
  EXPECT_EQ(log.report.accepted, 1u);
  EXPECT_EQ(log.report.lines, 1u);  // a last line without its newline counts
}

// The pattern, corner by corner, as the browser's regular expression read it.
TEST(AccessLog, FollowsThePatternExactly) {
  struct Case {
    std::string text;
    const char* outcome;  // "ok" or a reason
  };
  const std::string date = "[10/Oct/2000:13:55:36 -0700]";
  const std::vector<Case> cases = {
      {"h i u " + date + " \"GET /a HTTP/1.0\" 200 5", "ok"},
      {"h i u " + date + " \"GET /a\" 200 5", "ok"},                 // no protocol
      {"h i u " + date + " \"GET /a HTTP/1.0 extra\" 200 5", "ok"},  // anything to the quote
      {"h i u " + date + " \"GET /a\"b HTTP/1.0\" 200 5", "ok"},     // a quote inside the path
      {"h i u " + date + " \"GET /a\" 200 0005", "ok"},              // leading zeros
      {"h i u " + date + " \"GET /a\" 200 5\tx", "ok"},              // any whitespace, then
      {"h i u " + date + " \"GET /a\" 200 1073741824", "ok"},        // the largest size
      {"h i u " + date + " \"GET /a\" 200 1073741825", "no-bytes"},  // kMaxRequestBytes
      {"h i u " + date + " \"GET /a\" 200 4294967296", "no-bytes"},
      {"h i u " + date + " \"GET /a\" 200 99999999999999999999999", "no-bytes"},
      {"h i u " + date + " \"GET /a\" 200 5x", "malformed"},
      {"h i u " + date + " \"GET /a\" 200 -x", "malformed"},
      {"h i u " + date + " \"GET /a\" 200 5 a\rb", "malformed"},  // '.' stops at a CR
      {"h i u " + date + " \"GET /a\" 2000 5", "malformed"},
      {"h i u " + date + " \"GET /a\" 20 5", "malformed"},
      {"h i u " + date + " \"GET /a\" 200  5", "malformed"},
      {"h i u " + date + " \"GET /a\" 200", "malformed"},
      {"h i u " + date + " \"GET /a\" 200 ", "malformed"},
      {"h\ti u " + date + " \"GET /a\" 200 5", "malformed"},  // fields apart by one space
      {"h i " + date + " \"GET /a\" 200 5", "malformed"},
      {" h i u " + date + " \"GET /a\" 200 5", "malformed"},
      {"h i u [] \"GET /a\" 200 5", "malformed"},
      {"h i u [x \"GET /a\" 200 5", "malformed"},
      {"h i u " + date + "\"GET /a\" 200 5", "malformed"},
      {"h i u " + date + " \"GET\" 200 5", "malformed"},
      {"h i u " + date + " \"GET  /a\" 200 5", "malformed"},
      {"h i u " + date + " GET /a 200 5", "malformed"},
      {"h i u " + date + " \"get /a\" 200 5", "not-get"},
      {"h i u " + date + " \"HEAD /a\" 200 5", "not-get"},
      {"h i u " + date + " \"GET /a?x\" 200 5", "dynamic"},
      {"h i u " + date + " \"GET /x/cgi-bin/y\" 200 5", "dynamic"},
      {"h i u " + date + " \"GET /cgi-binary\" 200 5", "ok"},
      {"h i u " + date + " \"GET /a\" 199 5", "not-2xx"},
      {"h i u " + date + " \"GET /a\" 299 5", "ok"},
      {"h i u " + date + " \"GET /a\" 300 5", "not-2xx"},
      {"h i u " + date + " \"GET /a\" 200 -", "no-bytes"},
      {"h i u " + date + " \"GET /a\" 200 0", "no-bytes"},
  };
  for (const Case& c : cases) {
    const AccessLog log = parse_access_log(line("/first") + "\n" + c.text + "\n");
    const std::string outcome = log.report.accepted == 2 ? "ok"
                                : log.report.samples.empty()
                                    ? "?"
                                    : log_reject_name(log.report.samples[0].reason);
    EXPECT_EQ(outcome, c.outcome) << c.text;
    EXPECT_EQ(log.report.lines, 2u) << c.text;
  }
  // A path may hold a quote: both lines ask for /a"b.
  const AccessLog q = parse_access_log("h i u " + date + " \"GET /a\"b HTTP/1.0\" 200 5\n" +
                                       "h i u " + date + " \"GET /a\"b\" 200 7\n");
  ASSERT_EQ(q.requests.size(), 2u);
  EXPECT_EQ(q.report.files, 1u);
  EXPECT_EQ(q.requests[1].bytes, 7u);
}

TEST(AccessLog, RefusesAnEmptyFileABinaryOneAndOneWithNothingToReplay) {
  EXPECT_EQ(parse_access_log("").report.refused, "The file is empty.");
  EXPECT_EQ(parse_access_log("\n\n  \r\n").report.refused, "The file is empty.");
  std::string binary;
  for (int i = 0; i < 400; ++i) binary += static_cast<char>(i % 32);
  const AccessLog bin = parse_access_log(binary);
  EXPECT_EQ(bin.report.refused, "This is a binary file, not a text access log.");
  EXPECT_EQ(bin.report.lines, 0u);
  EXPECT_EQ(access_log_summary(bin.report), bin.report.refused);
  // Invalid UTF-8 is as binary as control characters.
  EXPECT_NE(parse_access_log(std::string(5000, '\xff')).report.refused, "");
  EXPECT_EQ(parse_access_log(std::string(5000, '\xff')).report.refused, bin.report.refused);
  const AccessLog junk = parse_access_log("hello\nworld\n");
  EXPECT_EQ(junk.report.lines, 2u);
  EXPECT_EQ(junk.report.refused,
            "No line is a static, successful GET in Common Log Format, so there is nothing to "
            "replay.");
  EXPECT_TRUE(junk.requests.empty());
  expect_sound(junk);
}

TEST(AccessLog, ReadsTextWithAFewOddBytesAndAByteOrderMark) {
  // Under 5% control characters or invalid bytes in the first 4 KB: a log, with odd lines.
  std::string text = "\xEF\xBB\xBF" + line("/caf\xC3\xA9.html") + "\n";
  text += "bad \x01\xff line\n";
  for (int i = 0; i < 20; ++i) text += line("/f" + std::to_string(i)) + "\n";
  const AccessLog log = parse_access_log(text);
  EXPECT_EQ(log.report.refused, "");
  EXPECT_EQ(log.report.accepted, 21u);  // the first line, its mark dropped, counts
  ASSERT_EQ(log.report.samples.size(), 1u);
  EXPECT_EQ(log.report.samples[0].text, "bad \x01\xEF\xBF\xBD line");
  expect_sound(log);
}

TEST(AccessLog, GivesTheSameResultHoweverTheBytesAreCut) {
  std::string text = "\xEF\xBB\xBF";
  for (int i = 0; i < 60; ++i) {
    text += line("/f" + std::to_string(i % 7) + "\xC3\xA9", 200, std::to_string(100 + i));
    text += i % 3 == 0 ? "\r\n" : "\n";
    if (i == 20) text += std::string(kLogMaxLineBytes + 50, 'x') + "\n";
    if (i == 30) text += "\n  \n" + line("/p", 500) + "\n";
  }
  text += line("/last");  // no final newline
  const std::string whole = result(parse_access_log(text));
  EXPECT_EQ(parse_access_log(text).report.accepted, 61u);
  for (std::size_t cut = 0; cut <= text.size(); cut += 1)
    ASSERT_EQ(result(parse_in_chunks(text, {cut})), whole) << "cut at " << cut;
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::size_t> cuts;
    for (std::size_t at = 0; at < text.size();) {
      at += 1 + rng() % (trial % 2 ? 5 : 700);
      cuts.push_back(at);
    }
    ASSERT_EQ(result(parse_in_chunks(text, cuts)), whole) << "trial " << trial;
  }
}

TEST(AccessLog, DropsAnOverLongLineWithoutHoldingItAndKeepsGoing) {
  AccessLogParser p;
  const std::string big(kLogMaxLineBytes + 10, 'x');
  p.feed(big);
  p.feed(big);  // the same line goes on
  p.feed("yyy\n" + line("/after") + "\n");
  const AccessLog log = p.finish();
  EXPECT_EQ(rejected(log, LogReject::TooLong), 1u);
  EXPECT_EQ(log.report.lines, 2u);
  EXPECT_EQ(log.report.accepted, 1u);
  ASSERT_EQ(log.report.samples.size(), 1u);
  EXPECT_EQ(log.report.samples[0].text, std::string(kLogTooLongSampleBytes, 'x'));
  // A line of exactly the limit is read (its CR aside); one byte more is too long.
  std::string exact = line("/exact");
  exact += " " + std::string(kLogMaxLineBytes - exact.size() - 1, 'a');
  ASSERT_EQ(exact.size(), kLogMaxLineBytes);
  EXPECT_EQ(parse_access_log(exact + "\r\n").report.accepted, 1u);
  EXPECT_EQ(rejected(parse_access_log(exact + "a\n"), LogReject::TooLong), 1u);
  // A blank line of any length is blank.
  EXPECT_EQ(
      parse_access_log(std::string(3 * kLogMaxLineBytes, ' ') + "\n" + line("/a")).report.lines,
      1u);
}

TEST(AccessLog, StopsAtEachLimitAndSaysWhich) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += line("/f" + std::to_string(i % 10)) + "\n";
  AccessLogLimits requests;
  requests.requests = 25;
  AccessLog log = parse_access_log(text, requests);
  EXPECT_EQ(log.report.accepted, 25u);
  EXPECT_TRUE(log.report.truncated);
  EXPECT_EQ(log.report.limit, "25 requests");
  EXPECT_EQ(log.report.refused, "");
  expect_sound(log);

  AccessLogLimits files;
  files.files = 4;
  log = parse_access_log(text, files);
  EXPECT_EQ(log.report.accepted, 4u);
  EXPECT_EQ(log.report.files, 4u);
  EXPECT_EQ(log.report.limit, "4 distinct files");
  expect_sound(log);

  AccessLogLimits paths;
  paths.path_bytes = 10;  // "/f0" ... three bytes each
  log = parse_access_log(text, paths);
  EXPECT_EQ(log.report.files, 3u);
  EXPECT_EQ(log.report.limit, "10 bytes of distinct paths");
  expect_sound(log);

  // The byte limit cuts anywhere; the line it cuts is not read, whatever the chunks.
  AccessLogLimits bytes;
  bytes.log_bytes = line("/f0").size() * 5 + 10;
  log = parse_access_log(text, bytes);
  EXPECT_EQ(log.report.lines, 5u);
  EXPECT_EQ(log.report.limit, "the first " + std::to_string(bytes.log_bytes) + " bytes");
  EXPECT_EQ(result(parse_in_chunks(text, {7, 100, 301}, bytes)), result(log));
  // The parser says when to stop reading.
  AccessLogParser p(requests);
  EXPECT_FALSE(p.feed(text));
  EXPECT_FALSE(p.feed(text));
  EXPECT_EQ(p.finish().report.accepted, 25u);

  // The real limits, as the report gives them.
  Json doc;
  std::string error;
  ASSERT_TRUE(parse_json(access_log_report_json(AccessLogReport{}), &doc, &error));
  EXPECT_EQ(doc["limits"]["log_bytes"].get<std::uint64_t>(), std::uint64_t{1} << 30);
  EXPECT_EQ(doc["limits"]["requests"].get<std::uint64_t>(), 10000000u);
  EXPECT_EQ(AccessLogParser().open(), true);
}

TEST(AccessLog, SurvivesHostileBytes) {
  // 300,000 quotes, NULs, a 10 MB line, brackets without end: a report, quickly.
  for (const std::string& text :
       {std::string(300000, '"'), "h i u [x] \"GET " + std::string(300000, '"') + "\n",
        std::string(4096, 'a') + std::string(100, '\0') + "\n" + line("/a"),
        std::string(10 << 20, 'z'), std::string(100000, '[') + "\n",
        "h i u [" + std::string(8000, ']') + " \"GET /a\" 200 5\n",
        "h i u [d] \"GET " + std::string(8000, '"') + " 200 5\n"}) {
    const AccessLog log = parse_access_log(text);
    expect_sound(log);
  }
}

TEST(AccessLog, AnyRandomBytesGiveASoundReport) {
  std::mt19937_64 rng(2026);
  const std::string good = line("/a.html") + "\n" + line("/b?x") + "\n" + line("/c", 404) + "\n";
  for (int trial = 0; trial < 400; ++trial) {
    std::string text;
    const std::size_t n = rng() % 6000;
    if (trial % 2) {
      // Random bytes, from an alphabet that makes near-misses likely.
      static const char alphabet[] = " \t\r\n\"[]-?/0123456789GETh\xff\xc3\x80";
      for (std::size_t i = 0; i < n; ++i) text += alphabet[rng() % (sizeof alphabet - 1)];
    } else {
      // Good lines with a few bytes changed.
      while (text.size() < n) text += good;
      for (int k = 0; k < 5 && !text.empty(); ++k)
        text[rng() % text.size()] = static_cast<char>(rng() % 256);
    }
    const AccessLog whole = parse_access_log(text);
    expect_sound(whole);
    std::vector<std::size_t> cuts;
    for (std::size_t at = 0; at < text.size();) cuts.push_back(at += 1 + rng() % 512);
    ASSERT_EQ(result(parse_in_chunks(text, cuts)), result(whole)) << "trial " << trial;
  }
}

TEST(AccessLog, TheReportIsAFieldOfTheRunsOutput) {
  const AccessLog log = parse_access_log(line("/a") + "\nnot a line\n");
  const std::string out = with_access_log_report("{\"format\":\"nicsim-results/1\"}", log.report);
  Json doc;
  std::string error;
  ASSERT_TRUE(parse_json(out, &doc, &error)) << error;
  EXPECT_EQ(doc["format"], "nicsim-results/1");
  EXPECT_EQ(doc["access_log"]["accepted"], 1);
  EXPECT_EQ(doc["access_log"]["rejected"]["malformed"], 1);
  EXPECT_EQ(doc["access_log"]["samples"][0]["line"], 2);
  EXPECT_EQ(doc["access_log"]["samples"][0]["reason"], "malformed");
  EXPECT_TRUE(doc["access_log"]["limit"].is_null());
  EXPECT_EQ(with_access_log_report("{}", log.report).rfind("{\"access_log\":", 0), 0u);
  EXPECT_EQ(with_access_log_report("", log.report), "");
}

}  // namespace
}  // namespace nicsim
