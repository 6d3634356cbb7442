// The system of interest of the SINIC paper (§5.1, Table 1) running netperf over TCP (§5.2): one
// CPU whose time goes to the driver, the TCP/IP stack, copies, netperf itself or idle; the L2 it
// shares with the NIC's data placement; one of the four NICs; and the stressor at the other
// end of a lossless 10 Gb/s link (infinitely fast, §5.1). Stream: the host sends; maerts: the
// host receives, read() by one netperf thread per connection (late by workload.read_delay_us
// for the slow-reader workload of §6). The CNIC's driver is the DP83820's Linux driver: the
// interrupt handler takes the filled descriptors, hands the sk_buffs to netif_rx() and unmasks
// at once, and the stack processes them later from the backlog; the SINIC driver polls (NAPI),
// running the stack on each packet with interrupts masked until the FIFO is empty.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "scenario/config.hpp"
#include "sim/context.hpp"
#include "sim/stats.hpp"
#include "sinic/cnic.hpp"
#include "sinic/l2_model.hpp"
#include "sinic/net.hpp"
#include "sinic/sinic_device.hpp"
#include "sinic/sinic_regs.hpp"

namespace nicsim {

// CPU-time categories (§6 Figs 6/9; nic_facts §1.9).
enum class CpuPart : std::uint8_t { Driver = 0, Stack = 1, Copy = 2, User = 3, Count = 4 };

struct StreamCounters {
  std::int64_t payload_bytes = 0;  // delivered: read() by netperf, or received by the peer
  std::int64_t packets = 0;        // data segments delivered
  std::int64_t missed_lines = 0;   // L2 misses on network buffers (header reads and copies)
  std::int64_t interrupts = 0;
  std::int64_t zero_copy_bytes = 0;  // payload copied FIFO → user buffer (§3.3)
  std::int64_t register_reads = 0;
  std::array<Time, 4> cpu{};  // per CpuPart
  Time pause = 0;             // the stressor held back by a full receive FIFO
  double wire_payload = 0;    // payload the data direction's wire carried (frames pro rata)
};

class StreamHost final : public EventHandler {
 public:
  StreamHost(SimContext* ctx, const Config& cfg);
  void start();
  StreamCounters counters() const;  // up to now (accounting the running CPU unit so far)
  // Payload bytes, from time 0 over all connections, that the sending side has put on its way
  // (first) and the receiving side has delivered (second: read by netperf, or taken by the
  // stressor). TCP's windows hold the difference to one socket buffer per connection.
  std::pair<std::int64_t, std::int64_t> stream_bytes() const;
  std::int64_t rx_fifo_bytes() const;
  std::int64_t bound_vnics() const { return sinic_ ? sinic_->bound_vnics() : 0; }
  SinicDevice* sinic() { return sinic_.get(); }
  bool receive() const { return receive_; }

 private:
  enum Tag : std::uint32_t { kUnitDone = 1, kIntrTimer = 2, kResume = 3, kWake = 1000 };
  struct Skb {
    NetPacket p;
    std::int64_t stamp = L2Model::kNotCached;  // where the frame was placed in the L2
    bool in_fifo = false;  // §3.3: the payload is still in the V-SINIC FIFO, bound to `vnic`
    std::int64_t vnic = -1;
    std::int64_t left = 0;  // in_fifo: bytes left in the FIFO (RxDone CopyLen)
    RecordId cause = 0;     // its copy out of the FIFO (SinicCopy)
  };
  enum class Thread : std::uint8_t { Blocked, Waking, Runnable };
  struct Conn {
    // receive side (host) / stressor's send side
    std::deque<Skb> queue;
    std::int64_t rcv_nxt = 0, read_seq = 0, adv_edge = 0;
    int segs_unacked = 0;
    std::int64_t peer_nxt = 0, peer_edge = 0;
    // send side (host) / stressor's receive side
    std::int64_t snd_nxt = 0, snd_una = 0;
    std::int64_t peer_rcv = 0;
    int peer_unacked = 0;
    // the netperf thread
    Thread thread = Thread::Runnable;
    bool in_call = false;
    std::int64_t call_bytes = 0;
  };

