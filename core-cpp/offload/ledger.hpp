// The bus-crossing ledger of one file transfer (the TCP offload paper §4.4, §4.6, Table 4): per
// direction (send = host to adapter, receive = adapter to host) the DMA count, the bytes and
// the bus cycles, each also split by what the DMA carries.
#pragma once
#include <array>
#include <cstdint>

#include "bus/pci_bus.hpp"

namespace nicsim {

enum class LedgerDir : std::uint8_t { Send = 0, Recv = 1, Count = 2 };
enum class LedgerPurpose : std::uint8_t {
  Descriptor = 0,  // E1000 transmit/receive descriptors; offload request descriptors
  Header = 1,      // protocol headers (with the HTTP header on the first segment)
  Payload = 2,     // file data, the HTTP request
  Control = 3,     // handshake, ACK and teardown frames
  Response = 4,    // offload response descriptors
  Index = 5,       // offload producer index updates, one per crossing
  Count = 6,
};
const char* ledger_purpose_name(LedgerPurpose p);

struct LedgerCell {
  std::uint64_t dmas = 0, bytes = 0, cycles = 0;
  LedgerCell& operator+=(const LedgerCell& o) {
    dmas += o.dmas;
    bytes += o.bytes;
    cycles += o.cycles;
    return *this;
  }
};

class OffloadLedger {
 public:
  // One DMA of `bytes`, charged by the bus's cost model (the same formula as PciBus's fixed
  // mode: overhead + ceil(bytes / width)).
  void add(LedgerDir d, LedgerPurpose p, std::uint64_t bytes, std::uint64_t cycles) {
    LedgerCell& c = cells_[idx(d)][static_cast<std::size_t>(p)];
    ++c.dmas;
    c.bytes += bytes;
    c.cycles += cycles;
  }
  const LedgerCell& cell(LedgerDir d, LedgerPurpose p) const {
    return cells_[idx(d)][static_cast<std::size_t>(p)];
  }
  LedgerCell total(LedgerDir d) const {
    LedgerCell t;
    for (const auto& c : cells_[idx(d)]) t += c;
    return t;
  }

 private:
  static std::size_t idx(LedgerDir d) { return static_cast<std::size_t>(d); }
  std::array<std::array<LedgerCell, static_cast<std::size_t>(LedgerPurpose::Count)>, 2> cells_{};
};

}  // namespace nicsim
