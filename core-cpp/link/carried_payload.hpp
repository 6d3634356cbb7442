#pragma once
// The payload a wire has carried up to a time, each frame's spread evenly over its slot
// (preamble, frame, CRC, gap): a rate between two reads can never exceed the wire, however short
// the interval, and a frame astride a window's edge counts in part on each side. Both the
// Ethernet links and SINIC's wire measure throughput with it.
#include <cstdint>

#include "sim/time.hpp"

namespace nicsim {

class CarriedPayload {
 public:
  // A frame of `payload` bytes occupies the wire over [start, end).
  void begin_slot(Time start, Time end, std::uint32_t payload) {
    started_ += payload;
    slot_start_ = start;
    slot_end_ = end;
    slot_payload_ = payload;
  }
  double at(Time now) const {
    if (now >= slot_end_ || slot_end_ == slot_start_) return static_cast<double>(started_);
    const double left =
        static_cast<double>(slot_end_ - now) / static_cast<double>(slot_end_ - slot_start_);
    return static_cast<double>(started_) - left * static_cast<double>(slot_payload_);
  }

 private:
  std::uint64_t started_ = 0;  // every frame begun so far, the one on the wire included
  Time slot_start_ = 0, slot_end_ = 0;
  std::uint32_t slot_payload_ = 0;
};

}  // namespace nicsim
