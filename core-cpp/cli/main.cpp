// nicsim: the native command-line runner (`nicsim --help` describes every option).
// Exit status: 0 ran (or printed what was asked), 2 bad input or usage (the message names the
// field, the option or the file), 3 model fault.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "scenario/json.hpp"
#include "scenario/limits.hpp"
#include "workload/access_log.hpp"

namespace {

// The program's version (package.json's) and the formats it reads and writes.
constexpr const char* kVersion = "0.1.0";
// chosen: far more threads than any machine this runs on has cores; a bound, not a tuning.
constexpr unsigned kMaxWorkers = 64;

constexpr const char* kHelp =
    R"(usage: nicsim <scenario.json> [--set path=value ...] [--format json|csv] [--trace FILE]
                            [--log FILE | --requests FILE] [--workers N]
       nicsim --validate <scenario.json> [--set path=value ...]
       nicsim --list-parameters | --schema | --limits | --help | --version

Runs a scenario (a JSON file, see scenarios/) and prints its results on standard output.

  <scenario.json>      the scenario file to run or validate
  --set path=value     override one parameter (repeatable; see --list-parameters), e.g.
                       --set workload.datagram_bytes=18 --set workload.direction=send;
                       the value is read as JSON when it parses, else as a string
  --format json|csv    the output: the results document (default json), or CSV (the sweep
                       table when the scenario sweeps, else metric,value,unit)
  --trace FILE         also write the main run's trace records (40 bytes each) to FILE
  --log FILE           for workload.trace "log": an access log in Common or Combined Log
                       Format, read by the core's parser (its report goes to standard error
                       and into the output's "access_log")
  --requests FILE      for workload.trace "log": one "file-id bytes" request per line, '#'
                       starting a comment (file ids 0 to 1999999, bytes 1 to 1 GB)
  --workers N          run the main run and the sweep's points on N threads (1 to 64;
                       default one per core); the output is the same for any N
  --validate           check the scenario and the overrides, print "valid", run nothing
  --list-parameters    print every parameter: path, type, range, default, unit, origin
  --schema             print the JSON Schema of scenario files
  --limits             print the limits every input is held to (scenario/limits.hpp)
  --help, -h           print this help
  --version            print the version and the formats this core reads and writes

Exit status: 0 done, 2 bad input or usage (the message names the field, option or file),
3 model fault.
)";

