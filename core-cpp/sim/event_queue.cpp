#include "sim/event_queue.hpp"

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
  for (; !heap_.empty(); --limit) {
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
