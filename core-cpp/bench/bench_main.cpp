// Native benchmark: prints one JSON object (read by web/scripts/bench.mjs).
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

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
}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "scenarios/udp-throughput.json";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "error: cannot read " << path << "\n";
    return 2;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string scenario = buf.str();
  using nicsim::Json;

  // Bidirectional UDP, 18-byte datagrams: the most events per simulated second. No sweep.
  nicsim::Json doc = Json::parse(scenario, nullptr, false);
  nicsim::keep_main_run_only(&doc);
  const std::string point = nicsim::dump_json(doc);
  const std::string ov =
      R"({"workload.direction":"bidirectional","workload.datagram_bytes":18,"run.duration_us":20000,"run.warmup_us":1000,"run.trace.max_records":0})";
  auto t0 = std::chrono::steady_clock::now();
  nicsim::api::RunResult r = nicsim::api::run(point, ov);
  const double wall = seconds_since(t0);
  if (!r.ok) {
    std::cerr << r.json << "\n";
    return 3;
  }
  Json out = Json::parse(r.json, nullptr, false);
  const double events = out["results"]["events"]["value"].get<double>();
  const double sim_s = out["results"]["sim_time"]["value"].get<double>() / 1e6;

  const std::uint64_t n = 20000000;
  t0 = std::chrono::steady_clock::now();
  const std::uint64_t fired = nicsim::api::null_loop(n);
  const double null_wall = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  nicsim::api::RunResult full = nicsim::api::run(scenario, "");
  const double sweep_wall = seconds_since(t0);

  // The cache-only simulator (the thesis §4.2) on the full NASA trace: one 16 MB LRU cache.
  nicsim::WebTraceConfig nasa_config;
  nasa_config.trace = nicsim::WebTraceId::Nasa;
  const nicsim::WebTrace nasa = nicsim::generate_web_trace(nasa_config);
  t0 = std::chrono::steady_clock::now();
  const nicsim::CacheSimResult cached = nicsim::run_cache_sim(nasa.requests, {});
  const double cache_wall = seconds_since(t0);
  // LRU in one pass (nic/cache/lru_stack.hpp): the stack distances, then the 16 MB point.
  t0 = std::chrono::steady_clock::now();
  const nicsim::LruStack stack = nicsim::lru_stack_distances(nasa.requests, 4096, 1);
  const nicsim::CacheSimResult one_pass = nicsim::lru_stack_result(stack, nasa.requests, {});
  const double one_pass_wall = seconds_since(t0);

  // The cache-only sweep of Fig 4.3 (35 points, five traces), as the browser runs it: LRU, so
  // one pass per trace; the traces are generated here too.
  double web_sweep_wall = -1;
  {
    std::ifstream web_in("scenarios/web-cache-sizes.json", std::ios::binary);
    if (web_in) {
      std::stringstream web_buf;
      web_buf << web_in.rdbuf();
      t0 = std::chrono::steady_clock::now();
      const nicsim::api::RunResult web = nicsim::api::run(web_buf.str(), "");
      web_sweep_wall = web.ok ? seconds_since(t0) : -1;
    }
  }

  Json report = {{"build", "native"},
                 {"events", events},
                 {"wall_s", wall},
                 {"events_per_s", events / wall},
                 {"sim_s_per_wall_s", sim_s / wall},
                 {"null_loop_events_per_s", static_cast<double>(fired) / null_wall},
                 {"sweep_wall_s", sweep_wall},
                 {"sweep_ok", full.ok},
                 {"cache_sim_requests_per_s", static_cast<double>(cached.requests) / cache_wall},
                 {"web_sweep_wall_s", web_sweep_wall}};
  report["lru_one_pass_requests_per_s"] = static_cast<double>(one_pass.requests) / one_pass_wall;
  std::cout << nicsim::dump_json(report, 2) << "\n";
  return 0;
}
