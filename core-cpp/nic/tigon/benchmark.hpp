// Table 3.5's LMbench-style micro-benchmark on the Tigon's CPUs (the thesis §3.4.1): sequences of
// adds (instruction throughput), dependent pointer-chasing loads (load latency), independent
// stride-1 loads and stores (bandwidth), to the scratch pad or the SRAM, on CPU A, CPU B or
// both at once. Each CPU runs the loops through the same cost model and SRAM as the firmware,
// so the two CPUs contend for the SRAM exactly as handlers do.
#pragma once
#include <array>
#include <cstdint>

#include "nic/tigon/cost_model.hpp"
#include "nic/tigon/sram.hpp"
#include "sim/context.hpp"

namespace nicsim {

enum class BenchPhase : std::uint8_t {
  Instructions,
  LoadLatencySram,
  LoadLatencyScratch,
  LoadBandwidthSram,
  LoadBandwidthScratch,
  StoreBandwidthSram,
  StoreBandwidthScratch,
  Count
};
constexpr int kBenchPhases = static_cast<int>(BenchPhase::Count);

struct BenchResult {
  // Per CPU (0 = A, 1 = B) and phase: operations completed and time spent.
  std::array<std::array<double, kBenchPhases>, 2> ops{};
  std::array<std::array<Time, kBenchPhases>, 2> time{};
  // Million instructions/s, ns per load, MB/s, for CPU `cpu`.
  double value(int cpu, BenchPhase p) const;
};

class TigonBenchmark final : private EventHandler {
 public:
  TigonBenchmark(SimContext* ctx, const TigonConfig& cfg, std::uint8_t cpus, Time duration);
  void start();
  const BenchResult& result() const { return result_; }
  Time busy(int cpu) const { return busy_[static_cast<std::size_t>(cpu)]; }

 private:
  void fire(std::uint32_t tag) override;
  void run_chunk(int cpu);

  SimContext* ctx_;
  TigonConfig cfg_;
  std::uint8_t cpus_;
  Time phase_length_;
  TigonCostModel costs_;
  Sram sram_;
  BenchResult result_;
  std::array<Time, 2> busy_{};
};

}  // namespace nicsim
