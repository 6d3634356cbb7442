// Fixed-size typed trace records, recorded only inside a requested time window and capped in
// count (both are run config), in the manner of Ripes' cachesim transaction records. Every record
// has an id (1, 2, ... in the order the model made them, inside the window or not, so an id does
// not depend on the window) and may name the record that caused it (a flow, as Perfetto's
// track_event flows link slices): 0 = no known cause.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/time.hpp"
#include "trace/trace_kinds.hpp"

namespace nicsim {

// A record id; 0 is "none" (no cause, or no recorder).
using RecordId = std::uint32_t;

struct TraceRecord {
  std::int64_t time_ps;
  std::uint16_t kind;
  std::uint16_t component;
  std::uint32_t a, b, c, d, e;
  RecordId id;     // set by the recorder
  RecordId cause;  // the id of the record this one follows from, or 0
};
static_assert(sizeof(TraceRecord) == 40, "trace records are 40 bytes on every build");

// A record built outside a recorder (the cache-only web run numbers its own records).
template <class R>
TraceRecord make_record(Time t, std::uint16_t comp, const R& r, RecordId id, RecordId cause = 0) {
  return TraceRecord{
      t,    static_cast<std::uint16_t>(R::kind), comp, r.w[0], r.w[1], r.w[2], r.w[3], r.w[4], id,
      cause};
}

class TraceRecorder {
 public:
  TraceRecorder(Time start, Time end, std::uint64_t max_records)
      : start_(start), end_(end), max_(max_records) {}
  // Records `r` (a builder from trace/gen/trace_kinds.gen.hpp, e.g. rec::DmaQueued) made now
  // by component `comp` (component_id: device instance in the high byte), following from
  // record `cause` (0: none). Returns the new record's id, also when the record falls outside
  // the window or over the cap (the records it causes still name it).
  template <class R>
  RecordId record(Time t, std::uint16_t comp, const R& r, RecordId cause = 0) {
    const RecordId id = ++last_id_;
    if (max_ == 0) {
      // Tracing off: only the id, and the count of what the window would have held.
      if (t >= start_ && t <= end_) ++dropped_;
      return id;
    }
    // Outside the window nothing is kept, and nothing is due to flush: future records are held
    // only inside the window, so before it none is due, and after it only the first record
    // made past the window flushes them.
    if (t < start_ || (t > end_ && future_.empty())) return id;
    keep(TraceRecord{t, static_cast<std::uint16_t>(R::kind), comp, r.w[0], r.w[1], r.w[2], r.w[3],
                     r.w[4], id, cause});
    return id;
  }
  template <class R>
  RecordId record(Time t, Component comp, const R& r, RecordId cause = 0) {
    return record(t, static_cast<std::uint16_t>(comp), r, cause);
  }
  // The same for a record at a later time that is already known (the phases of a planned bus
  // tenure): it enters the trace in time order, before any record made at or after its time.
  template <class R>
  RecordId record_future(Time t, std::uint16_t comp, const R& r, RecordId cause = 0) {
    const RecordId id = ++last_id_;
    if (max_ == 0 || t < start_ || t > end_) return id;
    keep_future(TraceRecord{t, static_cast<std::uint16_t>(R::kind), comp, r.w[0], r.w[1], r.w[2],
                            r.w[3], r.w[4], id, cause});
    return id;
  }
  // False when nothing is kept (run.trace.max_records 0): a caller may skip building what
  // only a kept record would show. Ids still count every record.
  bool keeping() const { return max_ > 0; }
  // True when a record at time t would be kept (tracing on, t inside the window): a caller may
  // skip building a record that would only be dropped, and take its id with skip_future().
  bool keeps(Time t) const { return max_ > 0 && t >= start_ && t <= end_; }
  // Takes the id a record would get, for a record not built because nothing is kept.
  RecordId skip(Time t) {
    if (t >= start_ && t <= end_) ++dropped_;
    return ++last_id_;
  }
  // Takes the id a future record would get, when nothing is kept.
  RecordId skip_future() { return ++last_id_; }

  // Untyped form, for records that are already built (copies, tests).
  RecordId record_raw(Time t, TraceKind kind, std::uint16_t comp, std::uint32_t a = 0,
                      std::uint32_t b = 0, std::uint32_t c = 0, std::uint32_t d = 0,
                      std::uint32_t e = 0, RecordId cause = 0) {
    const RecordId id = ++last_id_;
    keep(TraceRecord{t, static_cast<std::uint16_t>(kind), comp, a, b, c, d, e, id, cause});
    return id;
  }

  // The id the next record will get: a sender hands a frame on before it records the start
  // (the record names a send that happened), so the frame carries the id it will have.
  RecordId next_id() const { return last_id_ + 1; }
  // Drops future records with time > t that `match` selects (a tenure cut short).
  template <class Match>
  void cancel_future(Time t, Match match) {
    if (future_.empty()) return;
    future_.erase(std::remove_if(future_.begin(), future_.end(),
                                 [&](const TraceRecord& r) { return r.time_ps > t && match(r); }),
                  future_.end());
  }
  // Moves future records with time <= t into the trace (all of them at the end of a run).
  void flush(Time t) {
    if (future_.empty()) return;
    std::size_t n = 0;
    while (n < future_.size() && future_[n].time_ps <= t) append(future_[n++]);
    future_.erase(future_.begin(), future_.begin() + static_cast<std::ptrdiff_t>(n));
  }

 private:
  // A record made now: future records due by now enter first. Out of line: with the trace
  // off it never runs, and record() stays small enough to inline (in wasm too).
  [[gnu::noinline]] void keep(const TraceRecord& r) {
    if (!future_.empty()) flush(r.time_ps);
    append(r);
  }
  // Kept in time order (stable for equal times): usually a handful of records.
  [[gnu::noinline]] void keep_future(const TraceRecord& r) {
    auto at = std::upper_bound(future_.begin(), future_.end(), r.time_ps,
                               [](Time t, const TraceRecord& x) { return t < x.time_ps; });
    future_.insert(at, r);
  }
  void append(const TraceRecord& r) {
    if (r.time_ps < start_ || r.time_ps > end_) return;
    if (records_.size() >= max_) {
      ++dropped_;
      return;
    }
    records_.push_back(r);
  }

 public:
  const std::vector<TraceRecord>& records() const { return records_; }
  std::vector<TraceRecord>&& take() { return std::move(records_); }
  std::uint64_t dropped() const { return dropped_; }
  Time start() const { return start_; }
  Time end() const { return end_; }

 private:
  Time start_, end_;
  std::uint64_t max_;
  std::uint64_t dropped_ = 0;
  RecordId last_id_ = 0;
  std::vector<TraceRecord> records_;
  std::vector<TraceRecord> future_;
};

}  // namespace nicsim
