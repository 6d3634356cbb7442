// The limits every input is held to, checked once at validation, the same for the command line
// and the browser (both go through api::validate / api::run). Each is chosen well above what any
// preset needs, and low enough that no input can take the machine (stack, memory or hours).
// api::limits() publishes them (the CLI's --limits, the scenario schema's bounds).
#pragma once
#include <cstdint>

namespace nicsim {

// chosen: nlohmann's copy, comparison and dump recurse once per level, and the wasm stack is
// small; the presets nest at most 7 levels (a sweep point inside a reference), so 64 is generous.
constexpr std::uint32_t kMaxJsonDepth = 64;
// chosen: the largest preset is 15 KB; a scenario file (or overrides document) is at most 1 MB.
constexpr std::uint64_t kMaxScenarioBytes = std::uint64_t{1} << 20;
constexpr std::uint64_t kMaxOverridesBytes = std::uint64_t{1} << 20;
// chosen: the longest string of any preset (a parameter note) is 413 characters.
constexpr std::uint64_t kMaxStringBytes = 4096;
// chosen: the command line's --set: at most this many, each at most kMaxStringBytes long.
constexpr std::uint32_t kMaxSetOptions = 256;

// chosen: values of one sweep axis (a sweep's, or its series').
constexpr std::uint32_t kMaxSweepValues = 200;
// chosen: a full sweep axis (200 values) with a two-value series; the presets ask for 42 at most.
constexpr std::uint32_t kMaxSweepRuns = 400;
// chosen: simulated time summed over the main run and every sweep point, in µs. The presets ask
// for 4.5 s at most (web-sendfile-vs-write: 9 runs of 0.5 s); a simulated second costs from a
// fraction of a second to a few seconds of a 2020s CPU, so 60 s keeps any scenario to minutes.
constexpr double kMaxSimulatedUs = 60e6;
// chosen: requests replayed by the web cache-only runs, summed over the runs (work there grows
// with requests, not simulated time): the presets ask for 10.8 million at most (36 runs of
// 300,000); 100 million is nine replays of Table 4.1's whole World Cup trace, six of IBM's.
constexpr std::uint64_t kMaxReplayedRequests = 100000000;

// Requests replayed from an access log (parsed by the core's parser, or given as requests: the
// CLI's --requests, the browser's setAccessLog). Their count and distinct files are the parser's
// limits (workload/access_log.hpp: kLogMaxRequests, kLogMaxFiles; a file id is below
// kLogMaxFiles); bytes are bounded here.
// chosen: 1 GB per response, far above any file of Table 4.1's traces (NASA's largest ~5 MB).
constexpr std::uint64_t kMaxRequestBytes = std::uint64_t{1} << 30;
// chosen: the cache blocks the cache-only runs of a log reference, summed over the runs (a
// response of n bytes references n / block_bytes blocks): 2^30, about 45 replays of Table 4.1's
// whole NASA trace (96 GB) in 4 KB blocks, 5 in 512-byte ones; with kMaxRequestBytes it bounds
// the work of every line.
constexpr std::uint64_t kMaxReplayedBlocks = std::uint64_t{1} << 30;

}  // namespace nicsim
