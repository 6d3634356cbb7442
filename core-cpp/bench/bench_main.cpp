// Native benchmark: prints one JSON object (read by web/scripts/bench.mjs).
//
//   nicsim_bench [scenario.json]            the whole table (web/scripts/bench.mjs)
//   nicsim_bench --model N [scenario.json]  only the model point, N runs (for a profiler)
//   nicsim_bench --null N                   only the null loop, N events (for a profiler)
//   nicsim_bench --web-sweep W              only the Fig 4.3 sweep on W workers: its wall time
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <vector>

#include "api/api.hpp"
#include "nic/cache/cache_sim.hpp"
#include "nic/cache/lru_stack.hpp"
#include "scenario/json.hpp"
#include "scenario/scenario.hpp"
#include "workload/web_trace.hpp"

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
// The process's CPU time: the model and null-loop rates are timed with it, so time the machine
// gives to other work does not count against the core.
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
// The wall time of api::run on `workers` threads, started from a new thread: what a thread keeps
// (generated traces, LRU stacks, warm-ups) dies with it, so each timing starts cold, as a page
// load does. Negative when the run fails.
double cold_wall(const std::string& scenario, unsigned workers) {
  double wall = -1;
  std::thread([&] {
    const auto t0 = std::chrono::steady_clock::now();
    const bool ok = nicsim::api::run(scenario, "", nullptr, workers).ok;
    wall = ok ? seconds_since(t0) : -1;
  }).join();
  return wall;
}
std::string read_text(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
// The model point, as web/scripts/bench.mjs runs it in wasm (keep the two the same):
// bidirectional UDP, 18-byte datagrams (the most events per simulated second), no trace.
constexpr const char* kOverrides =
    R"({"workload.direction":"bidirectional","workload.datagram_bytes":18,"run.duration_us":20000,"run.warmup_us":1000,"run.trace.max_records":0})";
// Rounds of (model, null loop), taken after a warm-up of each; the rates reported are the
// medians over the rounds (a noisy machine slows some rounds, rarely most of them).
constexpr int kRounds = 5;
constexpr double kMinTimedS = 0.25;  // per round, the model runs until this much CPU time
constexpr std::uint64_t kNullLoopEvents = 5000000;  // per round
}  // namespace

