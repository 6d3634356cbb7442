// SINIC and V-SINIC (the SINIC paper §3.1-3.3, Figs 2-4; register semantics as nic_facts §1.2-1.5):
// a receive FIFO and a transmit FIFO, one copy engine per direction sharing the L2 port, and
// per-VNIC RxData/RxDone/RxWait/TxData/TxDone/TxWait registers. SINIC is the one-VNIC case.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "sim/context.hpp"
#include "sim/status.hpp"
#include "sinic/net.hpp"
#include "sinic/sinic_config.hpp"

namespace nicsim {

// RxDone / RxWait (Fig 3; nic_facts §1.3).
struct RxDoneReg {
  std::uint32_t packets = 0;     // packets in the FIFO not yet bound to a VNIC
  bool busy = false;             // a copy is outstanding on this VNIC
  bool complete = false;         // the last copy completed
  bool more = false;             // the bound packet has bytes left in the FIFO (copy again here)
  bool empty = false;            // the FIFO is empty
  bool not_high = true;          // zero/deferred copy allowed (below the marks' hysteresis)
  bool ip = false, tcp = false;  // classification by the receive comparators
  bool ip_error = false, tcp_error = false;  // IPE/TCPE: checksum mismatch
  std::uint32_t copy_len = 0;  // bytes copied by the last copy (bytes left when `more`)
  NetPacket packet;            // the header as the driver reads it from its buffer
};

// TxDone / TxWait.
struct TxDoneReg {
  std::uint32_t packets = 0;  // packets in the transmit FIFO
  bool busy = false;
  bool complete = false;
  bool full = false;  // free space below one maximal copy
  std::uint32_t copy_len = 0;
};

class SinicDevice final : public EventHandler {
 public:
  // `cycle`: one CPU cycle (the L1-L2 port moves 64 bytes per cycle, Table 1).
  SinicDevice(SimContext* ctx, const SinicDeviceConfig& cfg, std::int64_t vnics, Time cycle,
              L2Port* port);

  // ---- the wire side ----
  bool rx_room(std::int64_t frame) const { return rx_occupancy_ + frame <= rx_capacity_; }
  void rx_frame(const NetPacket& p);  // the frame's last bit arrived (the caller checked room)
  std::function<bool()> link_busy;
  std::function<void(const NetPacket&)> link_send;
  void link_ready();  // the wire is free: send the next frame of the transmit FIFO

  // ---- registers (per VNIC) ----
  // RxData: copy up to `len` bytes of the VNIC's packet into memory; `no_delay` forbids the
  // zero-copy cut (nic_facts §1.3 NoDelay). One outstanding copy per VNIC (§3.2).
  Status write_rx_data(std::int64_t vnic, std::int64_t len, bool no_delay);
  RxDoneReg read_rx_done(std::int64_t vnic) const;
  // RxWait: the load is satisfied when the VNIC's copy is done (§3.1: "not satisfied until the
  // RX copy engine is free"); `done` runs then (at once if nothing is outstanding).
  void rx_wait(std::int64_t vnic, std::function<void(const RxDoneReg&)> done);
  // TxData: copy `len` bytes from memory into the transmit FIFO; `more`: the packet continues
  // in a later copy; `csum`: generate checksums. `packet` is the frame being built.
  Status write_tx_data(std::int64_t vnic, std::int64_t len, bool more, bool csum,
                       const NetPacket& packet);
  TxDoneReg read_tx_done(std::int64_t vnic) const;
  void tx_wait(std::int64_t vnic, std::function<void(const TxDoneReg&)> done);

  // Interrupt causes to the driver (RxPacket, TxLow; coalescing is the host's, §5.1).
  std::function<void()> on_rx_packet;
  std::function<void()> on_tx_space;
  // Where a receive copy's bytes went (the host places them in its L2).
  std::function<void(std::int64_t vnic, std::int64_t bytes, bool last)> on_rx_copy;

