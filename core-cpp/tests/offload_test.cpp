// The TCP offload paper's model (Freimuth et al., "Server Network Scalability and TCP Offload"):
// the cost model per DMA (§4.4), a ledger that sums, ACKs and handshakes that never cross the
// bus with offload (§3.3), SEND responses that EDT's loop makes together crossing together even
// at batching level 1 (§4.1-4.3), descriptor batching that ships on its idle timeout (§4.1),
// and validation of impossible settings.
#include <gtest/gtest.h>

#include "bus/pci_bus.hpp"
#include "offload/transfer.hpp"
#include "offload_test_util.hpp"
#include "scenario/scenario.hpp"
#include "test_util.hpp"

namespace nicsim {
namespace {

using testing::errors_of;
using testing::has_error;
using testing::metric;
using testing::minimal;
using testing::run_ok;

Config pcix_config(OffloadInterface i, std::int64_t kb) { return testing::offload_pcix(i, kb); }

OffloadResult transfer(const Config& c) {
  SimContext ctx(1, 0, 0, 0);
  PciBus bus(&ctx, c.bus);
  OffloadTransfer t(&ctx, c, &bus);
  t.start();
  ctx.run_until(2'000'000'000'000);  // 2 s
  EXPECT_FALSE(ctx.failed()) << ctx.fault();
  return t.result();
}

Json scenario() {
  return {{"system",
           {{"bus",
             {{"model", "fixed"},
              {"protocol", "pci-x"},
              {"width_bits", 64},
              {"clock_mhz", 133},
              {"overhead_cycles", 4}}}}},
          {"workload", {{"kind", "tcp-offload"}}},
          {"run", {{"duration_us", 100000}, {"warmup_us", 0}, {"sample_interval_us", 1000}}}};
}

TEST(Offload, FormulaPerDma) {
  Config c = pcix_config(OffloadInterface::E1000, 64);
  // The paper's formula, 4 + (bytes + 7) / 8, as the fixed bus model charges it.
  for (std::uint64_t b : {1u, 7u, 8u, 9u, 16u, 54u, 60u, 64u, 1460u, 4096u})
    EXPECT_EQ(fixed_model_cycles(c.bus, b), static_cast<std::int64_t>(4 + (b + 7) / 8)) << b;
  for (OffloadInterface i : {OffloadInterface::E1000, OffloadInterface::Offload}) {
    const OffloadResult r = transfer(pcix_config(i, 64));
    ASSERT_TRUE(r.complete);
    ASSERT_FALSE(r.dmas.empty());
    for (const OffloadDmaRecord& d : r.dmas) {
      EXPECT_EQ(d.cycles, 4 + (d.bytes + 7) / 8);
      // The bus held it at least its cycles (7.5 ns each at 133 MHz).
      EXPECT_GE(d.end - d.queued, static_cast<Time>(d.cycles) * c.bus.cycle());
    }
  }
}

TEST(Offload, LedgerSums) {
  for (OffloadInterface i : {OffloadInterface::E1000, OffloadInterface::Offload}) {
    for (std::int64_t kb : {1, 64, 512}) {
      const OffloadResult r = transfer(pcix_config(i, kb));
      ASSERT_TRUE(r.complete);
      LedgerCell records[2];
      for (const OffloadDmaRecord& d : r.dmas) {
        LedgerCell& c = records[static_cast<int>(d.dir)];
        ++c.dmas;
        c.bytes += d.bytes;
        c.cycles += d.cycles;
      }
      for (LedgerDir dir : {LedgerDir::Send, LedgerDir::Recv}) {
        LedgerCell sum;
        for (int p = 0; p < static_cast<int>(LedgerPurpose::Count); ++p)
          sum += r.ledger.cell(dir, static_cast<LedgerPurpose>(p));
        const LedgerCell t = r.ledger.total(dir);
        EXPECT_EQ(sum.dmas, t.dmas);
        EXPECT_EQ(sum.bytes, t.bytes);
        EXPECT_EQ(sum.cycles, t.cycles);
        const LedgerCell& rec = records[static_cast<int>(dir)];
        EXPECT_EQ(rec.dmas, t.dmas);
        EXPECT_EQ(rec.bytes, t.bytes);
        EXPECT_EQ(rec.cycles, t.cycles);
      }
      // The whole response reached the client, and every byte of it crossed the bus once.
      const auto stream = static_cast<std::uint64_t>(150 + kb * 1024);
      EXPECT_EQ(r.client_bytes, stream);
      const std::uint64_t payload = r.ledger.cell(LedgerDir::Send, LedgerPurpose::Payload).bytes;
      if (i == OffloadInterface::Offload) {
        EXPECT_EQ(payload, stream);
      } else {
        EXPECT_EQ(payload, stream - 150);  // the HTTP header rides in the header buffer
      }
    }
  }
}

TEST(Offload, AcksNeverCrossTheBusWithOffload) {
  const OffloadResult e = transfer(pcix_config(OffloadInterface::E1000, 64));
  const OffloadResult o = transfer(pcix_config(OffloadInterface::Offload, 64));
  ASSERT_TRUE(e.complete);
  ASSERT_TRUE(o.complete);
  // The same connection on the wire.
  EXPECT_EQ(e.client_frames, o.client_frames);
  EXPECT_EQ(e.segments, o.segments);
  // E1000: every frame from the client but the GET crosses as a control frame.
  EXPECT_EQ(e.ledger.cell(LedgerDir::Recv, LedgerPurpose::Control).dmas, e.client_frames - 1);
  EXPECT_EQ(e.host_events, e.client_frames);
  for (LedgerDir d : {LedgerDir::Send, LedgerDir::Recv}) {
    EXPECT_EQ(o.ledger.cell(d, LedgerPurpose::Control).dmas, 0u);
    EXPECT_EQ(o.ledger.cell(d, LedgerPurpose::Header).dmas, 0u);
  }
  // The host sees one event per connection step and per completed buffer, not per frame.
  EXPECT_LT(o.host_events, e.host_events);
}

TEST(Offload, Table4OneKilobyteCounts) {
  // Nothing fitted: the 1 KB connection's frames and descriptors (Table 4: 9 and 12, 9 and 11).
  const OffloadResult e = transfer(pcix_config(OffloadInterface::E1000, 1));
  EXPECT_EQ(e.ledger.total(LedgerDir::Send).dmas, 9u);
  EXPECT_EQ(e.ledger.total(LedgerDir::Recv).dmas, 12u);
  const OffloadResult o = transfer(pcix_config(OffloadInterface::Offload, 1));
  EXPECT_EQ(o.ledger.total(LedgerDir::Send).dmas, 9u);
  EXPECT_EQ(o.ledger.total(LedgerDir::Recv).dmas, 11u);
}

TEST(Offload, ResponsesMadeTogetherCrossTogether) {
  // Batching level 1: EDT's loop picks up the DMAs that completed while it was busy in one pass
  // (§4.2), and a response's DMAs wait behind the data DMAs queued before them (§4.3): SEND
  // responses share crossings, more of them the longer the transfer.
  const OffloadResult r = transfer(pcix_config(OffloadInterface::Offload, 512));
  ASSERT_TRUE(r.complete);
  const auto recv = static_cast<std::size_t>(LedgerDir::Recv);
  EXPECT_EQ(r.descriptors[recv], 133u);  // 129 SENDs, the connection, the request, 2 closes
  EXPECT_LT(r.crossings[recv], r.descriptors[recv] * 9 / 10);
  // Each crossing is still one response block, one producer index and one host event.
  EXPECT_EQ(r.ledger.total(LedgerDir::Recv).dmas, 1 + 2 * r.crossings[recv]);
  EXPECT_EQ(r.host_events, r.crossings[recv]);
  const OffloadResult mid = transfer(pcix_config(OffloadInterface::Offload, 64));
  EXPECT_LT(mid.crossings[recv], mid.descriptors[recv]);
  EXPECT_GT(mid.crossings[recv] * 133, r.crossings[recv] * mid.descriptors[recv]);
  // With no work per event, the queue alone still makes responses wait and share...
  Config free_edt = pcix_config(OffloadInterface::Offload, 512);
  free_edt.offload.edt_event = 0;
  const OffloadResult queued = transfer(free_edt);
  EXPECT_LT(queued.crossings[recv], queued.descriptors[recv]);
  // ...and an EDT that falls behind OSLayer finds many completions per pass.
  Config slow_edt = free_edt;
  slow_edt.offload.edt_event = 4'000'000;
  const OffloadResult slow = transfer(slow_edt);
  EXPECT_LT(slow.crossings[recv] * 4, queued.crossings[recv]);
}

TEST(Offload, ALoneResponseShipsAtOnce) {
  // The 1 KB file has one SEND: at level 1 every response crosses alone, as soon as EDT's pass
  // that made it ends, never waiting for a companion.
  const OffloadResult r = transfer(pcix_config(OffloadInterface::Offload, 1));
  ASSERT_TRUE(r.complete);
  const auto recv = static_cast<std::size_t>(LedgerDir::Recv);
  EXPECT_EQ(r.descriptors[recv], 5u);
  EXPECT_EQ(r.crossings[recv], 5u);
  EXPECT_LT(r.descriptor_wait_max, 4'000'000);  // less than one 4 KB DMA (3.9 µs)
}

TEST(Offload, BatchingShipsOnTheTimeout) {
  Config c = pcix_config(OffloadInterface::Offload, 64);
  c.offload.batch_level = 10;
  c.offload.batch_timeout = 1'000'000'000;  // 1 ms
  const OffloadResult b = transfer(c);
  ASSERT_TRUE(b.complete);
  const OffloadResult one = transfer(pcix_config(OffloadInterface::Offload, 64));
  // Fewer crossings than descriptors, fewer than without batching.
  EXPECT_LT(b.crossings[0], b.descriptors[0]);
  EXPECT_LT(b.crossings[1], b.descriptors[1]);
  EXPECT_LT(b.ledger.total(LedgerDir::Recv).dmas, one.ledger.total(LedgerDir::Recv).dmas);
  // The first ACCEPT never has 9 companions: it ships when the timeout expires, not later.
  EXPECT_EQ(b.descriptor_wait_max, c.offload.batch_timeout);
  // And the transfer took the timeouts' time.
  EXPECT_GT(b.end, one.end + c.offload.batch_timeout);
}

TEST(Offload, RunReportsTheLedger) {
  const Json out = run_ok(minimal(scenario()), {{"system.offload.interface", "e1000"}});
  EXPECT_EQ(metric(out, "ledger_send_dmas"), 9);
  EXPECT_EQ(metric(out, "machine_register_read_cycles"), 1724);  // Table 2, 3.2 GHz Xeon
  const Json p3 = run_ok(minimal(scenario()), {{"system.offload.machine", "p3-500"}});
  EXPECT_EQ(metric(p3, "machine_register_read_cycles"), 300);
}

TEST(Offload, ValidationNamesTheField) {
  Json s = scenario();
  s["system"]["bus"]["model"] = "pci";
  EXPECT_TRUE(has_error(errors_of(minimal(s)), "system.bus.model", "fixed"));
  EXPECT_TRUE(has_error(errors_of(minimal(scenario()), "{\"system.offload.batch_level\": 0}"),
                        "system.offload.batch_level", "1"));
  // A run too short to finish the file reports the partial ledger and says so.
  const Json part =
      run_ok(minimal(scenario()), {{"run.duration_us", 50}, {"run.sample_interval_us", 10}});
  EXPECT_EQ(metric(part, "offload_files_done"), 0);
  EXPECT_GT(metric(part, "ledger_send_dmas"), 0);
  const Json whole = run_ok(minimal(scenario()));
  EXPECT_EQ(metric(whole, "offload_files_done"), 1);
}

}  // namespace
}  // namespace nicsim
