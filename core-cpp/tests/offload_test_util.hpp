// The TCP offload tests' machine: the paper's 64-bit, 133 MHz PCI-X bus under its cost model
// (§4.4), one file of `kb` KB through interface `i`.
#pragma once
#include "scenario/config.hpp"

namespace nicsim::testing {

inline Config offload_pcix(OffloadInterface i, std::int64_t kb) {
  Config c;
  c.workload.kind = WorkloadKind::TcpOffload;
  c.bus.model = BusModel::Fixed;
  c.bus.protocol = BusProtocol::PciX;
  c.bus.width_bits = 64;
  c.bus.clock_mhz = 133;
  c.bus.overhead_cycles = 4;
  c.offload.interface = i;
  c.offload.file_bytes = kb * 1024;
  return c;
}

}  // namespace nicsim::testing
