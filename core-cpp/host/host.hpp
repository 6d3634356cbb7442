// The host: one CPU running one device driver per NIC (thesis §2.3). A driver's send task
// builds a packet, posts its descriptor(s) (S1) and writes the send mailbox (S2); its interrupt
// handler (R4/S6) passes received packets up, recycles send descriptors, replenishes receive
// buffers and writes the mailboxes. The CPU does one thing at a time and takes a pending
// interrupt as soon as its current task ends. A full send ring stalls that driver's send task;
// a full posted-write buffer stalls the CPU on its mailbox write.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "host/host_bridge.hpp"
#include "nic/fixed_nic.hpp"
#include "sim/stats.hpp"

namespace nicsim {

class HostCpu;

class Driver final : public InterruptLine {
 public:
  Driver(SimContext* ctx, const Config& cfg, unsigned instance, Rings rings, MailboxTarget* nic,
         HostCpu* cpu, Tally* tally);
  void start(PioQueue* pio);  // pre-allocate receive buffers (thesis §2.3.2)
  void raise_interrupt(std::uint32_t causes, RecordId raised) override;

  bool send_ready();  // wants to send and has ring space (else records the stall once)
  void send_done(PioQueue* pio);
  Time interrupt_begin();  // returns the handler's CPU time
  void interrupt_done(PioQueue* pio);
  unsigned instance() const { return instance_; }
  MailboxTarget* nic() const { return nic_; }
  // PARALLEL's protocol (the thesis §3.2): the send consumer index comes from a register read.
  bool reads_consumer_by_pio() const { return consumer_by_pio_; }
  void consumer_read(std::uint32_t value);

 private:
  std::uint16_t me(Component c) const { return component_id(c, instance_); }
  std::uint32_t descriptors_per_packet() const {
    return workload_.kind == WorkloadKind::TcpSegments ? 2 : 1;
  }

  SimContext* ctx_;
  HostConfig host_;
  WorkloadConfig workload_;
  unsigned instance_;
  Rings rings_;
  MailboxTarget* nic_;
  HostCpu* cpu_;
  Tally* tally_;
  bool consumer_by_pio_;
  bool stalled_on_ring_ = false;
  Time next_send_ = 0;  // an offered rate (workload.rate_kpps) spaces the sends
  std::uint32_t interrupt_number_ = 0;
  RecordId raised_ = 0, isr_ = 0;  // the latest InterruptRaise, the IsrStart serving it
  std::uint64_t isr_receives_ = 0, isr_completions_ = 0;
  std::uint64_t reclaimed_ = 0;  // send descriptors the driver has recycled
  std::uint64_t sent_ = 0;
  std::int64_t posted_ = 0;  // receive buffers kept posted
};

class HostCpu final : private EventHandler, private PioWaiter {
 public:
  HostCpu(SimContext* ctx, const Config& cfg, HostBridge* bridge, Tally* tally);
  void attach(Driver* d) { drivers_.push_back(d); }
  void start();
  void interrupt(Driver* d);
  void wake_at(Time when);  // dispatch again then (a rate-limited send is due)
  Time busy_total(Time now) const { return cpu_.total(now); }

 private:
  enum class Task { None, Send, Interrupt };
  enum Tag : std::uint32_t { kTaskDone = 1, kStart = 2, kWake = 3 };
  void fire(std::uint32_t tag) override;
  void pio_space() override { flush_pio(); }
  void pio_read_done(std::uint32_t value) override;
  void dispatch();
  void begin_interrupt(Driver* d);
  void flush_pio();
  void record_busy(std::uint32_t task, Time duration, unsigned instance);

  SimContext* ctx_;
  HostConfig host_;
  Time start_;
  HostBridge* bridge_;
  Tally* tally_;
  BusyTime cpu_;
  std::vector<Driver*> drivers_;
  std::deque<Driver*> interrupts_;  // drivers with an interrupt pending, in order raised
  std::size_t next_sender_ = 0;     // round-robin among drivers with work to send
  bool started_ = false;
  Task task_ = Task::None;
  Driver* task_driver_ = nullptr;
  bool stalled_on_pio_ = false;
  Time wake_ = -1;
  PioQueue pio_;
};

// The machine at the other end of one wire: sends at line rate (receive workloads), sinks what
// the host sends and counts it, and for TCP segments returns an ACK every ack_every segments.
class Peer final : public LinkEndpoint {
 public:
  Peer(SimContext* ctx, const Config& cfg, unsigned instance, Tally* tally);
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
  unsigned instance_;
  Tally* tally_;
  LinkDirection* to_nic_ = nullptr;
  Sender sender_{this};
  std::uint64_t sent_ = 0;
  bool have_frame_ = false;
  Frame next_;
  std::uint64_t unacked_ = 0;
  std::uint64_t acks_due_ = 0;
  Time next_send_ = 0;
  bool waiting_ = false;
};

// A disk controller as background bus traffic (thesis §4.2 "other PCI data"): DMA writes of
// burst_bytes at a steady rate.
class DiskController final : private EventHandler, private BusMaster {
 public:
  DiskController(SimContext* ctx, const DiskConfig& cfg, IoBus* bus);
  void start();

 private:
  void fire(std::uint32_t) override;
  void bus_done(const BusTransaction&) override;
  void bus_retry() override { pump(); }
  void pump();

  SimContext* ctx_;
  DiskConfig cfg_;
  IoBus* bus_;
  Time interval_ = 0;
  std::uint64_t pending_ = 0;
  bool active_ = false;
};

}  // namespace nicsim