int usage(const std::string& why) {
  std::cerr << "error: " << why << "\n"
            << "usage: nicsim <scenario.json> [options]   (nicsim --help lists them)\n";
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

std::string limits_json() {
  return nicsim::dump_json({{"json_depth", nicsim::kMaxJsonDepth},
                            {"scenario_bytes", nicsim::kMaxScenarioBytes},
                            {"overrides_bytes", nicsim::kMaxOverridesBytes},
                            {"string_bytes", nicsim::kMaxStringBytes},
                            {"set_options", nicsim::kMaxSetOptions},
                            {"sweep_values", nicsim::kMaxSweepValues},
                            {"sweep_runs", nicsim::kMaxSweepRuns},
                            {"simulated_us", nicsim::kMaxSimulatedUs},
                            {"replayed_requests", nicsim::kMaxReplayedRequests},
                            {"replayed_blocks", nicsim::kMaxReplayedBlocks},
                            {"log_bytes", nicsim::kLogMaxBytes},
                            {"log_requests", nicsim::kLogMaxRequests},
                            {"log_files", nicsim::kLogMaxFiles},
                            {"log_line_bytes", nicsim::kLogMaxLineBytes},
                            {"request_bytes", nicsim::kMaxRequestBytes}},
                           2);
}

// One line of at most max_bytes (without its LF); false at the end of the input. A longer line
// sets *too_long and is skipped to its end, so a file without line ends never fills memory.
bool read_line(std::istream& in, std::size_t max_bytes, std::string* line, bool* too_long) {
  line->clear();
  *too_long = false;
  char ch;
  bool any = false;
  while (in.get(ch)) {
    any = true;
    if (ch == '\n') return true;
    if (line->size() < max_bytes)
      *line += ch;
    else
      *too_long = true;
  }
  return any;
}

// The requests of an access log parsed elsewhere: one "file-id bytes" pair per line, '#'
// starting a comment. Returns an error naming the file and line, or "".
std::string read_requests(const std::string& path, std::vector<nicsim::WebRequest>* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read requests file '" + path + "': " + std::strerror(errno);
  std::string line;
  bool too_long = false;
  std::uint64_t read = 0;
  for (std::size_t n = 1; read_line(in, nicsim::kLogMaxLineBytes, &line, &too_long); ++n) {
    const std::string where = path + ":" + std::to_string(n) + ": ";
    if (too_long)
      return where + "longer than " + std::to_string(nicsim::kLogMaxLineBytes) + " bytes";
    read += line.size() + 1;
    if (read > nicsim::kLogMaxBytes)
      return where + "the file is longer than " + std::to_string(nicsim::kLogMaxBytes >> 20) +
             " MB (the limit of an access log)";
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank or comment
    std::istringstream fields(line);
    long long file = -1, bytes = -1;
    std::string rest;
    if (!(fields >> file) || !(fields >> bytes) || (fields >> rest) || file < 0 || bytes < 0 ||
        file > 0xffffffffLL || bytes > 0xffffffffLL)
      return where + "expected \"file-id bytes\", two whole numbers";
    const nicsim::WebRequest r{static_cast<std::uint32_t>(file), static_cast<std::uint32_t>(bytes)};
    const std::string why = nicsim::check_request(r);
    if (!why.empty()) return where + why;
    if (out->size() >= nicsim::kLogMaxRequests)
      return where + "more than " + std::to_string(nicsim::kLogMaxRequests) + " requests";
    out->push_back(r);
  }
  if (in.bad()) return "cannot read requests file '" + path + "'";
  return "";
}

// Reads an access log through the core's parser, in chunks, no further than its limits.
// Returns an error naming the file, or "".
std::string read_log(const std::string& path, nicsim::AccessLog* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read '" + path + "': " + std::strerror(errno);
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

// Reads the scenario file, no more than the core would take (it refuses larger ones by size).
std::string read_scenario(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read scenario file '" + path + "': " + std::strerror(errno);
  // In chunks, up to one byte past the limit: a zeroed buffer of the limit's size was an eighth
  // of a light preset's whole run.
  std::string buf;
  char chunk[1 << 16];
  while (buf.size() <= nicsim::kMaxScenarioBytes) {
    const std::size_t want = std::min(
        sizeof chunk, static_cast<std::size_t>(nicsim::kMaxScenarioBytes + 1 - buf.size()));
    in.read(chunk, static_cast<std::streamsize>(want));
    buf.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (!in) break;
  }
  if (in.bad()) return "cannot read scenario file '" + path + "'";
  if (buf.size() > nicsim::kMaxScenarioBytes)
    return "scenario file '" + path + "' is larger than " +
           std::to_string(nicsim::kMaxScenarioBytes >> 20) + " MB (the limit of a scenario)";
  *text = std::move(buf);
  return "";
}

// An output file the run will write: checked before the run (so hours of simulation are not
// lost to a typo), without truncating what is there until the run has succeeded.
struct OutputFile {
  std::string path;
  bool existed = false;
};
std::string check_writable(const std::string& option, const std::string& path, OutputFile* out) {
  struct stat st {};
  out->path = path;
  out->existed = ::stat(path.c_str(), &st) == 0;
  if (out->existed && S_ISDIR(st.st_mode)) return option + " " + path + ": is a directory";
  std::FILE* f = std::fopen(path.c_str(), "ab");
  if (f == nullptr) return option + " " + path + ": cannot write: " + std::strerror(errno);
  std::fclose(f);
  return "";
}
void discard_output(const OutputFile& f) {
  if (!f.path.empty() && !f.existed) std::remove(f.path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::string file, format = "json", trace_file, requests_file, log_file;
  bool validate_only = false, help = false, version = false;
  std::vector<std::string> info;  // --list-parameters, --schema, --limits
  nicsim::Json overrides = nicsim::Json::object();
  std::size_t sets = 0;
  unsigned workers = nicsim::api::default_workers();
  // Every argument is read before anything is done, so an unknown option is an error
  // whatever comes first.
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      help = true;
    } else if (arg == "--version") {
      version = true;
    } else if (arg == "--list-parameters" || arg == "--schema" || arg == "--limits") {
      info.push_back(arg);
    } else if (arg == "--validate") {
      validate_only = true;
    } else if (arg == "--format" || arg == "--set" || arg == "--trace" || arg == "--requests" ||
               arg == "--log" || arg == "--workers") {
      if (i + 1 >= argc) return usage(arg + " needs a value");
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
      } else if (arg == "--workers") {
        const bool digits =
            !value.empty() && value.size() <= 2 &&
            std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
        workers = digits ? static_cast<unsigned>(std::stoul(value)) : 0;
        if (workers < 1 || workers > kMaxWorkers)
          return usage("--workers must be a whole number from 1 to " + std::to_string(kMaxWorkers) +
                       ", got '" + value.substr(0, 40) + "'");
      } else {
        if (++sets > nicsim::kMaxSetOptions)
          return usage("more than " + std::to_string(nicsim::kMaxSetOptions) + " --set options");
        if (value.size() > nicsim::kMaxStringBytes)
          return usage("--set " + value.substr(0, 40) + "…: longer than " +
                       std::to_string(nicsim::kMaxStringBytes) + " bytes");
        const auto eq = value.find('=');
        if (eq == std::string::npos || eq == 0)
          return usage("--set takes path=value, got '" + value + "'");
        const std::string path = value.substr(0, eq), text = value.substr(eq + 1);
        // Numbers and JSON literals as JSON; anything else is a string (--set
        // workload.direction=send). Deep JSON is refused before it is parsed.
        std::string where;
        if (!nicsim::json_depth_within(text, nicsim::kMaxJsonDepth, &where))
          return usage("--set " + path + ": the value nests arrays and objects deeper than " +
                       std::to_string(nicsim::kMaxJsonDepth) + " levels; at most " +
                       std::to_string(nicsim::kMaxJsonDepth));
        nicsim::Json v = nicsim::Json::parse(text, nullptr, false);
        overrides[path] = v.is_discarded() ? nicsim::Json(text) : v;
      }
    } else if (!arg.empty() && arg[0] == '-') {
      return usage("unknown option " + arg);
    } else if (file.empty()) {
      file = arg;
    } else {
      return usage("only one scenario file (got '" + file + "' and '" + arg + "')");
    }
  }
  if (help) {
    std::cout << kHelp;
    return std::cout.flush() ? 0 : 2;
  }
  if (version) {
    std::cout << "nicsim " << kVersion << " (scenario format 1, results nicsim-results/1)\n";
    return std::cout.flush() ? 0 : 2;
  }
  if (!info.empty()) {
    if (info.size() > 1 || !file.empty() || validate_only)
      return usage(info[0] + " takes no scenario file and no other command");
    if (info[0] == "--list-parameters") {
      std::cout << nicsim::dump_json(
                       nicsim::Json::parse(nicsim::api::parameter_info(), nullptr, false), 2)
                << "\n";
    } else if (info[0] == "--schema") {
      std::cout << nicsim::api::scenario_schema() << "\n";
    } else {
      std::cout << limits_json() << "\n";
    }
    return std::cout.flush() ? 0 : 2;
  }
  if (file.empty()) return usage("no scenario file given");
  if (!log_file.empty() && !requests_file.empty())
    return usage("--log and --requests both give the requests; use one");
  if (validate_only && (!trace_file.empty() || !log_file.empty() || !requests_file.empty()))
    return usage("--validate runs nothing: --trace, --log and --requests do not apply");
  std::string scenario;
  if (const std::string why = read_scenario(file, &scenario); !why.empty()) {
    std::cerr << "error: " << why << "\n";
    return 2;
  }
  const std::string ov = nicsim::dump_json(overrides);

  if (validate_only) {
    const std::string errs = nicsim::api::validate(scenario, ov);
    if (errs != "[]") {
      print_errors(errs);
      return 2;
    }
    std::cout << "valid\n";
    return std::cout.flush() ? 0 : 2;
  }
  OutputFile trace_out;
  if (!trace_file.empty()) {
    if (const std::string why = check_writable("--trace", trace_file, &trace_out); !why.empty()) {
      std::cerr << "error: " << why << "\n";
      return 2;
    }
  }
  std::vector<nicsim::WebRequest> requests;
  if (!requests_file.empty()) {
    const std::string why = read_requests(requests_file, &requests);
    if (!why.empty()) {
      std::cerr << "error: --requests: " << why << "\n";
      discard_output(trace_out);
      return 2;
    }
  }
  nicsim::AccessLog log;
  if (!log_file.empty()) {
    const std::string why = read_log(log_file, &log);
    if (!why.empty()) {
      std::cerr << "error: --log: " << why << "\n";
      discard_output(trace_out);
      return 2;
    }
    // The report in short; the whole of it is the output's "access_log".
    const std::string summary = nicsim::access_log_summary(log.report);
    if (!log.report.refused.empty()) {
      std::cerr << "error: --log: '" << log_file << "': " << summary << "\n";
      discard_output(trace_out);
      return 2;
    }
    std::cerr << "--log " << log_file << ": " << summary << "\n";
    requests = std::move(log.requests);
  }
  nicsim::api::RunResult r = nicsim::api::run(scenario, ov, &requests, workers);
  if (!r.ok) {
    print_errors(r.json);
    discard_output(trace_out);
    return r.input_error ? 2 : 3;
  }
  if (!log_file.empty()) r.json = nicsim::with_access_log_report(r.json, log.report);
  if (!trace_file.empty()) {
    std::ofstream t(trace_file, std::ios::binary | std::ios::trunc);
    t.write(reinterpret_cast<const char*>(r.trace.data()),
            static_cast<std::streamsize>(r.trace.size() * sizeof(nicsim::TraceRecord)));
    t.close();
    if (!t) {
      std::cerr << "error: --trace " << trace_file << ": cannot write: " << std::strerror(errno)
                << "\n";
      return 2;
    }
  }
  if (format == "csv") {
    std::cout << nicsim::api::to_csv(r.json);
  } else {
    std::cout << r.json << "\n";
  }
  if (!std::cout.flush()) {
    std::cerr << "error: cannot write the results to standard output\n";
    return 2;
  }
  return 0;
}
