// The IP-router workload (the thesis §3.4.2, Table 3.6): Click, a modular software router
// loaded into the kernel, forwards IP packets between two NICs while two client machines
// replay packet traces into them. Each client sends into its own NIC at line rate; the host
// takes each received packet from one NIC's return ring and posts it, zero-copy, on the
// other NIC's send ring, so each NIC both receives and sends. The traces (NLANR's ADV, AIX,
// MEM) are not published with the thesis: the frames are minimum-size, or a mix (below).
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "host/host_bridge.hpp"
#include "link/ethernet_link.hpp"
#include "nic/fixed_nic.hpp"  // Rings
#include "nic/ring.hpp"
#include "nic/tally.hpp"
#include "scenario/config.hpp"
#include "sim/stats.hpp"

namespace nicsim {

// Frame sizes of workload.frame_mix "imix" (chosen: the simple Internet mix of 7 minimum-size
// frames, 4 of 594 bytes (576-byte IP datagrams) and 1 of 1518 bytes, the trimodal shape of the
// backbone traces of the thesis's time; the NLANR traces' own mix is not given). A fixed
// cyclic order, so runs need no randomness.
constexpr std::uint32_t kImixFrames[12] = {64, 594, 64, 64, 1518, 64, 594, 64, 64, 594, 64, 594};

// One client machine: sends frames into its NIC as fast as the wire takes them, and counts the
// routed frames that come back out of the other NIC.
class RouterClient final : public LinkEndpoint {
 public:
  RouterClient(SimContext* ctx, const Config& cfg, unsigned instance);
  void attach(LinkDirection* to_nic) { to_nic_ = to_nic; }
  void start() { send_next(); }
  void frame_arrived(const Frame& f) override;
  void link_sent(const Frame&) override {}
  void link_ready() override { send_next(); }
  std::uint64_t sent() const { return sent_; }
  std::uint64_t received() const { return received_; }
  std::uint64_t received_bytes() const { return received_bytes_; }

 private:
  void send_next();
  SimContext* ctx_;
  WorkloadConfig workload_;
  unsigned instance_;
  LinkDirection* to_nic_ = nullptr;
  std::uint64_t sent_ = 0, received_ = 0, received_bytes_ = 0;
};

struct RouterCounters {
  std::uint64_t forwarded = 0;    // packets posted on the other NIC
  std::uint64_t queue_drops = 0;  // the other NIC's send ring was full (Click's queue drop)
  std::uint64_t interrupts = 0;
};

// The host CPU running Click over one driver per NIC.
class IpRouter final : private EventHandler, private PioWaiter {
 public:
  IpRouter(SimContext* ctx, const Config& cfg, HostBridge* bridge);
  // Adds a NIC; returns its interrupt line.
  InterruptLine* attach(Rings rings, MailboxTarget* nic);
  void start();
  Time busy_total(Time now) const { return cpu_.total(now); }
  const RouterCounters& counters() const { return c_; }

 private:
  enum Tag : std::uint32_t { kTaskDone = 1 };
  struct Port {
    Rings rings;
    MailboxTarget* nic = nullptr;
    std::uint64_t reclaimed = 0;  // send descriptors recycled
  };
  struct Irq final : InterruptLine {
    IpRouter* router = nullptr;
    unsigned nic = 0;
    RecordId raised = 0;
    void raise_interrupt(std::uint32_t, RecordId r) override {
      raised = r;
      router->interrupt(nic);
    }
  };
  void interrupt(unsigned nic);
  void dispatch();
  void begin_interrupt();
  void fire(std::uint32_t tag) override;
  void pio_space() override { flush_pio(); }
  void pio_read_done(std::uint32_t value) override;
  void flush_pio();
  void post(unsigned nic, Mailbox box, std::uint64_t value, RecordId cause = 0);

  SimContext* ctx_;
  HostConfig host_;
  HostBridge* bridge_;
  bool consumer_by_pio_;
  std::vector<Port> ports_;
  std::vector<std::unique_ptr<Irq>> irqs_;
  std::deque<unsigned> interrupts_;
  BusyTime cpu_;
  bool busy_ = false;
  bool stalled_on_pio_ = false;
  unsigned task_nic_ = 0;
  std::uint64_t isr_receives_ = 0, isr_completions_ = 0;
  RecordId isr_ = 0;
  PioQueue pio_;
  RouterCounters c_;
};

}  // namespace nicsim
