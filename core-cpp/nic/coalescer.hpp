// Interrupt coalescing (thesis §3.1.3; ticks and max BDs as in nic_facts §3.7): report after
// `threshold` new descriptors, or `timer` after the first unreported one, whichever comes first.
// Both NIC models count with it; what "report" means (an index DMA, a firmware event) is theirs.
#pragma once
#include <cstdint>

#include "sim/context.hpp"

namespace nicsim {

class Coalescer {
 public:
  Coalescer(std::uint64_t threshold, Time timer, std::uint32_t timer_tag)
      : threshold_(threshold), timer_(timer), tag_(timer_tag) {}

  // One more descriptor. True: report now. Otherwise the timer is armed (once) on `target`
  // with the tag and the arming's generation in the bits above 8.
  bool add(SimContext* ctx, EventHandler* target) {
    ++unreported_;
    if (unreported_ >= threshold_) return true;
    if (!armed_ && timer_ > 0) {
      armed_ = true;
      ++generation_;
      ctx->after(timer_, target, tag_ | ((generation_ & 0xFFFFFF) << 8));
    }
    return false;
  }
  // The timer of `generation` fired. True when it is the current arming (it is now spent);
  // a stale timer, superseded by a report, returns false.
  bool expire(std::uint32_t generation) {
    if (!armed_ || generation != (generation_ & 0xFFFFFF)) return false;
    armed_ = false;
    return true;
  }
  // Everything counted so far has been reported; the timer is void.
  void reported() {
    unreported_ = 0;
    armed_ = false;
  }
  std::uint64_t unreported() const { return unreported_; }

 private:
  std::uint64_t threshold_;
  Time timer_;
  std::uint32_t tag_;
  std::uint64_t unreported_ = 0;
  bool armed_ = false;
  std::uint32_t generation_ = 0;
};

}  // namespace nicsim
