// Trace records name their cause (a flow): the chains the core knows — a mailbox write to the
// frame on the wire and the interrupt (thesis §2.3 Figs 2.4, 2.5), a Tigon event to its handler,
// DMA and completion (the thesis §3.1.3), a web request to its segments (the thesis Figs 4.1, 4.2),
// a SINIC frame to the copy into the user buffer (the SINIC paper §3.1-3.3) — walked on real runs.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "test_util.hpp"

namespace nicsim {
namespace {

using Pred = std::function<bool(const TraceRecord&)>;

struct TracedRun {
  std::vector<TraceRecord> trace;
  std::unordered_map<RecordId, std::size_t> at;  // record id -> index in the trace
};

TracedRun run_preset(const std::string& id, const std::string& overrides = "") {
  const api::RunResult r = api::run(testing::preset(id), overrides);
  EXPECT_TRUE(r.ok) << id << ": " << r.json;
  TracedRun run{r.trace, {}};
  for (std::size_t i = 0; i < run.trace.size(); ++i) run.at[run.trace[i].id] = i;
  return run;
}

Pred kind(TraceKind k) {
  return [k](const TraceRecord& r) { return r.kind == static_cast<std::uint16_t>(k); };
}
// DmaQueued/DmaDone of a purpose (field b).
Pred dma(TraceKind k, Purpose p) {
  return [k, p](const TraceRecord& r) {
    return r.kind == static_cast<std::uint16_t>(k) && r.b == static_cast<std::uint32_t>(p);
  };
}

// The record's causes, nearest first, as far as the trace holds them.
std::vector<const TraceRecord*> ancestry(const TracedRun& run, const TraceRecord& r) {
  std::vector<const TraceRecord*> out;
  RecordId c = r.cause;
  while (c != 0) {
    auto it = run.at.find(c);
    if (it == run.at.end()) break;
    const TraceRecord& up = run.trace[it->second];
    out.push_back(&up);
    c = up.cause;
  }
  return out;
}

// Whether some record matching `last` follows, through its causes, from records matching
// `chain` (earliest first), in that order.
bool has_chain(const TracedRun& run, const std::vector<Pred>& chain, const Pred& last) {
  for (const TraceRecord& r : run.trace) {
    if (!last(r)) continue;
    const auto up = ancestry(run, r);
    std::size_t want = chain.size();
    for (const TraceRecord* a : up) {
      if (want == 0) break;
      if (chain[want - 1](*a)) --want;
    }
    if (want == 0) return true;
  }
  return false;
}

const char* const kPresets[] = {"anatomy-of-a-send", "anatomy-of-a-receive", "tigon-one-packet",
                                "web-anatomy-of-a-request", "sinic-anatomy"};

TEST(TraceCause, EveryCauseNamesAnEarlierMadeRecord) {
  for (const char* id : kPresets) {
    const TracedRun run = run_preset(id);
    std::size_t with_cause = 0;
    for (const TraceRecord& r : run.trace) {
      ASSERT_NE(r.id, 0u) << id;
      if (r.cause == 0) continue;
      ++with_cause;
      EXPECT_LT(r.cause, r.id) << id << ": record " << r.id << " (kind " << r.kind << ")";
    }
    EXPECT_GT(with_cause, run.trace.size() / 8) << id << ": many records know their cause";
  }
}

TEST(TraceCause, SameScenarioAndSeedGiveTheSameTraceBytes) {
  for (const char* id : kPresets) {
    const TracedRun a = run_preset(id), b = run_preset(id);
    ASSERT_EQ(a.trace.size(), b.trace.size()) << id;
    EXPECT_EQ(0, std::memcmp(a.trace.data(), b.trace.data(), a.trace.size() * sizeof(TraceRecord)))
        << id;
  }
}

TEST(TraceCause, FixedNicSendFromMailboxToWireAndInterrupt) {
  const TracedRun run = run_preset("anatomy-of-a-send");
  // Mailbox write -> descriptor fetch -> data DMA -> frame on the wire -> the peer has it.
  EXPECT_TRUE(
      has_chain(run,
                {kind(TraceKind::DriverPostSendBd), kind(TraceKind::MailboxWrite),
                 kind(TraceKind::MailboxArrive), dma(TraceKind::DmaQueued, Purpose::SendBdFetch),
                 dma(TraceKind::DmaDone, Purpose::SendBdFetch),
                 dma(TraceKind::DmaQueued, Purpose::SendDataFetch),
                 dma(TraceKind::DmaDone, Purpose::SendDataFetch), kind(TraceKind::MacTxStart)},
                kind(TraceKind::PeerRxDone)));
  // The data moved -> the index written back -> the interrupt.
  EXPECT_TRUE(
      has_chain(run,
                {kind(TraceKind::MailboxWrite), dma(TraceKind::DmaDone, Purpose::SendDataFetch),
                 dma(TraceKind::DmaQueued, Purpose::SendConsumerWrite),
                 dma(TraceKind::DmaDone, Purpose::SendConsumerWrite)},
                kind(TraceKind::InterruptRaise)));
  // A DMA: queued -> granted the bus -> its transaction -> done.
  EXPECT_TRUE(has_chain(run,
                        {kind(TraceKind::DmaQueued), kind(TraceKind::BusGrant),
                         kind(TraceKind::BusTxnStart), kind(TraceKind::BusTxnEnd)},
                        kind(TraceKind::DmaDone)));
}

TEST(TraceCause, FixedNicReceiveFromFrameToInterrupt) {
  const TracedRun run = run_preset("anatomy-of-a-receive");
  // Frame in -> data DMA -> return descriptor write -> producer index -> interrupt -> ISR.
  EXPECT_TRUE(has_chain(
      run,
      {kind(TraceKind::PeerTxStart), kind(TraceKind::MacRxDone),
       dma(TraceKind::DmaQueued, Purpose::RecvDataWrite),
       dma(TraceKind::DmaQueued, Purpose::ReturnBdWrite),
       dma(TraceKind::DmaDone, Purpose::ReturnBdWrite),
       dma(TraceKind::DmaQueued, Purpose::ReturnProducerWrite),
       dma(TraceKind::DmaDone, Purpose::ReturnProducerWrite), kind(TraceKind::InterruptRaise)},
      kind(TraceKind::IsrStart)));
  EXPECT_TRUE(
      has_chain(run, {kind(TraceKind::MacRxDone), dma(TraceKind::DmaDone, Purpose::ReturnBdWrite)},
                kind(TraceKind::HostDeliver)));
}

TEST(TraceCause, ADmaHeldBackByAFullQueueFollowsFromTheRefusal) {
  // A 350 ns stall keeps the bus busy enough for the NICs' DMA queues to fill in the window.
  const TracedRun run = run_preset("pci-33-vs-66", R"({"system.bus.memory_latency_ns": 350})");
  EXPECT_TRUE(has_chain(run, {kind(TraceKind::DmaQueueFull)}, kind(TraceKind::DmaQueued)));
}

TEST(TraceCause, TigonEventToHandlerToDmaToItsCompletion) {
  const TracedRun run = run_preset("tigon-one-packet");
  // A handler queues a DMA; its completion raises DMA Read/Write Complete, whose handler runs.
  EXPECT_TRUE(has_chain(
      run, {kind(TraceKind::TigonHandler), kind(TraceKind::DmaQueued), kind(TraceKind::DmaDone)},
      kind(TraceKind::TigonHandler)));
  // The mailbox write reaches the Mailbox handler, whose BD-ready event starts a fetch.
  EXPECT_TRUE(has_chain(run,
                        {kind(TraceKind::MailboxArrive), kind(TraceKind::TigonHandler),
                         kind(TraceKind::TigonHandler)},
                        dma(TraceKind::DmaQueued, Purpose::SendBdFetch)));
  // The event register shows the bit the record raised.
  bool register_caused = false;
  for (const TraceRecord& r : run.trace)
    register_caused |= kind(TraceKind::TigonRegister)(r) && r.cause != 0;
  EXPECT_TRUE(register_caused);
  EXPECT_TRUE(has_chain(run, {kind(TraceKind::TigonHandler)}, kind(TraceKind::InterruptRaise)));
}

TEST(TraceCause, WebRequestToItsSegmentsTheirCommandsAndDmas) {
  const TracedRun run = run_preset("web-anatomy-of-a-request");
  EXPECT_TRUE(
      has_chain(run,
                {kind(TraceKind::WebAsk), kind(TraceKind::MacRxDone), kind(TraceKind::HostDeliver),
                 kind(TraceKind::WebServe), kind(TraceKind::WebSend), kind(TraceKind::WebSegment),
                 kind(TraceKind::CacheCommand), kind(TraceKind::MailboxWrite),
                 dma(TraceKind::DmaQueued, Purpose::SendBdFetch)},
                dma(TraceKind::DmaQueued, Purpose::SendDataFetch)));
  EXPECT_TRUE(has_chain(run, {kind(TraceKind::WebSegment)}, kind(TraceKind::PeerRxDone)));
}

TEST(TraceCause, SinicFrameToTheCopyIntoTheUserBuffer) {
  const TracedRun run = run_preset("sinic-anatomy");
  const Pred to_user = [](const TraceRecord& r) {
    return (r.kind == static_cast<std::uint16_t>(TraceKind::SinicCopy) && r.e == 2) ||
           r.kind == static_cast<std::uint16_t>(TraceKind::L2Copy);
  };
  EXPECT_TRUE(has_chain(run, {kind(TraceKind::MacRxDone), kind(TraceKind::SinicCopy)}, to_user));
}

}  // namespace
}  // namespace nicsim
