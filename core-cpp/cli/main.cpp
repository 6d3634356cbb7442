// nicsim: the native command-line runner.
//   nicsim <scenario.json> [--set path=value ...] [--format json|csv] [--trace FILE]
//          [--log FILE]        (workload.trace "log": a Common or Combined Log Format file)
//          [--requests FILE]   (workload.trace "log": one "file-id bytes" request per line)
//   nicsim --validate <scenario.json> [--set ...]
//   nicsim --list-parameters
//   nicsim --schema            (the JSON Schema of scenario files, from the parameter registry)
// Exit status: 0 ran, 2 bad input (the message names the field), 3 model fault.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "scenario/json.hpp"
#include "workload/access_log.hpp"

namespace {

int usage(const char* why) {
  std::cerr
      << "error: " << why << "\n"
      << "usage: nicsim <scenario.json> [--set path=value ...] [--format json|csv] [--trace FILE]\n"
      << "              [--log FILE]       (for workload.trace \"log\": an access log in Common "
         "or\n"
      << "                                  Combined Log Format)\n"
      << "              [--requests FILE]  (for workload.trace \"log\": \"file-id bytes\" per "
         "line)\n"
      << "       nicsim --validate <scenario.json> [--set path=value ...]\n"
      << "       nicsim --list-parameters\n";
  return 2;
}

void print_errors(const std::string& errors_json) {
  nicsim::Json errs;
  std::string unused;
  if (!nicsim::parse_json(errors_json, &errs, &unused)) return;
  if (errs.is_object()) errs = errs["errors"];
  for (const auto& e : errs) {
    const std::string path = e["path"].get<std::string>();
    std::cerr << "error: " << (path.empty() ? "" : path + ": ") << e["message"].get<std::string>()
              << "\n";
  }
}

}  // namespace

// The requests of an access log parsed elsewhere: one
// "file-id bytes" pair per line, '#' starting a comment. Returns an error naming the line.
std::string read_requests(const std::string& path, std::vector<nicsim::WebRequest>* out) {
  std::ifstream in(path);
  if (!in) return "cannot read requests file '" + path + "'";
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank or comment
    std::istringstream fields(line);
    long long file = -1, bytes = -1;
    std::string rest;
    if (!(fields >> file) || !(fields >> bytes) || (fields >> rest) || file < 0 || bytes < 0 ||
        file > 0xffffffffLL || bytes > 0xffffffffLL)
      return path + ":" + std::to_string(n) +
             ": expected \"file-id bytes\", two integers from 0 to 4294967295";
    out->push_back({static_cast<std::uint32_t>(file), static_cast<std::uint32_t>(bytes)});
  }
  return "";
}

// Reads an access log through the core's parser, in chunks, no further than its limits.
// Returns an error naming the file, or "".
std::string read_log(const std::string& path, nicsim::AccessLog* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read '" + path + "'";
  nicsim::AccessLogParser parser;
  std::vector<char> chunk(1 << 20);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    if (!parser.feed(chunk.data(), got)) break;
  }
  if (in.bad()) return "cannot read '" + path + "'";
  *out = parser.finish();
  return "";
}

int main(int argc, char** argv) {
  std::string file, format = "json", trace_file, requests_file, log_file;
  bool validate_only = false;
  nicsim::Json overrides = nicsim::Json::object();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--list-parameters") {
      std::cout << nicsim::dump_json(
                       nicsim::Json::parse(nicsim::api::parameter_info(), nullptr, false), 2)
                << "\n";
      return 0;
    } else if (arg == "--schema") {
      std::cout << nicsim::api::scenario_schema() << "\n";
      return 0;
    } else if (arg == "--validate") {
      validate_only = true;
    } else if (arg == "--format" || arg == "--set" || arg == "--trace" || arg == "--requests" ||
               arg == "--log") {
      if (i + 1 >= argc) return usage((arg + " needs a value").c_str());
      const std::string value = argv[++i];
      if (arg == "--format") {
        if (value != "json" && value != "csv") return usage("--format must be json or csv");
        format = value;
      } else if (arg == "--trace") {
        trace_file = value;
      } else if (arg == "--requests") {
        requests_file = value;
      } else if (arg == "--log") {
        log_file = value;
      } else {
        const auto eq = value.find('=');
        if (eq == std::string::npos || eq == 0)
          return usage(("--set takes path=value, got '" + value + "'").c_str());
        const std::string text = value.substr(eq + 1);
        // Numbers and JSON literals as JSON; anything else is a string (--set
        // workload.direction=send).
        nicsim::Json v = nicsim::Json::parse(text, nullptr, false);
        overrides[value.substr(0, eq)] = v.is_discarded() ? nicsim::Json(text) : v;
      }
    } else if (!arg.empty() && arg[0] == '-') {
      return usage(("unknown option " + arg).c_str());
    } else if (file.empty()) {
      file = arg;
    } else {
      return usage("only one scenario file");
    }
  }
  if (file.empty()) return usage("no scenario file given");
  if (!log_file.empty() && !requests_file.empty())
    return usage("--log and --requests both give the requests; use one");
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << "error: cannot read scenario file '" << file << "'\n";
    return 2;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string ov = nicsim::dump_json(overrides);

  if (validate_only) {
    const std::string errs = nicsim::api::validate(buf.str(), ov);
    if (errs != "[]") {
      print_errors(errs);
      return 2;
    }
    std::cout << "valid\n";
    return 0;
  }
  std::vector<nicsim::WebRequest> requests;
  if (!requests_file.empty()) {
    const std::string why = read_requests(requests_file, &requests);
    if (!why.empty()) {
      std::cerr << "error: " << why << "\n";
      return 2;
    }
  }
  nicsim::AccessLog log;
  if (!log_file.empty()) {
    const std::string why = read_log(log_file, &log);
    if (!why.empty()) {
      std::cerr << "error: --log: " << why << "\n";
      return 2;
    }
    // The report in short; the whole of it is the output's "access_log".
    const std::string summary = nicsim::access_log_summary(log.report);
    if (!log.report.refused.empty()) {
      std::cerr << "error: --log: '" << log_file << "': " << summary << "\n";
      return 2;
    }
    std::cerr << "--log " << log_file << ": " << summary << "\n";
    requests = std::move(log.requests);
  }
  nicsim::api::RunResult r = nicsim::api::run(buf.str(), ov, &requests);
  if (!r.ok) {
    print_errors(r.json);
    return r.input_error ? 2 : 3;
  }
  if (!log_file.empty()) r.json = nicsim::with_access_log_report(r.json, log.report);
  if (!trace_file.empty()) {
    std::ofstream t(trace_file, std::ios::binary);
    t.write(reinterpret_cast<const char*>(r.trace.data()),
            static_cast<std::streamsize>(r.trace.size() * sizeof(nicsim::TraceRecord)));
  }
  if (format == "csv") {
    std::cout << nicsim::api::to_csv(r.json);
  } else {
    std::cout << r.json << "\n";
  }
  return 0;
}
