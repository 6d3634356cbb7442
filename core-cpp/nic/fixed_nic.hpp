// A fixed-function (ASIC-like) descriptor-ring NIC, thesis §2.3 (Figs 2.4 and 2.5): send steps
// S3–S6 and receive steps R1–R4 as small pipelined state machines with configurable delays.
// It talks to the rest of the system only through ports: mailbox writes in, DMA requests out,
// frames to and from the link, an interrupt line. The Tigon firmware model replaces this class
// behind the same ports.
#pragma once
#include <cstdint>

#include "host/host_bridge.hpp"
#include "link/ethernet_link.hpp"
#include "nic/coalescer.hpp"
#include "nic/dma_engine.hpp"
#include "nic/nic_device.hpp"
#include "nic/ring.hpp"
#include "nic/tally.hpp"
#include "scenario/config.hpp"
#include "sim/fifo.hpp"

namespace nicsim {

struct Rings {
  DescriptorRing* send;
  DescriptorRing* receive;
  DescriptorRing* ret;
};

// EventHandler first: it sits at offset 0, so the queue calls fire() with no this-adjusting
// thunk (fire is the NIC's most frequent virtual call; the mailbox writes, fewer, take the thunk
// instead).
class FixedFunctionNic final : private EventHandler, public NicDevice {
 public:
  FixedFunctionNic(SimContext* ctx, const NicConfig& cfg, unsigned instance, Rings rings,
                   IoBus* bus, Tally* tally);
  void attach_interrupt(InterruptLine* irq) override { irq_ = irq; }
  void attach_tx_link(LinkDirection* tx) override { tx_link_ = tx; }

  // Ports.
  void mailbox_write(Mailbox box, std::uint32_t value, RecordId cause) override;
  std::uint32_t register_read(Register reg) override;
  void dma_done(DmaChannel ch, const DmaRequest& req) override;
  void dma_space(DmaChannel ch) override;
  void frame_arrived(const Frame& f) override;  // from the peer (R1)
  void link_sent(const Frame& f) override;      // our frame left (S5 done)
  void link_ready() override;

  std::int64_t tx_buffer_used() const override { return tx_used_; }
  std::int64_t rx_buffer_used() const override { return rx_used_; }
  const DmaEngine& dma() const override { return dma_; }

 private:
  enum Tag : std::uint32_t {
    kMailbox = 1,
    kSendData,
    kTxFrame,
    kRxIssue,
    kInterrupt,
    kSendTimer,    // + generation << 8
    kReturnTimer,  // + generation << 8
  };
  void fire(std::uint32_t tag) override;

  // Queues a DMA (behind any the channel refused): true when the engine took it (`queued`, if
  // given, gets its DmaQueued record), false when it waits in the backlog.
  [[gnu::always_inline]] bool issue(DmaChannel ch, const DmaRequest& req,
                                    RecordId* queued = nullptr);
  bool can_issue(DmaChannel ch) const { return backlog_[static_cast<int>(ch)].empty(); }
  // Fetching descriptors the driver announced (S3, and receive buffers): one DMA read at a
  // time, at most bd_fetch_max descriptors, never past the ring's end.
  struct DescriptorFetch {
    DescriptorRing* ring;
    Purpose purpose;
    std::int64_t bd_bytes;
    std::uint64_t notified = 0;  // the driver's producer index, from its mailbox
    bool inflight = false;
    RecordId cause = 0;  // the mailbox write that announced the descriptors
  };
  // Reporting an index to the host with interrupt coalescing (S6, R4; thesis §3.1.3): when the
  // coalescer says so, DMA-write the index and then interrupt.
  struct IndexReport {
    DescriptorRing* ring;
    Copy side;  // the copy whose index is reported: NIC consumer (send) or producer (return)
    bool producer_index;
    Purpose purpose;
    std::uint32_t cause;
    Coalescer coalescer;
    bool inflight = false, again = false;
    RecordId last = 0;  // the record of the last descriptor to report (its cause)
  };

  void kick_all();
  void kick_fetch(DescriptorFetch& f);
  void fetched(DescriptorFetch& f, std::uint64_t n, RecordId done);
  void kick_send_data();
  void retire_send();
  void kick_mac();
  void kick_rx();
  void drop(const Frame& f, std::uint32_t reason);
  void coalesce(IndexReport& r, RecordId why);  // one more descriptor to report
  void write_index(IndexReport& r, std::uint32_t trigger, RecordId why);
  void index_written(IndexReport& r, std::uint64_t cookie, RecordId done);
  void timer_fired(IndexReport& r, std::uint32_t generation);
  void interrupt(std::uint32_t cause, std::uint32_t trigger, RecordId why);

  std::uint16_t me(Component c) const { return component_id(c, instance_); }

  SimContext* ctx_;
  NicConfig cfg_;
  unsigned instance_;
  Rings rings_;
  DmaEngine dma_;
  InterruptLine* irq_ = nullptr;
  Tally* tally_;
  LinkDirection* tx_link_ = nullptr;
  Fifo<DmaRequest> backlog_[2];  // requests a full DMA channel refused, in order

  struct PendingMailbox {
    Mailbox box;
    std::uint32_t value;
    RecordId cause;
  };
  Fifo<PendingMailbox> mailboxes_;

  DescriptorFetch send_fetch_, recv_fetch_;
  IndexReport send_report_, return_report_;

  // Send side.
  std::uint64_t send_next_data_ = 0;  // next fetched descriptor whose data to fetch (S4)
  // Bytes inserted into the cache whose append (the descriptor after the insert) is still to
  // come: those appends are not hits.
  std::uint64_t inserted_to_append_ = 0;
  Fifo<bool> send_done_;  // issued descriptors from the consumer index: done yet?
  bool send_data_busy_ = false;
  bool tx_buffer_wait_ = false;
  std::int64_t tx_used_ = 0;
  Fifo<Frame> tx_ready_;                                 // data arrived, being handed to the MAC
  std::uint32_t frame_so_far_ = 0, payload_so_far_ = 0;  // buffers of a packet fetched so far
  Fifo<Frame> mac_queue_;                                // MAC transmit queue

  // Receive side.
  std::int64_t rx_used_ = 0;
  Fifo<Frame> rx_queue_;  // frames in the receive buffer awaiting a descriptor
  bool rx_busy_ = false;
  bool return_full_ = false;
  std::int64_t return_reserved_ = 0;
  Fifo<Descriptor> return_pending_;  // return descriptors being written

  struct PendingInterrupt {
    std::uint32_t cause;
    std::uint32_t trigger;
    RecordId why;
  };
  Fifo<PendingInterrupt> interrupts_;
};

}  // namespace nicsim