  void fire(std::uint32_t tag) override;
  Time cyc(std::int64_t cycles) const { return cycles * cycle_; }
  Time miss_time(std::int64_t lines) const;
  Time load_miss(std::int64_t lines) const;
  Time descriptor_miss();  // off chip a descriptor is a miss (counted); 0 on chip
  // §2.2, §6: a device register access; off chip it crosses the I/O bridge.
  Time reg_read() const {
    return off_chip_ ? sc_.cnic.pio_read_off_chip : sc_.cnic.register_on_chip;
  }
  Time reg_write() const {
    return off_chip_ ? sc_.cnic.pio_write_off_chip : sc_.cnic.register_on_chip;
  }
  std::int64_t count_misses(std::int64_t stamp, std::int64_t bytes);
  // The CPU: one unit at a time; interrupts and kernel work run between units.
  void compute(CpuPart part, Time d, std::function<void()> then, std::uint32_t packet = 0);
  void stall(CpuPart part);
  void resume();
  void finish();
  void dispatch();
  void account(CpuPart part, Time from, Time to);
  // interrupts (§5.1: at most one per interval)
  void post_interrupt();
  void poll_done();
  // kernel work
  void rx_poll_one();
  void rx_sinic_one();
  void to_backlog(const Skb& s);
  void stack_rx(const Skb& s);
  void send_ack(std::uint32_t conn, std::function<void()> then);
  void driver_xmit(const NetPacket& p, std::function<void()> then, bool from_qdisc = false);
  void sinic_xmit(const NetPacket& p, std::function<void()> then, bool from_qdisc);
  void wait_rx(std::int64_t vnic, CpuPart part, std::function<void(const RxDoneReg&)> then);
  void wait_tx(std::int64_t vnic, std::function<void()> then);
  void reclaim_one();
  void restart_one();
  // Trace: the driver read or wrote a NIC register (NicRegister); `took`: the access's time.
  RecordId note_reg(NicReg r, std::int64_t vnic, std::uint64_t value, Time took,
                    RecordId cause = 0);
  // netperf
  void reader_step(std::uint32_t c);
  void reader_copy(std::uint32_t c);
  void writer_step(std::uint32_t c);
  void wake_reader(std::uint32_t c);
  // the stressor
  void peer_try_send();
  void peer_receive(const NetPacket& p);
  void host_receive(const NetPacket& p);
  bool nic_room(std::int64_t frame) const;
  void note_pause();

  SimContext* ctx_;
  const Config& cfg_;
  const SinicSystemConfig& sc_;
  NicModel model_;
  bool receive_;
  bool off_chip_;
  Time cycle_;
  L2Model l2_;
  L2Port port_;
  std::unique_ptr<Cnic> cnic_;
  std::unique_ptr<SinicDevice> sinic_;
  Wire to_peer_, to_host_;
  std::vector<Conn> conns_;
  StreamCounters n_;

  // CPU
  bool busy_ = false;
  CpuPart part_ = CpuPart::Driver;
  Time unit_start_ = 0;
  std::function<void()> then_;
  std::function<void()> resume_then_;
  // interrupts and kernel work
  bool intr_pending_ = false, intr_timer_ = false, masked_ = false;
  Time last_intr_ = -1;
  bool rx_poll_ = false, reclaim_ = false, restart_ = false, vnic_starved_ = false;
  RecordId intr_raised_ = 0;     // the InterruptRaise the next service routine answers
  std::deque<Skb> backlog_;      // netif_rx(): received sk_buffs the stack has not processed
  std::deque<NetPacket> qdisc_;  // packets the driver could not hand to the NIC yet
  std::deque<std::int64_t> cnic_stamps_;
  std::vector<std::int64_t> vnic_stamp_;
  std::int64_t next_vnic_ = 0;  // the driver hands out VNICs round robin
  // processes
  std::int64_t cur_thread_ = -1;
  std::deque<std::uint32_t> runq_;
  std::uint32_t peer_rr_ = 0;
  std::deque<NetPacket> peer_acks_;
  // stressor pause accounting
  bool paused_ = false;
  Time pause_since_ = 0;
};

}  // namespace nicsim
