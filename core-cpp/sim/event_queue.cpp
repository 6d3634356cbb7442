#include "sim/event_queue.hpp"

#include <algorithm>
#include <string>

namespace nicsim {

Status EventQueue::schedule(Time when, EventHandler* target, std::uint32_t tag,
                            std::int32_t priority) {
  if (when < now_) {
    return Status::fail("event scheduled in the past: at " + std::to_string(when) + " ps, now is " +
                        std::to_string(now_) + " ps");
  }
  if (target == nullptr) return Status::fail("event scheduled with no target");
  heap_.push_back(Event{when, priority, seq_++, target, tag});
  std::push_heap(heap_.begin(), heap_.end(), later);
  return Status::ok();
}

void EventQueue::run_until(Time end, const bool* stop) {
  while (!heap_.empty()) {
    if (stop != nullptr && *stop) return;
    const Event& top = heap_.front();
    if (top.when > end) break;
    const Event ev = top;
    std::pop_heap(heap_.begin(), heap_.end(), later);
    heap_.pop_back();
    now_ = ev.when;
    ++fired_;
    ev.target->fire(ev.tag);
  }
  if (now_ < end && (stop == nullptr || !*stop)) now_ = end;
}

}  // namespace nicsim
