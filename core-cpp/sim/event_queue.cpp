#include "sim/event_queue.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace nicsim {

Status EventQueue::schedule(Time when, EventHandler* target, std::uint32_t tag,
                            std::int32_t priority) {
  if (when < now_) {
    return Status::fail("event scheduled in the past: at " + std::to_string(when) + " ps, now is " +
                        std::to_string(now_) + " ps");
  }
  if (target == nullptr) return Status::fail("event scheduled with no target");
  if (priority < kMinPriority || priority > kMaxPriority) {
    return Status::fail("event priority " + std::to_string(priority) + " outside " +
                        std::to_string(kMinPriority) + " to " + std::to_string(kMaxPriority));
  }
  if (!try_schedule(when, target, tag, priority))
    return Status::fail("event queue: too many events in one run");
  return Status::ok();
}

namespace {
// The filler of the slots past the heap: after every event.
constexpr Time kNeverTime = INT64_MAX;
constexpr std::uint64_t kNeverOrder = UINT64_MAX;
// (time, order) as one unsigned 128-bit number, which compares as the pair does: times are never
// negative (nothing is scheduled before now, which starts at 0).
__extension__ typedef unsigned __int128 Key;
Key key_of(Time when, std::uint64_t order) {
  return (static_cast<Key>(static_cast<std::uint64_t>(when)) << 64) | order;
}
}  // namespace

void EventQueue::insert(Time when, std::uint64_t order, EventHandler* target, std::uint32_t tag) {
  if (spent_top_) {
    spent_top_ = false;
    sift_down(when, order, target, tag);
    return;
  }
  push(when, order, target, tag);
}

void EventQueue::push(Time when, std::uint64_t order, EventHandler* target, std::uint32_t tag) {
  if (2 * size_ + 3 > heap_.size()) return grow_and_insert(when, order, target, tag);
  Event* const h = heap_.data();
  std::size_t hole = size_++;
  while (hole > 0) {
    const std::size_t parent = (hole - 1) / 2;
    if (!before(when, order, h[parent])) break;
    h[hole] = h[parent];
    hole = parent;
  }
  put(&h[hole], when, order, target, tag);
}

void EventQueue::grow_and_insert(Time when, std::uint64_t order, EventHandler* target,
                                 std::uint32_t tag) {
  heap_.resize(std::max<std::size_t>(64, 2 * (2 * size_ + 3)),
               Event{kNeverTime, kNeverOrder, nullptr, 0});
  insert(when, order, target, tag);
}

void EventQueue::sift_down(Time when, std::uint64_t order, EventHandler* target,
                           std::uint32_t tag) {
  // Byte offsets: a child's is twice its parent's plus one event (whatever the event's size:
  // 32 bytes natively, 24 in wasm32), so no index is scaled.
  char* const base = reinterpret_cast<char*>(heap_.data());
  std::size_t hole = 0;
  while (true) {
    std::size_t child = 2 * hole + sizeof(Event);
    const Event* c = reinterpret_cast<const Event*>(base + child);
    // The earlier child by arithmetic, not a branch: which child is earlier is a coin toss a
    // branch predictor loses half the time.
    const std::size_t r = key_of(c[1].when, c[1].order) < key_of(c[0].when, c[0].order);
    c += r;
    child += r * sizeof(Event);
    if (!before(*c, when, order)) break;
    *reinterpret_cast<Event*>(base + hole) = *c;
    hole = child;
  }
  put(reinterpret_cast<Event*>(base + hole), when, order, target, tag);
}

void EventQueue::pop_spent_top() {
  spent_top_ = false;
  Event* last = &heap_[--size_];
  const Event moved = *last;
  put(last, kNeverTime, kNeverOrder, nullptr, 0);
  if (size_ > 0) sift_down(moved.when, moved.order, moved.target, moved.tag);
}

void EventQueue::run_until(Time end, const bool* stop) {
  // In slices, each a call: WebAssembly engines swap in optimised code only at a call (no
  // on-stack replacement), so a run in one call would keep its loop in baseline code. Two call
  // sites: Binaryen inlines a function called from one place, and the slices with it.
  constexpr std::uint64_t kSlice = 1 << 16;
  if (!run_some(end, stop, kSlice)) return;
  while (run_some(end, stop, kSlice)) {
  }
}

bool EventQueue::run_some(Time end, const bool* stop, std::uint64_t limit) {
  for (; size_ > 0; --limit) {
    if (stop != nullptr && *stop) return false;
    if (limit == 0) return true;
    const Event& top = heap_.front();
    if (top.when > end) break;
    now_ = top.when;
    ++fired_;
    EventHandler* const target = top.target;
    const std::uint32_t tag = top.tag;
    spent_top_ = true;
    target->fire(tag);
    if (spent_top_) pop_spent_top();
  }
  if (now_ < end && (stop == nullptr || !*stop)) now_ = end;
  return false;
}

}  // namespace nicsim
