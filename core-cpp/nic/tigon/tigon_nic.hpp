// The Tigon programmable NIC running its event-driven firmware (the thesis §3.1–§3.3).
//
// Two 88 MHz CPUs each spin in a dispatch loop: PRI picks the most significant set bit of
// (event register AND mask), JOFF jumps to its handler, and the handler runs to completion
// (§3.1.2). A CPU's event register shows the events pending that its partition lets it
// handle. Handlers claim their work when they start (a DMA completion, a received frame, the
// next send BD) and their effects (DMA and MAC descriptors enqueued, indices, events raised,
// the host interrupted) take place when they end, after the time their code takes
// (TigonCostModel) plus SRAM contention. Events never interrupt a handler.
//
// Send follows §3.1.3's seven steps (Mailbox → Send BD Ready → DMA Read Complete → Send Data
// Ready → DMA Read Complete → Update Send Consumer → DMA Write Complete) and receive its five
// (Receive Complete → Update Receive Return Producer → three DMA Write Completes).
#pragma once
#include <array>
#include <cstdint>

#include "nic/coalescer.hpp"
#include "nic/dma_engine.hpp"
#include "nic/nic_device.hpp"
#include "nic/ring.hpp"
#include "nic/tigon/cost_model.hpp"
#include "nic/tigon/firmware.hpp"
#include "nic/tigon/sram.hpp"
#include "sim/fifo.hpp"

namespace nicsim {

struct Rings;

// Counters of one Tigon, cumulative; the run takes differences over the measured window.
struct TigonStats {
  std::array<Time, kTigonEvents> handler_time{};  // both CPUs
  std::array<std::uint64_t, kTigonEvents> handler_runs{};
  std::array<Time, kTigonPaths> path_time{};
  std::array<std::uint64_t, kTigonPaths> path_runs{};
  std::array<Time, 2> cpu_busy{};      // handlers, dispatch loop and spinning
  std::array<Time, 2> cpu_handlers{};  // handlers only
  std::array<Time, 2> cpu_spin{};
  double sram_accesses = 0;
  double sram_wait = 0;                        // ps, summed over accesses
  std::uint64_t units_in = 0, units_done = 0;  // work items raised and handled (exactly once)
};

class TigonNic final : public NicDevice, private EventHandler {
 public:
  TigonNic(SimContext* ctx, const Config& cfg, unsigned instance, Rings rings, IoBus* bus,
           Tally* tally);
  void attach_interrupt(InterruptLine* irq) override { irq_ = irq; }
  void attach_tx_link(LinkDirection* tx) override { tx_link_ = tx; }

  void mailbox_write(Mailbox box, std::uint32_t value, RecordId cause) override;
  std::uint32_t register_read(Register reg) override;
  void dma_done(DmaChannel ch, const DmaRequest& req) override;
  void dma_space(DmaChannel ch) override;
  void frame_arrived(const Frame& f) override;
  void link_sent(const Frame& f) override;
  void link_ready() override;

  std::int64_t tx_buffer_used() const override { return tx_used_; }
  std::int64_t rx_buffer_used() const override { return rx_used_; }
  const DmaEngine& dma() const override { return dma_; }

  const TigonStats& stats() const { return stats_; }
  // Work items (DMA completions, received frames) raised and not yet handled: queued for a
  // handler or claimed by a running one. units_in − units_done must equal this at any time.
  std::uint64_t work_outstanding() const;
  // The CPUs' busy time so far, including a handler in progress.
  Time cpu_busy_at(int cpu, Time now) const;
  // Semaphore spin time until now, a spin in progress included.
  Time cpu_spin_at(int cpu, Time now) const;
  double sram_utilization(Time now) { return sram_.utilization(now); }
  Time sram_busy_at(Time now) const { return sram_.busy_at(now); }
  // Which CPUs may run each event under the configured firmware.
  const TigonPartition& partition() const { return partition_; }

