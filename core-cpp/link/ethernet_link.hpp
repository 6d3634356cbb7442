// One direction of a full-duplex Ethernet link. A frame holds the wire for its preamble, its
// bytes and the inter-frame gap (IEEE 802.3; a 1518-byte frame takes 12.304 µs at 1 Gb/s).
// A busy link refuses the next frame and calls the sender back when it is free.
#pragma once
#include <cstdint>

#include "link/carried_payload.hpp"
#include "scenario/config.hpp"
#include "sim/context.hpp"
#include "sim/fifo.hpp"

namespace nicsim {

struct Frame {
  std::uint32_t packet = 0;
  std::uint32_t frame_bytes = 0;    // Ethernet header + IP + UDP + payload + CRC (≥ 64)
  std::uint32_t payload_bytes = 0;  // UDP payload
  RecordId cause = 0;               // the record of its last step (trace flows follow it)
};

class LinkEndpoint {
 public:
  virtual void frame_arrived(const Frame& f) = 0;  // the last bit reached the receiver
  virtual void link_sent(const Frame& f) = 0;      // the sender's last bit left
  virtual void link_ready() = 0;                   // the wire is free again (after the gap)

 protected:
  ~LinkEndpoint() = default;
};

class LinkDirection final : private EventHandler {
 public:
  LinkDirection(SimContext* ctx, const LinkConfig& cfg, LinkEndpoint* sender,
                LinkEndpoint* receiver);
  bool try_send(const Frame& f) {
    if (!ready()) return false;
    send(f);
    return true;
  }
  // The two halves of try_send, for a sender that records the start between them (so the
  // frame can carry the record's id): ready() is false when the wire is busy (the sender then
  // hears link_ready when it frees); send() needs ready().
  bool ready() {
    if (busy_) waiting_ = true;
    return !busy_;
  }
  void send(const Frame& f);
  bool busy() const { return busy_; }
  // Wire time of a frame, without and with the inter-frame gap.
  Time frame_time(std::uint32_t frame_bytes) const;
  Time slot_time(std::uint32_t frame_bytes) const;
  // Payload carried up to `now`, each frame's spread over its slot (carried_payload.hpp).
  double carried_payload(Time now) const { return carried_.at(now); }

 private:
  enum Tag : std::uint32_t { kArrive = 0, kFree = 1, kPropagated = 2 };
  void fire(std::uint32_t tag) override;

  SimContext* ctx_;
  Time byte_time_;
  std::int64_t preamble_, ifg_;
  Time propagation_;
  LinkEndpoint* sender_;
  LinkEndpoint* receiver_;
  bool busy_ = false;
  bool waiting_ = false;
  Frame in_flight_;
  Fifo<Frame> propagating_;  // frames on the cable, in order
  CarriedPayload carried_;
};

// The limit curve of the thesis's figures: UDP payload per second at line rate,
// rate × d / (max(d + 46, 64) + preamble + gap), per direction.
double ethernet_limit_mbps(const LinkConfig& link, std::int64_t datagram_bytes);

}  // namespace nicsim
