#include "nic/tigon/cost_model.hpp"

#include <algorithm>

namespace nicsim {

TigonCostModel::TigonCostModel(const TigonConfig& cfg)
    : cfg_(cfg), cycle_(1000000 / std::max<std::int64_t>(1, cfg.clock_mhz)) {}

double TigonCostModel::scratch_load_cycles(int cpu, double code_in_sram) const {
  // CPU A's scratch pad serves instruction fetch first: one more cycle per load when the code
  // is there too (Table 3.5: 38 → 47 ns). CPU B's does not slow down (35 ns).
  const double base =
      static_cast<double>(cpu == 0 ? cfg_.scratch_load_cycles_a : cfg_.scratch_load_cycles_b);
  return cpu == 0 ? base + (1.0 - code_in_sram) : base;
}

TigonCost TigonCostModel::cost(const TigonWork& w, const TigonPlacement& where, int cpu,
                               const Sram::Load& load) const {
  const double cyc = static_cast<double>(cycle_);
  const double code = where.code_in_sram, data = where.data_in_sram;
  // Fetch: one cycle each; from SRAM a line miss every icache_line_instructions.
  const double fills = code * w.instructions / static_cast<double>(cfg_.icache_line_instructions);
  double ps = w.instructions * cyc + fills * static_cast<double>(cfg_.icache_miss_cycles - 1) * cyc;
  // A load's issue cycle is counted above; independent loads overlap one more cycle with what
  // follows (Table 3.5: load bandwidth is a little above 4 B / latency), dependent ones do not.
  const double overlap = w.dependent_loads ? 1.0 : 2.0;
  const double sram_load_extra = std::max(0.0, static_cast<double>(cfg_.sram_load) - overlap * cyc);
  const double scratch_load_extra = std::max(0.0, (scratch_load_cycles(cpu, code) - overlap) * cyc);
  // Stores: pipelined into the scratch pad when code comes from SRAM; alternating with fetch
  // when both share it (Table 3.5: 230 → 162 MB/s); under-pipelined into the SRAM.
  const double scratch_store_extra =
      (1.0 - code) * cyc + code * static_cast<double>(cfg_.scratch_store_cycles - 1) * cyc;
  const double sram_store_extra = std::max(0.0, static_cast<double>(cfg_.sram_store) - cyc);
  ps += w.private_loads * (data * sram_load_extra + (1.0 - data) * scratch_load_extra);
  ps += w.private_stores * (data * sram_store_extra + (1.0 - data) * scratch_store_extra);
  ps += w.shared_loads * sram_load_extra + w.shared_stores * sram_store_extra;
  TigonCost c;
  c.time = static_cast<Time>(ps);
  c.sram_line_fills = fills;
  c.sram_data_accesses =
      w.shared_loads + w.shared_stores + data * (w.private_loads + w.private_stores);
  c.contention = static_cast<Time>(sram_wait(c.sram_line_fills + c.sram_data_accesses, load));
  return c;
}

}  // namespace nicsim
