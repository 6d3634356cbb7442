// A fixed-function (ASIC-like) descriptor-ring NIC, thesis §2.3 (Figs 2.4 and 2.5): send steps
// S3–S6 and receive steps R1–R4 as small pipelined state machines with configurable delays.
// It talks to the rest of the system only through ports: mailbox writes in, DMA requests out,
// frames to and from the link, an interrupt line. The Tigon firmware model replaces this class
// behind the same ports.
#pragma once
#include <cstdint>
#include <deque>

#include "host/host_bridge.hpp"
#include "link/ethernet_link.hpp"
#include "nic/dma_engine.hpp"
#include "nic/ring.hpp"
#include "nic/tally.hpp"
#include "scenario/config.hpp"

namespace nicsim {

struct Rings {
  DescriptorRing* send;
  DescriptorRing* receive;
  DescriptorRing* ret;
};

class FixedFunctionNic final : public MailboxTarget,
                               public DmaClient,
                               public LinkEndpoint,
                               private EventHandler {
 public:
  FixedFunctionNic(SimContext* ctx, const NicConfig& cfg, Rings rings, IoBus* bus,
                   InterruptLine* irq, Tally* tally);
  void attach_tx_link(LinkDirection* tx) { tx_link_ = tx; }

  // Ports.
  void mailbox_write(Mailbox box, std::uint32_t value) override;
  void dma_done(DmaChannel ch, const DmaRequest& req) override;
  void dma_space(DmaChannel ch) override;
  void frame_arrived(const Frame& f) override;  // from the peer (R1)
  void link_sent(const Frame& f) override;      // our frame left (S5 done)
  void link_ready() override;

  std::int64_t tx_buffer_used() const { return tx_used_; }
  std::int64_t rx_buffer_used() const { return rx_used_; }
  const DmaEngine& dma() const { return dma_; }

 private:
  enum Tag : std::uint32_t {
    kMailbox = 1,
    kSendData,
    kTxFrame,
    kRxIssue,
    kInterrupt,
    kSendTimer,     // + generation << 8
    kReturnTimer,   // + generation << 8
  };
  void fire(std::uint32_t tag) override;

  void issue(DmaChannel ch, const DmaRequest& req);
  bool can_issue(DmaChannel ch) const { return backlog_[static_cast<int>(ch)].empty(); }
  void kick_all();
  void kick_send_fetch();
  void kick_recv_fetch();
  void kick_send_data();
  void kick_mac();
  void kick_rx();
  void drop(const Frame& f, std::uint32_t reason);
  void coalesce_send();
  void coalesce_return();
  void write_send_index(std::uint32_t trigger);
  void write_return_index(std::uint32_t trigger);
  void interrupt(std::uint32_t cause, std::uint32_t trigger);

  SimContext* ctx_;
  NicConfig cfg_;
  Rings rings_;
  DmaEngine dma_;
  InterruptLine* irq_;
  Tally* tally_;
  LinkDirection* tx_link_ = nullptr;
  std::deque<DmaRequest> backlog_[2];  // requests a full DMA channel refused, in order

  struct PendingMailbox {
    Mailbox box;
    std::uint32_t value;
  };
  std::deque<PendingMailbox> mailboxes_;

  // Send side.
  std::uint64_t send_notified_ = 0;  // the driver's producer index, from the mailbox
  bool send_fetch_inflight_ = false;
  std::uint64_t send_next_data_ = 0;  // next fetched descriptor whose data to fetch (S4)
  bool send_data_busy_ = false;
  bool tx_buffer_wait_ = false;
  std::int64_t tx_used_ = 0;
  std::deque<Frame> tx_ready_;  // data arrived, being handed to the MAC
  std::deque<Frame> mac_queue_; // MAC transmit queue
  std::uint64_t unreported_send_ = 0;
  bool send_index_inflight_ = false, send_index_again_ = false;
  bool send_timer_armed_ = false;
  std::uint32_t send_timer_gen_ = 0;

  // Receive side.
  std::uint64_t recv_notified_ = 0;
  bool recv_fetch_inflight_ = false;
  std::int64_t rx_used_ = 0;
  std::deque<Frame> rx_queue_;  // frames in the receive buffer awaiting a descriptor
  bool rx_busy_ = false;
  bool return_full_ = false;
  std::int64_t return_reserved_ = 0;
  std::deque<Descriptor> return_pending_;  // return descriptors being written
  std::uint64_t unreported_return_ = 0;
  bool return_index_inflight_ = false, return_index_again_ = false;
  bool return_timer_armed_ = false;
  std::uint32_t return_timer_gen_ = 0;

  struct PendingInterrupt {
    std::uint32_t cause;
    std::uint32_t trigger;
  };
  std::deque<PendingInterrupt> interrupts_;
};

}  // namespace nicsim
