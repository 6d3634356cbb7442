// What crosses the 10 Gb/s link of the SINIC paper's two-system setup (the SINIC paper §5.1): TCP
// data segments and ACKs of one or more connections, and the shared resources the NICs use.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>

#include "link/carried_payload.hpp"
#include "sim/context.hpp"

namespace nicsim {

// Frame sizes: 14 Ethernet + 20 IP + 32 TCP (with timestamps) + payload; on the wire also
// 4 CRC, preamble and inter-frame gap (nic_facts §2.5).
constexpr std::int64_t kTcpHeaderBytes = 32;
constexpr std::int64_t kTcpIpEthHeaderBytes = 14 + 20 + kTcpHeaderBytes;

struct NetPacket {
  std::uint32_t id = 0;
  std::uint32_t conn = 0;
  bool ack = false;      // a pure ACK / window update (no payload)
  std::int64_t seq = 0;  // first payload byte
  std::int64_t payload = 0;
  std::int64_t ack_seq = 0;  // ACK: next byte expected
  std::int64_t window = 0;   // ACK: receive window from ack_seq
  RecordId cause = 0;        // the record of its last step (trace flows follow it)
  std::int64_t frame() const { return kTcpIpEthHeaderBytes + payload; }
};

// One direction of the lossless link (§5.1): frames serialise at the line rate; the receiver
// gets each frame when its last bit arrives.
class Wire final : public EventHandler {
 public:
  Wire(SimContext* ctx, std::int64_t rate_mbps, std::int64_t overhead_bytes)
      : ctx_(ctx), rate_mbps_(rate_mbps), overhead_(overhead_bytes) {}
  std::function<void(const NetPacket&)> deliver;  // at the receiver
  std::function<void()> ready;                    // the sender may start the next frame
  bool busy() const { return busy_; }
  Time wire_time(std::int64_t frame) const {
    // (frame + CRC + preamble + gap) bytes × 8 bits at rate Mb/s, in ps.
    return (frame + overhead_) * 8 * 1000000 / rate_mbps_;
  }
  void send(const NetPacket& p) {
    busy_ = true;
    const Time now = ctx_->now();
    carried_.begin_slot(now, now + wire_time(p.frame()), static_cast<std::uint32_t>(p.payload));
    in_flight_.push_back(p);
    ctx_->after(wire_time(p.frame()), this, 0);
  }
  std::uint64_t frames = 0;
  // Payload carried up to `now`, each frame's spread over its slot (link/carried_payload.hpp).
  double carried_payload(Time now) const { return carried_.at(now); }

 private:
  void fire(std::uint32_t) override {
    const NetPacket p = in_flight_.front();
    in_flight_.pop_front();
    busy_ = false;
    ++frames;
    if (deliver) deliver(p);
    if (ready && !busy_) ready();
  }
  SimContext* ctx_;
  std::int64_t rate_mbps_, overhead_;
  bool busy_ = false;
  std::deque<NetPacket> in_flight_;
  CarriedPayload carried_;
};

// The L2 cache port (the SINIC paper §3.1 footnote 2): the copy engines (and an on-chip CNIC's DMA)
// share one port with the L1s, so only one transfers at a time; requests are served in order.
class L2Port final : public EventHandler {
 public:
  explicit L2Port(SimContext* ctx) : ctx_(ctx) {}
  void request(Time duration, std::function<void()> done) {
    queue_.push_back({duration, std::move(done)});
    if (!busy_) start();
  }
  bool busy() const { return busy_; }
  Time busy_time = 0;

 private:
  struct Req {
    Time duration;
    std::function<void()> done;
  };
  void start() {
    busy_ = true;
    busy_time += queue_.front().duration;
    ctx_->after(queue_.front().duration, this, 0);
  }
  void fire(std::uint32_t) override {
    std::function<void()> done = std::move(queue_.front().done);
    queue_.pop_front();
    busy_ = false;
    if (!queue_.empty()) start();
    done();
  }
  SimContext* ctx_;
  bool busy_ = false;
  std::deque<Req> queue_;
};

}  // namespace nicsim
