// What a Tigon CPU spends executing code (the thesis §3.4.1, Table 3.5): one cycle per
// instruction fetched from the scratch pad; from the external SRAM through the one-line 64-byte
// instruction cache, a miss every 16 instructions costing a 7-cycle fetch; loads and stores to
// the scratch pad or the SRAM at Table 3.5's latencies; every SRAM access also waits for the
// SRAM's other users (Sram::load_seen_by).
#pragma once
#include <cstdint>

#include "nic/tigon/sram.hpp"
#include "scenario/config.hpp"

namespace nicsim {

struct TigonWork {
  double instructions = 0;   // all instructions, memory ones included
  double private_loads = 0;  // of private data (scratch pad unless SRAM-DATA)
  double private_stores = 0;
  double shared_loads = 0;  // of data that always lives in SRAM
  double shared_stores = 0;
  bool dependent_loads = false;  // pointer chasing: each load waits for the previous one
};

struct TigonPlacement {
  double code_in_sram = 0;  // share of instruction fetches served by the SRAM (0..1)
  double data_in_sram = 0;  // share of private data accesses served by the SRAM
};

struct TigonCost {
  Time time = 0;  // without SRAM contention
  double sram_data_accesses = 0;
  double sram_line_fills = 0;
  Time contention = 0;  // extra wait for the SRAM's other users
  Time total() const { return time + contention; }
};

class TigonCostModel {
 public:
  explicit TigonCostModel(const TigonConfig& cfg);
  Time cycle() const { return cycle_; }
  // `cpu` 0 = A, 1 = B (CPU B's smaller scratch pad reads faster, Table 3.5).
  TigonCost cost(const TigonWork& w, const TigonPlacement& where, int cpu,
                 const Sram::Load& load) const;
  double scratch_load_cycles(int cpu, double code_in_sram) const;
  // The extra wait, in ps, of `accesses` SRAM accesses (data accesses and line fills) under the
  // others' load: TigonCost::contention, unrounded.
  static double sram_wait(double accesses, const Sram::Load& load) {
    return accesses * static_cast<double>(load.wait);
  }

 private:
  TigonConfig cfg_;
  Time cycle_;
};

}  // namespace nicsim