  std::int64_t vnics() const { return static_cast<std::int64_t>(rx_.size()); }
  std::int64_t rx_occupancy() const { return rx_occupancy_; }
  std::int64_t rx_capacity() const { return rx_capacity_; }
  std::int64_t tx_occupancy() const { return tx_occupancy_; }
  std::int64_t free_vnics() const;
  // A VNIC with no copy outstanding and no packet bound (the driver may start a new packet).
  bool vnic_idle(std::int64_t v) const {
    const RxVnic& x = rx_[static_cast<std::size_t>(v)];
    return !x.busy && x.entry < 0;
  }
  std::int64_t unbound_packets() const { return unbound_; }
  std::int64_t bound_vnics() const;
  bool rx_engine_busy() const { return rx_engine_busy_; }
  bool tx_engine_busy() const { return tx_engine_busy_; }
  bool not_high() const { return not_high_; }
  // Frames that left for the wire, in order (tests check no interleaving).
  std::function<void(const NetPacket&, std::int64_t vnic)> on_wire;
  // Records every receive VNIC that is not free (VnicState), as the trace window opens.
  void trace_snapshot();
  std::uint64_t zero_copy_cuts = 0;  // copies shortened to the header (payload deferred)
  std::uint64_t full_copies = 0;     // first copies of a packet not shortened

 private:
  struct RxEntry {
    NetPacket packet;
    std::int64_t frame = 0;
    std::int64_t left = 0;
    std::int64_t vnic = -1;
    bool done = false;
  };
  struct RxVnic {
    bool busy = false, complete = false, more = false;
    std::int64_t request = 0;  // length written to RxData
    bool no_delay = false;
    std::int64_t entry = -1;  // sequence number of the bound packet, -1 when unbound
    std::uint32_t copy_len = 0;
    NetPacket packet;
    std::vector<std::function<void(const RxDoneReg&)>> waiters;
  };
  struct TxVnic {
    bool busy = false, complete = false, queued = false;
    std::int64_t len = 0;
    bool more = false;
    std::uint32_t copy_len = 0;
    NetPacket packet;
    std::vector<std::function<void(const TxDoneReg&)>> waiters;
  };
  void fire(std::uint32_t) override {}
  void kick_rx();
  void rx_copy_done(std::int64_t vnic, std::int64_t len);
  void kick_tx();
  void tx_copy_done(std::int64_t vnic);
  RxEntry* entry(std::int64_t seq);
  void update_marks();
  Time copy_time(std::int64_t bytes) const;
  // Trace: a receive VNIC's state (sinic_regs.hpp VnicRx) with its packet and bytes.
  void note_vnic(std::int64_t vnic, std::uint32_t state, std::uint32_t packet, std::int64_t bytes);

  SimContext* ctx_;
  SinicDeviceConfig cfg_;
  Time cycle_;
  L2Port* port_;
  std::int64_t rx_capacity_;
  // Receive FIFO: packets in arrival order; a packet's bytes count until its last byte is
  // copied (see rx_copy_done).
  std::deque<RxEntry> fifo_;
  std::int64_t fifo_base_ = 0;  // sequence number of fifo_.front()
  std::int64_t rx_occupancy_ = 0;
  std::int64_t next_unbound_ = 0;
  std::int64_t unbound_ = 0;  // packets in the FIFO not bound to a VNIC  // sequence number of the
                              // oldest packet not bound to a VNIC
  bool not_high_ = true;
  std::vector<RxVnic> rx_;
  std::deque<std::int64_t> rx_new_, rx_continuing_;  // VNICs waiting for the engine
  bool rx_engine_busy_ = false;
  std::int64_t rx_engine_vnic_ = -1;  // the VNIC the receive engine copies for (trace only)
  // Transmit: VNICs in request order; the head owns the engine until its packet is complete
  // (§3.2: no interleaving on the link).
  std::vector<TxVnic> tx_;
  std::deque<std::int64_t> tx_list_;
  bool tx_engine_busy_ = false;
  std::int64_t assembling_ = 0;                             // bytes of the packet being built
  std::deque<std::pair<NetPacket, std::int64_t>> tx_fifo_;  // packet, owning VNIC
  std::int64_t tx_occupancy_ = 0;
};

}  // namespace nicsim
