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
  // Priorities the queue orders (they share a 64-bit key with the insertion sequence).
  static constexpr std::int32_t kMinPriority = -32768, kMaxPriority = 32767;

  Time now() const { return now_; }
  std::uint64_t fired() const { return fired_; }
  std::size_t pending() const { return size_ - (spent_top_ ? 1 : 0); }

  // Scheduling in the past is an error value, never undefined behaviour.
  Status schedule(Time when, EventHandler* target, std::uint32_t tag,
                  std::int32_t priority = kPriorityDefault);
  Status schedule_in(Time delay, EventHandler* target, std::uint32_t tag,
                     std::int32_t priority = kPriorityDefault) {
    return schedule(now_ + delay, target, tag, priority);
  }
  // The same without building a message: false when schedule() would fail (the hot path;
  // schedule() says why).
  bool try_schedule(Time when, EventHandler* target, std::uint32_t tag,
                    std::int32_t priority = kPriorityDefault) {
    if (when < now_ || target == nullptr || priority < kMinPriority || priority > kMaxPriority ||
        seq_ > kMaxSeq)
      return false;
    insert(when, order_key(priority, seq_++), target, tag);
    return true;
  }

  // Fires events with time <= end, in order, until the queue is empty, `end` is passed or
  // `stop` becomes true (a component sets it when the model reports a fault).
  void run_until(Time end, const bool* stop);
  // At most `limit` events of run_until; true when more may be due.
  [[gnu::noinline]] bool run_some(Time end, const bool* stop, std::uint64_t limit);

 private:
  // (priority, sequence) in one unsigned key: the priority, offset to be non-negative, in the
  // top 16 bits, the sequence below, so one comparison orders both.
  static constexpr std::uint64_t kMaxSeq = (std::uint64_t{1} << 48) - 1;
  static std::uint64_t order_key(std::int32_t priority, std::uint64_t seq) {
    return (static_cast<std::uint64_t>(priority - kMinPriority) << 48) | seq;
  }
  struct Event {
    Time when;
    std::uint64_t order;
    EventHandler* target;
    std::uint32_t tag;
  };
  static bool before(Time when, std::uint64_t order, const Event& b) {
    return when < b.when || (when == b.when && order < b.order);
  }
  static bool before(const Event& a, Time when, std::uint64_t order) {
    return a.when < when || (a.when == when && a.order < order);
  }
  static bool before(const Event& a, const Event& b) { return before(a, b.when, b.order); }
  // A new event is handed over field by field and stored so: built whole on the stack and
  // copied, its wide loads would wait for its narrow stores (a store-forwarding stall).
  static void put(Event* slot, Time when, std::uint64_t order, EventHandler* target,
                  std::uint32_t tag) {
    slot->when = when;
    slot->order = order;
    slot->target = target;
    slot->tag = tag;
  }
  // A binary min-heap in heap_[0, size_). The event being fired stays at the root, spent, until
  // the handler schedules its first event (which then replaces it: one sift instead of a pop and
  // a push) or returns. Every slot from size_ on holds an event after any other (time and order
  // at their maximum) and there are at least 2 * size_ + 1 slots, so a sift reads both children
  // of any event without a bounds check and stops there. Growing is a tail call, so the hot path
  // makes no call and saves no registers.
  void insert(Time when, std::uint64_t order, EventHandler* target, std::uint32_t tag);
  // Adds an event at the bottom (out of line, so a replacement of the spent root moves no
  // registers for it).
  [[gnu::noinline]] void push(Time when, std::uint64_t order, EventHandler* target,
                              std::uint32_t tag);
  [[gnu::noinline]] void grow_and_insert(Time when, std::uint64_t order, EventHandler* target,
                                         std::uint32_t tag);
  // Puts the event in the root's place and restores the heap below it.
  void sift_down(Time when, std::uint64_t order, EventHandler* target, std::uint32_t tag);
  void pop_spent_top();

  std::vector<Event> heap_;
  std::size_t size_ = 0;
  bool spent_top_ = false;
  Time now_ = 0;
  std::uint64_t seq_ = 0;
  std::uint64_t fired_ = 0;
};

}  // namespace nicsim
