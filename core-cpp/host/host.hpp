// The host: one CPU running the device driver (thesis §2.3). The send task builds a UDP
// packet, posts its descriptor (S1) and writes the send mailbox (S2); the interrupt handler
// (R4/S6) passes received packets up, recycles send descriptors, replenishes receive buffers
// and writes the mailboxes. The CPU does one thing at a time; an interrupt is taken as soon as
// the current task ends. A full send ring stalls the send task; a full posted-write buffer
// stalls the CPU on its mailbox write.
#pragma once
#include <cstdint>
#include <deque>

#include "host/host_bridge.hpp"
#include "nic/fixed_nic.hpp"
#include "sim/stats.hpp"

namespace nicsim {

class Host final : public InterruptLine, private EventHandler, private PioWaiter {
 public:
  Host(SimContext* ctx, const Config& cfg, Rings rings, HostBridge* bridge, Tally* tally);
  void start();
  void raise_interrupt(std::uint32_t causes) override;
  Time cpu_busy_total(Time now) const { return cpu_.total(now); }

  // Receive deliveries come in bursts, one per interrupt (coalescing), so a plain window count
  // is off by up to a burst. Rates are measured between the first and the last interrupt that
  // delivered packets after warm-up: whole bursts only.
  struct Epoch {
    Time time = 0;
    std::uint64_t packets = 0, bytes = 0;
  };
  bool have_receive_epochs() const { return epochs_ >= 2; }
  const Epoch& first_epoch() const { return first_; }
  const Epoch& last_epoch() const { return last_; }

 private:
  enum class Task { None, Send, Interrupt };
  void fire(std::uint32_t tag) override;
  void pio_space() override { flush_pio(); }
  void dispatch();
  bool send_wanted() const;
  void finish_send();
  void finish_interrupt();
  void flush_pio();
  void record_busy(std::uint32_t task, Time duration);

  SimContext* ctx_;
  HostConfig host_;
  WorkloadConfig workload_;
  Rings rings_;
  HostBridge* bridge_;
  Tally* tally_;
  BusyTime cpu_;

  Task task_ = Task::None;
  bool stalled_on_pio_ = false;
  bool stalled_on_ring_ = false;
  bool started_ = false;
  bool interrupt_pending_ = false;
  std::uint32_t interrupt_number_ = 0;
  std::uint64_t isr_receives_ = 0, isr_completions_ = 0;
  std::uint64_t reclaimed_ = 0;  // send descriptors the driver has recycled
  std::uint64_t sent_ = 0;
  std::int64_t posted_ = 0;  // receive buffers kept posted
  Time warmup_;
  Epoch first_, last_;
  std::uint64_t epochs_ = 0;
  std::deque<std::pair<Mailbox, std::uint32_t>> pio_;
};

// The machine at the other end of the wire: sends at line rate (receive workloads) and sinks
// what the host sends, counting it.
class Peer final : public LinkEndpoint {
 public:
  Peer(SimContext* ctx, const Config& cfg, Tally* tally);
  void attach(LinkDirection* to_nic) { to_nic_ = to_nic; }
  void start();
  void frame_arrived(const Frame& f) override;
  void link_sent(const Frame&) override {}
  void link_ready() override;

 private:
  class Sender final : public EventHandler {
   public:
    explicit Sender(Peer* p) : peer_(p) {}
    void fire(std::uint32_t) override { peer_->send_next(); }

   private:
    Peer* peer_;
  };
  void send_next();

  SimContext* ctx_;
  WorkloadConfig workload_;
  Tally* tally_;
  LinkDirection* to_nic_ = nullptr;
  Sender sender_{this};
  std::uint64_t sent_ = 0;
  bool have_frame_ = false;
  Frame next_;
};

}  // namespace nicsim
