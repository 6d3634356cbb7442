#include "nic/tigon/benchmark.hpp"

namespace nicsim {

namespace {
constexpr int kChunk = 16;  // one instruction-cache line of the loop body
}

double BenchResult::value(int cpu, BenchPhase p) const {
  const auto c = static_cast<std::size_t>(cpu);
  const auto i = static_cast<std::size_t>(p);
  const double ops_done = ops[c][i];
  const double seconds = static_cast<double>(time[c][i]) / 1e12;
  if (ops_done <= 0 || seconds <= 0) return 0.0;
  switch (p) {
    case BenchPhase::Instructions:
      return ops_done / seconds / 1e6;
    case BenchPhase::LoadLatencySram:
    case BenchPhase::LoadLatencyScratch:
      return seconds * 1e9 / ops_done;
    default:
      return ops_done * 4.0 / seconds / 1e6;  // 4-byte words
  }
}

TigonBenchmark::TigonBenchmark(SimContext* ctx, const TigonConfig& cfg, std::uint8_t cpus,
                               Time duration)
    : ctx_(ctx),
      cfg_(cfg),
      cpus_(cpus),
      phase_length_(duration / kBenchPhases),
      costs_(cfg),
      sram_(cfg.sram_bandwidth_mbs, cfg.sram_burst_bytes, cfg.sram_window) {}

void TigonBenchmark::start() {
  for (int cpu = 0; cpu < 2; ++cpu)
    if (cpus_ & (1 << cpu)) run_chunk(cpu);
}

void TigonBenchmark::fire(std::uint32_t tag) { run_chunk(static_cast<int>(tag)); }

void TigonBenchmark::run_chunk(int cpu) {
  const Time now = ctx_->now();
  const int phase = static_cast<int>(now / phase_length_);
  if (phase >= kBenchPhases) return;
  const auto p = static_cast<BenchPhase>(phase);
  TigonWork w;
  w.instructions = kChunk;
  TigonPlacement where;
  where.code_in_sram = cfg_.code_in_sram ? 1.0 : 0.0;
  bool sram_dest = false;
  switch (p) {
    case BenchPhase::Instructions:
      break;
    case BenchPhase::LoadLatencySram:
    case BenchPhase::LoadLatencyScratch:
      w.private_loads = kChunk;
      w.dependent_loads = true;
      sram_dest = p == BenchPhase::LoadLatencySram;
      break;
    case BenchPhase::LoadBandwidthSram:
    case BenchPhase::LoadBandwidthScratch:
      w.private_loads = kChunk;
      sram_dest = p == BenchPhase::LoadBandwidthSram;
      break;
    case BenchPhase::StoreBandwidthSram:
    case BenchPhase::StoreBandwidthScratch:
      w.private_stores = kChunk;
      sram_dest = p == BenchPhase::StoreBandwidthSram;
      break;
    case BenchPhase::Count:
      return;
  }
  where.data_in_sram = sram_dest ? 1.0 : 0.0;
  const SramClient me = cpu == 0 ? SramClient::CpuA : SramClient::CpuB;
  const TigonCost c = costs_.cost(w, where, cpu, sram_.load_seen_by(me, now));
  sram_.accesses(me, static_cast<std::int64_t>(c.sram_data_accesses + 0.5), 4, now);
  sram_.accesses(me, static_cast<std::int64_t>(c.sram_line_fills + 0.5), 64, now);
  const Time t = c.total();
  const auto ci = static_cast<std::size_t>(cpu);
  // A chunk that would run into the next phase is not counted: phases stay separate.
  if (now + t <= phase_length_ * (phase + 1)) {
    result_.ops[ci][static_cast<std::size_t>(phase)] += kChunk;
    result_.time[ci][static_cast<std::size_t>(phase)] += t;
    busy_[ci] += t;
    ctx_->after(t, this, static_cast<std::uint32_t>(cpu));
  } else {
    ctx_->at(phase_length_ * (phase + 1), this, static_cast<std::uint32_t>(cpu));
  }
}

}  // namespace nicsim