 private:
  enum Tag : std::uint32_t {
    kDispatched = 1,  // + cpu << 8: the dispatch loop has picked (or found nothing)
    kLocked,          // + cpu << 8: the semaphore is ours
    kHandlerEnd,      // + cpu << 8
    kSendTimer,       // + generation << 8
    kReturnTimer,     // + generation << 8
    kDmaLanded,       // a DMA's bytes have passed the SRAM
    kSnapshot,        // the trace window opens: record the registers and queues
  };
  void record_snapshot();
  void dma_landed(DmaChannel ch, const DmaRequest& req);
  enum class CpuState : std::uint8_t { Idle, Dispatching, Locking, Spinning, Running };

  // A unit of work a handler claimed when it started.
  struct Work {
    TigonPath path = TigonPath::MailboxRead;
    DmaRequest dma;           // a DMA completion (DRC, DWC)
    Frame frame;              // a received frame (RC)
    std::uint64_t index = 0;  // a ring index (SDR's BD, RC's receive BD, SBDR's count)
    std::uint32_t mailbox_dirty = 0;
    std::array<std::uint32_t, 4> mailbox_values{};
    RecordId cause = 0;    // the record that raised the event it serves (trace flows)
    RecordId handler = 0;  // its TigonHandler record
  };
  struct Cpu {
    CpuState state = CpuState::Idle;
    TigonEvent event = TigonEvent::Mailbox;
    bool holds_lock = false;
    Work work;
    Time spin_started = 0, duration = 0;
    // The current dispatch, semaphore access or handler: cpu_busy_at counts only its elapsed
    // part, so a window's edge does not take busy time from the other side of it.
    Time busy_from = 0, busy_until = 0;
    std::uint16_t recorded_bits = 0xFFFF;
    std::uint16_t recorded_mask = 0xFFFF;
    // Send Data Ready or Receive Complete, whichever ran last: masked while the other is
    // pending, so neither direction starves the other.
    int deferred = -1;
  };

  void fire(std::uint32_t tag) override;
  bool cpu_present(int cpu) const { return present_[static_cast<std::size_t>(cpu)]; }
  // Bit e set when event e of `events` has work its handler may start now.
  std::uint16_t ready_among(std::uint16_t events) const;
  bool ready(TigonEvent e) const {
    return ready_among(static_cast<std::uint16_t>(1u << static_cast<int>(e))) != 0;
  }
  // The events some CPU handles that are ready: both registers follow from it, so the state
  // behind each event is looked at once per reading of them.
  std::uint16_t ready_bits() const { return ready_among(handled_); }
  std::uint16_t register_bits(int cpu, std::uint16_t ready_set) const;
  std::uint16_t mask_bits(int cpu, std::uint16_t ready_set) const;
  void wake();
  void dispatched(int cpu);
  // Whether a handler of `e` on `cpu` must hold the semaphore (fixed by the partition).
  bool lock_needed(int cpu, TigonEvent e) const;
  // `checked`: the dispatch loop has just read the event ready in this CPU's register (nothing
  // has changed since), so it need not be looked at again.
  void begin(int cpu, bool checked);
  void end(int cpu);
  void release_lock(int cpu);
  void record_registers(std::uint16_t ready_set);
  // Reads the ready set afresh, not the caller's: a claim (or a snapshot) has changed the state
  // since. A record (outside the window, its id) is taken only when a register changed, so every
  // later record id depends on reading the registers as they are now.
  void record_registers() { record_registers(ready_bits()); }

  // Into the CPU's own Work: it is large, and a copy on every handler shows in the profile.
  void claim(TigonEvent e, Work* claimed);
  void finish(int cpu, TigonEvent e, const Work& w);
  TigonPlacement placement_for(int cpu, TigonEvent event) const;

  // Queues a DMA the handler whose TigonHandler record is `handler` asked for.
  void issue(DmaChannel ch, RecordId handler, DmaRequest req);
  RecordId source(TigonEvent e) const;  // the record that made event e pending
  bool channel_free(DmaChannel ch) const;
  void raise(TigonEvent e, RecordId cause);
  void lower(TigonEvent e) {  // its handler claimed it
    raised_ = static_cast<std::uint16_t>(raised_ & ~(1u << static_cast<int>(e)));
  }
  void interrupt_host(std::uint32_t cause, std::uint32_t trigger, RecordId why);
  void kick_mac();
  void timer_expired(Coalescer& c, std::uint32_t generation, std::uint32_t cause,
                     std::uint32_t* trigger, TigonEvent event);

