// The baseline and ETA+AIO servers of "Evaluating Network Processing Efficiency with Processor
// Partitioning and Asynchronous I/O" (Brecht et al., EuroSys 2006): the PPE's polling loop (§4.2),
// a send completing on its ACK and one copy on receive (§5), the signal path (§5, §7.1), the
// baseline's moderated interrupts, determinism and the parameters' errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "test_util.hpp"

namespace nicsim {
namespace {

using testing::errors_of;
using testing::has_error;
using testing::metric;
using testing::minimal;
using testing::run_ok;

constexpr auto u16 = [](TraceKind k) { return static_cast<std::uint16_t>(k); };

std::string scenario(const std::string& system, std::int64_t rate, std::int64_t duration_us,
                     const Json& more = Json::object()) {
  Json s = {
      {"system", {{"eta", {{"system", system}}}}},
      {"workload", {{"kind", "eta-aio"}, {"eta", {{"request_rate", rate}}}}},
      {"run",
       {{"duration_us", duration_us},
        {"warmup_us", duration_us / 10},
        {"sample_interval_us", duration_us / 10},
        {"trace", {{"start_us", 0}, {"end_us", std::min<std::int64_t>(duration_us, 50000)}}}}}};
  for (auto it = more.begin(); it != more.end(); ++it) s["workload"]["eta"][it.key()] = it.value();
  return minimal(s);
}

std::vector<TraceRecord> trace_of(const std::string& text, const std::string& overrides = "") {
  const api::RunResult r = api::run(text, overrides);
  EXPECT_TRUE(r.ok) << r.json;
  return r.trace;
}

TEST(Eta, LoopPollsOneNicPerIterationRoundRobinAndWaitsForItsTurn) {
  // 100 requests/s, round-robin over four NICs: the first request reaches NIC 0 at time 0 while
  // the loop (idle from time 0, having polled NIC 0) next polls NICs 1, 2, 3: the fourth
  // iteration after is the one that finds it (§4.2: one NIC per iteration, round-robin).
  const auto tr = trace_of(scenario("eta-aio", 100, 30000));
  const TraceRecord* idle = nullptr;
  const TraceRecord* first = nullptr;
  for (const TraceRecord& r : tr) {
    if (r.kind == u16(TraceKind::EtaIdle) && idle == nullptr) idle = &r;
    if (r.kind == u16(TraceKind::EtaIteration) && first == nullptr) first = &r;
  }
  ASSERT_NE(idle, nullptr);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(idle->a, 4u);  // four empty iterations: NICs 0 (at time 0), 1, 2, 3
  EXPECT_EQ(first->a, 0u);
  EXPECT_EQ(first->b, 1u);  // one frame: the request
  // 152 cycles at 2.8 GHz = 54,286 ps per iteration; the fourth begins at 4 × that.
  EXPECT_EQ(first->time_ps, 4 * 54286);
  // Every later request (0, 1, 2, 3, 0, ... round-robin) is taken by the first iteration that
  // polls its NIC after it arrives: within four iterations.
  int checked = 0;
  for (std::size_t i = 0; i < tr.size(); ++i) {
    if (tr[i].kind != u16(TraceKind::EtaRequest)) continue;
    for (std::size_t j = i + 1; j < tr.size(); ++j) {
      if (tr[j].kind != u16(TraceKind::EtaIteration)) continue;
      EXPECT_EQ(tr[j].a, tr[i].b);
      EXPECT_LE(tr[j].time_ps - tr[i].time_ps, 5 * 54286);
      ++checked;
      break;
    }
  }
  EXPECT_GE(checked, 2);
}

TEST(Eta, EmptyIterationsCost152CyclesAndThePpeNeverSleeps) {
  const Json out = run_ok(scenario("eta-aio", 1000, 200000));
  // The PPE is always busy, so the aggregate never drops below 50% (Fig 4).
  EXPECT_DOUBLE_EQ(metric(out, "eta_cpu0_busy"), 1.0);
  EXPECT_GE(metric(out, "eta_cpu_utilization"), 0.5);
  // At 1,000 requests/s nearly all the PPE's time is empty iterations.
  EXPECT_GT(metric(out, "eta_unproductive_polling"), 0.45);
  EXPECT_LT(metric(out, "eta_ppe_productive"), 0.1);
  // The unproductive cycles are whole iterations of 152 cycles: the PPE's bins add up to its
  // time, within one iteration's rounding per empty stretch.
  const double ppe = metric(out, "eta_bin_ppe_other") + metric(out, "eta_bin_tcpip") +
                     metric(out, "eta_bin_ethernet") + metric(out, "eta_bin_kernel_other") -
                     (metric(out, "eta_cpu1_busy") - metric(out, "eta_bin_user") * 2) / 2;
  EXPECT_NEAR(ppe, 0.5, 0.01);
}

TEST(Eta, SendCompletesOnlyWhenItsLastSegmentIsAcknowledged) {
  const auto tr = trace_of(scenario("eta-aio", 2000, 20000));
  // For each request: the send completion (EtaEvent, queue 1) comes after the ACK that leaves
  // no segment unacknowledged, and never before.
  std::size_t checked = 0;
  for (std::size_t i = 0; i < tr.size(); ++i) {
    const TraceRecord& ev = tr[i];
    if (ev.kind != u16(TraceKind::EtaEvent) || ev.a != 1) continue;
    bool last_ack = false;
    for (std::size_t j = 0; j < i; ++j) {
      const TraceRecord& r = tr[j];
      if (r.kind == u16(TraceKind::EtaAck) && r.a == ev.b) {
        last_ack = r.c == 0;
      }
    }
    EXPECT_TRUE(last_ack) << "request " << ev.b;
    if (++checked == 20) break;
  }
  EXPECT_EQ(checked, 20u);
}

// Every unit of application work names what it follows from: under ETA+AIO the event queue
// entry it serves (for the same request) or the signal that woke it; in the baseline the
// interrupt or the request it serves. Only the work that arms the signal and sleeps has no cause.
TEST(Eta, TheApplicationsWorkFollowsFromWhatItServes) {
  for (const char* system : {"eta-aio", "baseline-sendfile"}) {
    const auto tr = trace_of(scenario(system, 2000, 20000));
    std::vector<const TraceRecord*> by_id(tr.size() + 1, nullptr);
    for (const TraceRecord& r : tr)
      if (r.id < by_id.size()) by_id[r.id] = &r;
    std::size_t served = 0;
    for (const TraceRecord& w : tr) {
      if (w.kind != u16(TraceKind::EtaCpuWork) || w.d == 0) continue;
      ASSERT_NE(w.cause, 0u) << system << " work at " << w.time_ps;
      ASSERT_LT(w.cause, by_id.size());
      const TraceRecord* c = by_id[w.cause];
      ASSERT_NE(c, nullptr);
      if (c->kind == u16(TraceKind::EtaEvent)) {
        EXPECT_EQ(c->b, w.d) << system;  // the same request
      } else {
        EXPECT_TRUE(c->kind == u16(TraceKind::EtaInterrupt) ||
                    c->kind == u16(TraceKind::EtaRequest))
            << system << " cause kind " << c->kind;
      }
      ++served;
    }
    EXPECT_GT(served, 20u) << system;
  }
}

TEST(Eta, OneCopyOnReceiveByThePpeAndNoneOnSend) {
  // A dearer receive copy moves only the PPE's TCP/IP bin, by request_bytes per request; the
  // application CPU does not change (ETA+AIO transmits from registered memory, §5).
  const std::string base = scenario("eta-aio", 5000, 200000);
  const Json a = run_ok(base);
  const Json b = run_ok(base, {{"system.eta.ppe.copy_cycles_per_kb", 1024 * 101}});
  const double per_request = 5000.0 / (2800e6 * 2);  // aggregate share of one cycle a request
  const double extra = (metric(b, "eta_bin_tcpip") - metric(a, "eta_bin_tcpip")) / per_request;
  EXPECT_NEAR(extra, 200.0 * 100, 200.0);  // 100 more cycles per byte of a 200-byte request
  EXPECT_NEAR(metric(a, "eta_cpu1_busy"), metric(b, "eta_cpu1_busy"), 0.002);
  // The baseline's write copies the response on the application's CPU: sendfile does not.
  const Json w = run_ok(scenario("baseline-write", 5000, 200000));
  const Json s = run_ok(scenario("baseline-sendfile", 5000, 200000));
  EXPECT_GT(metric(w, "eta_bin_tcpip"), metric(s, "eta_bin_tcpip") * 1.3);
}

TEST(Eta, SignalsWakeTheApplicationAtMiddlingLoadAndThinOutAtHighLoad) {
  const auto tr = trace_of(scenario("eta-aio", 5000, 20000));
  // Armed (0) by the application, raised (1) by the PPE through the IQ and an IPI, delivered (2).
  std::vector<std::uint32_t> steps;
  for (const TraceRecord& r : tr)
    if (r.kind == u16(TraceKind::EtaSignal)) steps.push_back(r.a);
  ASSERT_GE(steps.size(), 9u);
  for (std::size_t i = 0; i + 2 < steps.size(); i += 3) {
    EXPECT_EQ(steps[i], 0u);
    EXPECT_EQ(steps[i + 1], 1u);
    EXPECT_EQ(steps[i + 2], 2u);
  }
  const Json mid = run_ok(scenario("eta-aio", 10000, 300000));
  const Json high = run_ok(scenario("eta-aio", 40000, 300000));
  EXPECT_GT(metric(mid, "eta_signals_per_request"), 0.5);
  // Fewer at the PPE's peak (the paper: none; the model's application still sleeps between
  // completions, see the preset's known miss).
  EXPECT_LT(metric(high, "eta_signals_per_request"), 0.7 * metric(mid, "eta_signals_per_request"));
}

TEST(Eta, BaselineInterruptsAreModerated) {
  // At most one interrupt per NIC per 125 µs: 4 NICs × 8,000 per second.
  const Json out = run_ok(scenario("baseline-sendfile", 20000, 300000));
  const double per_second =
      metric(out, "eta_interrupts_per_request") * metric(out, "eta_request_rate");
  EXPECT_LE(per_second, 4 * 8000 * 1.01);
  EXPECT_GT(per_second, 4 * 8000 * 0.8);
  EXPECT_GT(metric(out, "eta_interrupt_share"), 0.0);
}

TEST(Eta, PeakIsSetByTheSaturatedPpeWhileTheApplicationIdles) {
  const Json out = run_ok(scenario("eta-aio", 40000, 400000));
  EXPECT_GT(metric(out, "eta_ppe_productive"), 0.97);
  EXPECT_LT(metric(out, "eta_cpu1_busy"), 0.5);
  EXPECT_GT(metric(out, "eta_refused_share"), 0.2);
}

TEST(Eta, SameSeedSameRunAndTrace) {
  const std::string s = scenario("eta-aio", 15000, 50000);
  const api::RunResult a = api::run(s, "");
  const api::RunResult b = api::run(s, "");
  ASSERT_TRUE(a.ok);
  EXPECT_EQ(a.json, b.json);
  ASSERT_EQ(a.trace.size(), b.trace.size());
  for (std::size_t i = 0; i < a.trace.size(); ++i) {
    EXPECT_EQ(a.trace[i].time_ps, b.trace[i].time_ps);
    EXPECT_EQ(a.trace[i].kind, b.trace[i].kind);
    EXPECT_EQ(a.trace[i].a, b.trace[i].a);
  }
  const api::RunResult c = api::run(s, R"({"run.seed": 7})");
  EXPECT_NE(a.json, c.json);
}

TEST(Eta, ErrorsNameTheFieldAndTheRange) {
  const Json e1 = errors_of(scenario("eta-aio", 18800, 1000), R"({"system.eta.system": "tcp"})");
  EXPECT_TRUE(has_error(e1, "system.eta.system", "eta-aio")) << e1;
  const Json e2 =
      errors_of(scenario("eta-aio", 18800, 1000), R"({"workload.eta.request_rate": 0})");
  EXPECT_TRUE(has_error(e2, "workload.eta.request_rate", "100")) << e2;
  const Json e3 = errors_of(scenario("baseline-1cpu", 18800, 1000), R"({"system.eta.nics": 3})");
  EXPECT_TRUE(has_error(e3, "system.eta.nics", "even")) << e3;
}

}  // namespace
}  // namespace nicsim
