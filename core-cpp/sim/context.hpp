// What every component of one run shares: the clock and event queue, the run's one random
// generator, the trace recorder and the fault flag. Owned by the run; there are no globals.
#pragma once
#include <string>

#include "sim/event_queue.hpp"
#include "sim/rng.hpp"
#include "trace/trace.hpp"

namespace nicsim {

// An event that only looks: it records the trace's view of the state (e.g. the rings' opening
// snapshot) and changes nothing. It fires through the queue, so it keeps its place in the
// same-time order, but it is not one of the model's events: SimContext::model_events() leaves it
// out, so a traced run counts what the same untraced run counts.
class Observation : public EventHandler {
 public:
  void fire(std::uint32_t tag) final {
    ++fired_;
    if (observed_ != nullptr) ++*observed_;
    observe(tag);
  }
  std::uint64_t fired() const { return fired_; }

 protected:
  ~Observation() = default;
  virtual void observe(std::uint32_t tag) = 0;

 private:
  friend class SimContext;
  std::uint64_t fired_ = 0;
  // The run's count of observations fired (SimContext::observe_at sets it): each firing counts
  // once there, however often the observation was scheduled.
  std::uint64_t* observed_ = nullptr;
};

class SimContext {
 public:
  SimContext(std::uint64_t seed, Time trace_start, Time trace_end, std::uint64_t trace_cap)
      : rng(seed), trace(trace_start, trace_end, trace_cap) {}

  EventQueue queue;
  Rng rng;
  TraceRecorder trace;

  Time now() const { return queue.now(); }
  bool failed() const { return stop_; }
  const std::string& fault() const { return fault_; }

  // A model bug (e.g. a ring condition violated) stops the run with a clear message.
  void fail(const std::string& message) {
    if (stop_) return;
    stop_ = true;
    fault_ = message;
  }
  void after(Time delay, EventHandler* target, std::uint32_t tag,
             std::int32_t priority = kPriorityDefault) {
    at(queue.now() + delay, target, tag, priority);
  }
  void at(Time when, EventHandler* target, std::uint32_t tag,
          std::int32_t priority = kPriorityDefault) {
    if (!queue.try_schedule(when, target, tag, priority)) refused(when, target, tag, priority);
  }
  // Records `r` (e.g. rec::MacTxStart().packet(p)) now; `comp` is a Component or a
  // component_id (second NIC: instance 1); `cause` is the id of the record it follows from.
  template <class R>
  RecordId record(Component comp, const R& r, RecordId cause = 0) {
    return trace.record(queue.now(), comp, r, cause);
  }
  template <class R>
  RecordId record(std::uint16_t comp, const R& r, RecordId cause = 0) {
    return trace.record(queue.now(), comp, r, cause);
  }
  // Schedules an Observation; its firings are counted apart from the model's events.
  void observe_at(Time when, Observation* target, std::uint32_t tag, std::int32_t priority) {
    target->observed_ = &observed_;
    at(when, target, tag, priority);
  }
  // The events the model fired: the queue's count without the observations'.
  std::uint64_t model_events() const { return queue.fired() - observed_; }
  void run_until(Time end) { queue.run_until(end, &stop_); }

  // Packet identities, unique within the run (trace records name packets by them).
  std::uint32_t new_packet() { return ++packets_; }
  // DMA identities, unique within the run across every NIC's engine.
  std::uint32_t new_dma() { return ++dmas_; }

 private:
  // The queue refused an event: the run stops with the queue's reason (kept out of line, off
  // the hot path).
  void refused(Time when, EventHandler* target, std::uint32_t tag, std::int32_t priority);

  bool stop_ = false;
  std::string fault_;
  std::uint32_t packets_ = 0;
  std::uint32_t dmas_ = 0;
  std::uint64_t observed_ = 0;
};

}  // namespace nicsim
