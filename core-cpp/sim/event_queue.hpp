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
  std::size_t pending() const { return heap_.size() - (spent_top_ ? 1 : 0); }

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
  // A binary min-heap. The event being fired stays at the root, spent, until the handler
  // schedules its first event (which then replaces it: one sift instead of a pop and a push)
  // or returns.
  void insert(Time when, std::uint64_t order, EventHandler* target, std::uint32_t tag) {
    if (spent_top_) {
      spent_top_ = false;
      sift_down(when, order, target, tag);
      return;
    }
    std::size_t hole = heap_.size();
    heap_.emplace_back();
    Event* h = heap_.data();
    while (hole > 0) {
      const std::size_t parent = (hole - 1) / 2;
      if (!before(when, order, h[parent])) break;
      h[hole] = h[parent];
      hole = parent;
    }
    put(&h[hole], when, order, target, tag);
  }
  // Puts the event in the root's place and restores the heap below it.
  void sift_down(Time when, std::uint64_t order, EventHandler* target, std::uint32_t tag) {
    Event* h = heap_.data();
    const std::size_t n = heap_.size();
    std::size_t hole = 0;
    while (true) {
      std::size_t child = 2 * hole + 1;
      if (child >= n) break;
      if (child + 1 < n && before(h[child + 1], h[child])) ++child;
      if (!before(h[child], when, order)) break;
      h[hole] = h[child];
      hole = child;
    }
    put(&h[hole], when, order, target, tag);
  }
  void pop_spent_top() {
    spent_top_ = false;
    const Event last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(last.when, last.order, last.target, last.tag);
  }

  std::vector<Event> heap_;
  bool spent_top_ = false;
  Time now_ = 0;
  std::uint64_t seq_ = 0;
  std::uint64_t fired_ = 0;
};

}  // namespace nicsim