int main(int argc, char** argv) {
  std::string path = "scenarios/udp-throughput.json";
  long model_runs = 0, null_events = 0, web_sweep_workers = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--model") == 0 && i + 1 < argc) {
      model_runs = std::atol(argv[++i]);
    } else if (std::strcmp(argv[i], "--web-sweep") == 0 && i + 1 < argc) {
      web_sweep_workers = std::atol(argv[++i]);
    } else if (std::strcmp(argv[i], "--null") == 0 && i + 1 < argc) {
      null_events = std::atol(argv[++i]);
    } else {
      path = argv[i];
    }
  }
  using nicsim::Json;
  if (null_events > 0) {
    std::cout << nicsim::api::null_loop(static_cast<std::uint64_t>(null_events)) << " events\n";
    return 0;
  }
  const std::string web_text = read_text("scenarios/web-cache-sizes.json");
  const unsigned pool = nicsim::api::default_workers();
  if (web_sweep_workers > 0) {
    const double wall = cold_wall(web_text, static_cast<unsigned>(web_sweep_workers));
    std::cout << wall << " s\n";
    return wall < 0 ? 3 : 0;
  }
  const std::string scenario = read_text(path.c_str());
  if (scenario.empty()) {
    std::cerr << "error: cannot read " << path << "\n";
    return 2;
  }

  // The main run only: no sweep.
  nicsim::Json doc = Json::parse(scenario, nullptr, false);
  nicsim::keep_main_run_only(&doc);
  const std::string point = nicsim::dump_json(doc);
  if (model_runs > 0) {
    for (long i = 0; i < model_runs; ++i) {
      const nicsim::api::RunResult r = nicsim::api::run(point, kOverrides);
      if (!r.ok) {
        std::cerr << r.json << "\n";
        return 3;
      }
    }
    return 0;
  }

  // One run for its numbers (and as a warm-up), a warm-up of the null loop, then the rounds.
  nicsim::api::RunResult r = nicsim::api::run(point, kOverrides);
  if (!r.ok) {
    std::cerr << r.json << "\n";
    return 3;
  }
  Json out = Json::parse(r.json, nullptr, false);
  const double events = out["results"]["events"]["value"].get<double>();
  const double sim_s = out["results"]["sim_time"]["value"].get<double>() / 1e6;
  nicsim::api::null_loop(1000000);
  std::vector<double> run_s, null_rate;
  int reps = 0;
  for (int round = 0; round < kRounds; ++round) {
    int n = 0;
    const double c0 = cpu_seconds();
    double timed = 0;
    do {
      nicsim::api::run(point, kOverrides);
      ++n;
      timed = cpu_seconds() - c0;
    } while (timed < kMinTimedS && n < 1000);
    run_s.push_back(timed / n);
    reps += n;
    const double n0 = cpu_seconds();
    const std::uint64_t fired = nicsim::api::null_loop(kNullLoopEvents);
    null_rate.push_back(static_cast<double>(fired) / (cpu_seconds() - n0));
  }
  const double run_cpu = median(run_s);  // CPU seconds per model run
  const double null_events_per_s = median(null_rate);

  // The sweep and the cache-only simulators below: wall time, once each; the sweeps on one
  // worker (as one wasm instance runs them) and on one per core (as the browser's pool does).
  const double sweep_wall = cold_wall(scenario, 1);
  const double sweep_wall_pool = cold_wall(scenario, pool);

  // The cache-only simulator (the thesis §4.2) on the full NASA trace: one 16 MB LRU cache.
  nicsim::WebTraceConfig nasa_config;
  nasa_config.trace = nicsim::WebTraceId::Nasa;
  const nicsim::WebTrace nasa = nicsim::generate_web_trace(nasa_config);
  auto t0 = std::chrono::steady_clock::now();
  const nicsim::CacheSimResult cached = nicsim::run_cache_sim(nasa.requests, {});
  const double cache_wall = seconds_since(t0);
  // LRU in one pass (nic/cache/lru_stack.hpp): the stack distances, then the 16 MB point.
  t0 = std::chrono::steady_clock::now();
  const nicsim::LruStack stack = nicsim::lru_stack_distances(nasa.requests, 4096, 1);
  const nicsim::CacheSimResult one_pass = nicsim::lru_stack_result(stack, nasa.requests, {});
  const double one_pass_wall = seconds_since(t0);

  // The cache-only sweep of Fig 4.3 (35 points, five traces), as the browser runs it: LRU, so
  // one pass per trace; the traces are generated here too.
  const double web_sweep_wall = web_text.empty() ? -1 : cold_wall(web_text, 1);
  const double web_sweep_wall_pool = web_text.empty() ? -1 : cold_wall(web_text, pool);

  Json report = {{"build", "native"},
                 {"events", events},
                 {"run_cpu_s", run_cpu},
                 {"runs_timed", reps},
                 {"events_per_s", events / run_cpu},
                 {"sim_s_per_cpu_s", sim_s / run_cpu},
                 {"null_loop_events_per_s", null_events_per_s},
                 {"rounds", kRounds},
                 {"timing", "process CPU time, median of the rounds"},
                 {"sweep_wall_s", sweep_wall},
                 {"sweep_ok", sweep_wall >= 0},
                 {"workers", pool},
                 {"sweep_wall_s_pool", sweep_wall_pool},
                 {"cache_sim_requests_per_s", static_cast<double>(cached.requests) / cache_wall},
                 {"web_sweep_wall_s", web_sweep_wall},
                 {"web_sweep_wall_s_pool", web_sweep_wall_pool}};
  report["lru_one_pass_requests_per_s"] = static_cast<double>(one_pass.requests) / one_pass_wall;
  std::cout << nicsim::dump_json(report, 2) << "\n";
  return 0;
}