  std::uint16_t me(Component c) const { return component_id(c, instance_); }

  SimContext* ctx_;
  NicConfig cfg_;
  TigonConfig tcfg_;
  unsigned instance_;
  DescriptorRing* send_;
  DescriptorRing* receive_;
  DescriptorRing* ret_;
  DmaEngine dma_;
  Sram sram_;
  TigonCostModel costs_;
  Tally* tally_;
  InterruptLine* irq_ = nullptr;
  LinkDirection* tx_link_ = nullptr;
  TigonPartition partition_{};
  bool usc_by_dma_ = true;
  std::array<Cpu, 2> cpus_;
  // Fixed by the firmware and its partition, so worked out once: where each CPU's code and
  // data live, which of its events must hold the semaphore, one pass of its dispatch loop.
  std::array<std::array<TigonPlacement, kTigonEvents>, 2> placement_{};  // [cpu][event]
  std::array<std::uint16_t, 2> lock_events_{};
  // What each path costs a CPU apart from the SRAM's contention, and the SRAM traffic it adds.
  struct PathCost {
    Time time = 0;
    double sram_accesses = 0;  // data accesses and line fills, which wait for the SRAM's others
    Sram::Traffic traffic;
  };
  std::array<std::array<PathCost, kTigonPaths>, 2> path_cost_{};  // [cpu][path]
  std::array<bool, 2> present_{};
  std::array<std::uint16_t, 2> partition_mask_{};  // [cpu]: the events its partition gives it
  std::uint16_t handled_ = 0;                      // the events either CPU may handle
  // What record_registers last read them from (the ready set and the CPUs' turns).
  static constexpr std::uint32_t kNoRegisters = 0xFFFFFFFFu;
  std::uint32_t registers_from_ = kNoRegisters;
  std::array<Time, 2> loop_time_{};
  int lock_holder_ = -1;
  int spinner_ = -1;
  Fifo<DmaRequest> backlog_[2];
  struct Landing {
    DmaChannel ch;
    DmaRequest req;
  };
  Fifo<Landing> landing_;  // DMAs done on the bus, their bytes still queued at the SRAM
  TigonStats stats_;

  // Hardware state behind the events.
  std::uint32_t mailbox_dirty_ = 0;  // bit per Mailbox written since the handler last read
  std::array<std::uint32_t, 4> mailbox_values_{};
  Fifo<DmaRequest> read_done_, write_done_;  // DMA completions not yet handled
  Fifo<Frame> rx_queue_;                     // MAC receive queue: frames in the buffer
  std::int64_t rx_used_ = 0;
  // Firmware events raised and not yet dispatched.
  std::uint16_t raised_ = 0;                        // bit per event
  std::array<RecordId, kTigonEvents> raised_by_{};  // the record that raised each event bit
  RecordId mailbox_cause_ = 0;                      // the last mailbox write that arrived

  // Firmware state (§3.1.3).
  std::uint64_t send_notified_ = 0, recv_notified_ = 0;  // driver producer indices seen
  bool send_fetch_inflight_ = false, recv_fetch_inflight_ = false;
  std::uint64_t send_next_data_ = 0;  // next fetched send BD whose data to fetch (SDR)
  std::int64_t tx_used_ = 0;
  bool tx_wait_ = false;         // SDR found the transmit buffer full
  bool rx_wait_bds_ = false;     // RC waits for receive BDs being fetched
  std::uint64_t data_done_ = 0;  // send BDs whose data DMA completed (in ring order)
  struct MacDescriptor {
    Frame frame;
    std::uint64_t end_index;  // the BD whose data completes the frame
  };
  Fifo<MacDescriptor> mac_tx_;  // MAC transmit queue
  std::uint32_t frame_so_far_ = 0, payload_so_far_ = 0;
  Fifo<Descriptor> return_pending_;
  std::int64_t return_reserved_ = 0;
  // Interrupt coalescing (§3.1.3; ticks and max BDs as in nic_facts §3.7).
  Coalescer send_coalesce_, return_coalesce_;
  std::uint32_t send_trigger_ = 0, return_trigger_ = 0;  // 1 when the timer raised the event
};

}  // namespace nicsim
