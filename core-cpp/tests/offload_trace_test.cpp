// The TCP offload run's trace (Freimuth et al., "Server Network Scalability and TCP Offload"):
// the ledger is the sum of its DMA records, each charged 4 + ceil(bytes / 8) cycles (§4.4);
// ACK, handshake and teardown frames never cause a bus crossing with offload (§3.3); causes
// link a SEND request to its DMA, its frames and its completion; and the E1000's receive
// interrupts coalesce (§2.1) without moving a cell of Table 4.
#include <gtest/gtest.h>

#include <unordered_map>

#include "bus/pci_bus.hpp"
#include "offload/transfer.hpp"
#include "offload_test_util.hpp"
#include "trace/gen/trace_kinds.gen.hpp"

namespace nicsim {
namespace {

Config pcix(OffloadInterface i, std::int64_t kb) { return testing::offload_pcix(i, kb); }

struct Traced {
  OffloadResult r;
  std::vector<TraceRecord> trace;
  std::unordered_map<RecordId, std::size_t> at;  // record id → index
  const TraceRecord* of(RecordId id) const {
    auto it = at.find(id);
    return it == at.end() ? nullptr : &trace[it->second];
  }
  // True when following causes back from `r` reaches a record that `match` selects.
  template <class M>
  bool leads_back(const TraceRecord& r, M match) const {
    for (const TraceRecord* p = of(r.cause); p != nullptr; p = of(p->cause))
      if (match(*p)) return true;
    return false;
  }
};

Traced traced(const Config& c) {
  Traced t;
  SimContext ctx(1, 0, 2'000'000'000'000, 1'000'000);
  PciBus bus(&ctx, c.bus);
  OffloadTransfer x(&ctx, c, &bus);
  x.start();
  ctx.run_until(2'000'000'000'000);
  EXPECT_FALSE(ctx.failed()) << ctx.fault();
  ctx.trace.flush(ctx.now());
  t.r = x.result();
  t.trace = ctx.trace.records();
  EXPECT_EQ(ctx.trace.dropped(), 0u);
  for (std::size_t i = 0; i < t.trace.size(); ++i) t.at[t.trace[i].id] = i;
  return t;
}

bool is(const TraceRecord& r, TraceKind k) { return r.kind == static_cast<std::uint16_t>(k); }

constexpr std::uint32_t kToServer = 1;
constexpr std::uint32_t kSyn = 0, kAck = 2, kData = 4, kFin = 5;

TEST(OffloadTrace, LedgerIsTheSumOfItsDmaRecords) {
  for (OffloadInterface i : {OffloadInterface::E1000, OffloadInterface::Offload}) {
    for (std::int64_t kb : {1, 64, 512}) {
      const Traced t = traced(pcix(i, kb));
      ASSERT_TRUE(t.r.complete);
      LedgerCell cells[2][static_cast<int>(LedgerPurpose::Count)];
      std::uint64_t queued = 0;
      for (const TraceRecord& r : t.trace) {
        if (is(r, TraceKind::OffloadDmaQueued)) ++queued;
        if (!is(r, TraceKind::OffloadDma)) continue;
        // a dma, b direction, c purpose, d bytes, e cycles: the paper's formula per DMA.
        EXPECT_EQ(r.e, 4 + (r.d + 7) / 8);
        LedgerCell& c = cells[r.b][r.c];
        ++c.dmas;
        c.bytes += r.d;
        c.cycles += r.e;
        // Its cause is the bus transaction that carried it.
        const TraceRecord* end = t.of(r.cause);
        ASSERT_NE(end, nullptr);
        EXPECT_TRUE(is(*end, TraceKind::BusTxnEnd));
      }
      for (int d = 0; d < 2; ++d) {
        for (int p = 0; p < static_cast<int>(LedgerPurpose::Count); ++p) {
          const LedgerCell& want =
              t.r.ledger.cell(static_cast<LedgerDir>(d), static_cast<LedgerPurpose>(p));
          EXPECT_EQ(cells[d][p].dmas, want.dmas) << kb << " KB, " << d << "/" << p;
          EXPECT_EQ(cells[d][p].bytes, want.bytes);
          EXPECT_EQ(cells[d][p].cycles, want.cycles);
        }
      }
      EXPECT_EQ(queued,
                t.r.ledger.total(LedgerDir::Send).dmas + t.r.ledger.total(LedgerDir::Recv).dmas);
    }
  }
}

TEST(OffloadTrace, AckFramesNeverCrossTheBusWithOffload) {
  for (OffloadInterface i : {OffloadInterface::E1000, OffloadInterface::Offload}) {
    const Traced t = traced(pcix(i, 64));
    std::unordered_map<RecordId, int> control;  // frame arrival → DMAs it caused
    std::uint64_t arrivals = 0;
    for (const TraceRecord& r : t.trace) {
      if (is(r, TraceKind::OffloadFrameIn) && r.b == kToServer && r.c != 3) {
        ++arrivals;
        control[r.id] = 0;
        EXPECT_EQ(r.d, i == OffloadInterface::E1000 ? 1u : 0u);  // "crosses the bus"
      }
      if (is(r, TraceKind::OffloadDmaQueued)) {
        auto it = control.find(r.cause);
        if (it != control.end()) ++it->second;
      }
    }
    EXPECT_EQ(arrivals, t.r.client_frames - 1);  // all but the GET
    for (const auto& [id, dmas] : control)
      EXPECT_EQ(dmas, i == OffloadInterface::E1000 ? 1 : 0) << "frame record " << id;
  }
}

TEST(OffloadTrace, CausesLinkASendToItsDmaFramesAndResponse) {
  const Traced t = traced(pcix(OffloadInterface::Offload, 64));
  auto send_post = [](const TraceRecord& p) {
    return is(p, TraceKind::OffloadDescriptor) && p.a == 2 && p.b == 0 && p.c == 2;
  };
  int data = 0, done = 0, shielded = 0;
  for (const TraceRecord& r : t.trace) {
    ASSERT_LT(r.cause, r.id);
    if (const TraceRecord* c = t.of(r.cause)) {
      ASSERT_LE(c->time_ps, r.time_ps);
    }
    // Every data segment on the wire follows from a SEND request, through its payload DMA.
    if (is(r, TraceKind::OffloadFrame) && r.c == kData) {
      ++data;
      EXPECT_TRUE(t.leads_back(r, send_post));
      EXPECT_TRUE(t.leads_back(r, [](const TraceRecord& p) {
        return is(p, TraceKind::OffloadDma) && p.c == static_cast<int>(LedgerPurpose::Payload);
      }));
    }
    // Each SEND's completion response follows from its payload DMA and the SEND.
    if (is(r, TraceKind::OffloadDescriptor) && r.a == 3 && r.b == 0 && r.c == 6) {
      ++done;
      EXPECT_TRUE(t.leads_back(r, send_post));
    }
    // The client's ACKs reach the adapter and go no further: nothing follows from them but
    // the next segments.
    if (is(r, TraceKind::OffloadFrameIn) && r.b == kToServer && r.c == kAck) ++shielded;
  }
  EXPECT_EQ(static_cast<std::uint64_t>(data), t.r.segments);
  EXPECT_EQ(done, 17);  // (150 + 65536) bytes in 4 KB buffers
  EXPECT_GT(shielded, 0);
  // What follows from a frame the adapter keeps: no DMA, only the connection events the host
  // is told of (established, peer closed, closed), one each.
  int events = 0;
  for (const TraceRecord& r : t.trace) {
    const TraceRecord* c = t.of(r.cause);
    if (c == nullptr || !is(*c, TraceKind::OffloadFrameIn) || c->c == 3) continue;
    EXPECT_FALSE(is(r, TraceKind::OffloadDmaQueued)) << "a DMA follows from a kept frame";
    if (is(r, TraceKind::OffloadDescriptor)) {
      ++events;
      EXPECT_TRUE(r.a == 3 && r.b == 0 && (r.c == 4 || r.c == 7 || r.c == 8)) << r.c;
    }
  }
  EXPECT_EQ(events, 3);
}

TEST(OffloadTrace, CoalescingReducesE1000Interrupts) {
  Config per_frame = pcix(OffloadInterface::E1000, 64);
  per_frame.offload.e1000_coalesce_timer = 0;
  const Traced each = traced(per_frame);
  const Traced coalesced = traced(pcix(OffloadInterface::E1000, 64));
  ASSERT_TRUE(each.r.complete);
  ASSERT_TRUE(coalesced.r.complete);
  EXPECT_EQ(each.r.interrupts, each.r.client_frames);
  EXPECT_LT(coalesced.r.interrupts, each.r.interrupts);
  // Every frame is still handled, once, and the bus carries the same.
  EXPECT_EQ(coalesced.r.host_events, coalesced.r.client_frames);
  for (LedgerDir d : {LedgerDir::Send, LedgerDir::Recv}) {
    EXPECT_EQ(coalesced.r.ledger.total(d).dmas, each.r.ledger.total(d).dmas);
    EXPECT_EQ(coalesced.r.ledger.total(d).cycles, each.r.ledger.total(d).cycles);
  }
  // The interrupt records carry every frame between them; a count threshold also works.
  std::uint64_t items = 0, events = 0;
  for (const TraceRecord& r : coalesced.trace)
    if (is(r, TraceKind::OffloadHostEvent)) {
      ++events;
      items += r.b;
      EXPECT_EQ(r.d, 1724u);  // the 3.2 GHz Xeon's register read (Table 2)
    }
  EXPECT_EQ(events, coalesced.r.interrupts);
  EXPECT_EQ(items, coalesced.r.client_frames);
  Config two = pcix(OffloadInterface::E1000, 64);
  two.offload.e1000_coalesce_frames = 2;
  two.offload.e1000_coalesce_timer = 0;
  const Traced pairs = traced(two);
  EXPECT_LT(pairs.r.interrupts, each.r.interrupts);
}

TEST(OffloadTrace, TablesBalance) {
  // Every descriptor posted to a ring or table is fetched or taken, and the occupancy the
  // records carry ends at zero.
  for (OffloadInterface i : {OffloadInterface::E1000, OffloadInterface::Offload}) {
    const Traced t = traced(pcix(i, 64));
    int in[4] = {0, 0, 0, 0};
    std::uint32_t last[4] = {0, 0, 0, 0};
    for (const TraceRecord& r : t.trace) {
      if (!is(r, TraceKind::OffloadDescriptor)) continue;
      ASSERT_LT(r.a, 4u);
      const bool adds = r.a == 1 ? r.b == 2 : r.b == 0;  // the receive ring fills on write-back
      const bool removes = r.a == 0 || r.a == 2 ? r.b == 1 : r.b == 3;
      in[r.a] += adds ? 1 : removes ? -1 : 0;
      EXPECT_EQ(static_cast<int>(r.e), in[r.a]) << "table " << r.a;
      last[r.a] = r.e;
    }
    for (int k = 0; k < 4; ++k) EXPECT_EQ(last[k], 0u) << "table " << k;
  }
}

}  // namespace
}  // namespace nicsim
