// Discrete-event queue in the manner of gem5's sim/eventq.hh: events fire in (time, priority,
// insertion sequence) order, so same-time events have one defined order on every build.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/status.hpp"
#include "sim/time.hpp"

namespace nicsim {

// Anything that receives events. The tag tells a component which of its events fired.
class EventHandler {
 public:
  virtual void fire(std::uint32_t tag) = 0;

 protected:
  ~EventHandler() = default;
};

// Same-time ordering: lower priority value fires first.
enum Priority : std::int32_t {
  kPriorityFirst = -100,  // state changes others must see at the same instant
  kPriorityDefault = 0,
  kPriorityStats = 100,  // samplers observe the state after everything else at that time
};

class EventQueue {
 public:
  Time now() const { return now_; }
  std::uint64_t fired() const { return fired_; }
  std::size_t pending() const { return heap_.size(); }

  // Scheduling in the past is an error value, never undefined behaviour.
  Status schedule(Time when, EventHandler* target, std::uint32_t tag,
                  std::int32_t priority = kPriorityDefault);
  Status schedule_in(Time delay, EventHandler* target, std::uint32_t tag,
                     std::int32_t priority = kPriorityDefault) {
    return schedule(now_ + delay, target, tag, priority);
  }

  // Fires events with time <= end, in order, until the queue is empty, `end` is passed or
  // `stop` becomes true (a component sets it when the model reports a fault).
  void run_until(Time end, const bool* stop);

 private:
  struct Event {
    Time when;
    std::int32_t priority;
    std::uint64_t seq;
    EventHandler* target;
    std::uint32_t tag;
  };
  static bool later(const Event& a, const Event& b) {
    if (a.when != b.when) return a.when > b.when;
    if (a.priority != b.priority) return a.priority > b.priority;
    return a.seq > b.seq;
  }
  std::vector<Event> heap_;
  Time now_ = 0;
  std::uint64_t seq_ = 0;
  std::uint64_t fired_ = 0;
};

}  // namespace nicsim
