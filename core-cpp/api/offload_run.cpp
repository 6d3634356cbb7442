// workload.kind "tcp-offload" (Freimuth et al., "Server Network Scalability and TCP Offload"):
// one web file served through the conventional E1000 or the offload adapter, and the ledger of
// what crossed the bus, per direction and purpose, as Table 4 counts it.
#include "api/system.hpp"
#include "bus/pci_bus.hpp"
#include "offload/transfer.hpp"
#include "scenario/scenario.hpp"

namespace nicsim {

RunOutput run_tcp_offload(const Config& cfg, bool with_trace) {
  RunOutput out;
  SimContext ctx(cfg.run.seed, cfg.run.trace_start, cfg.run.trace_end,
                 with_trace ? static_cast<std::uint64_t>(cfg.run.trace_max_records) : 0);
  PciBus bus(&ctx, cfg.bus);
  OffloadTransfer transfer(&ctx, cfg, &bus);
  transfer.start();
  if (!run_to_end(cfg.run, &ctx, &out)) return out;
  const OffloadResult& r = transfer.result();
  auto add = [&](const char* name, double value) { add_metric(&out, name, value); };
  auto d = [](std::uint64_t v) { return static_cast<double>(v); };
  const LedgerCell send = r.ledger.total(LedgerDir::Send);
  const LedgerCell recv = r.ledger.total(LedgerDir::Recv);
  add("ledger_send_dmas", d(send.dmas));
  add("ledger_send_cycles", d(send.cycles));
  add("ledger_send_bytes", d(send.bytes));
  add("ledger_recv_dmas", d(recv.dmas));
  add("ledger_recv_cycles", d(recv.cycles));
  add("ledger_recv_bytes", d(recv.bytes));
  auto both = [&](LedgerPurpose p) {
    LedgerCell c = r.ledger.cell(LedgerDir::Send, p);
    c += r.ledger.cell(LedgerDir::Recv, p);
    return c;
  };
  add("ledger_control_dmas", d(both(LedgerPurpose::Control).dmas));
  add("ledger_header_bytes", d(both(LedgerPurpose::Header).bytes));
  add("ledger_descriptor_dmas",
      d(both(LedgerPurpose::Descriptor).dmas + both(LedgerPurpose::Response).dmas +
        both(LedgerPurpose::Index).dmas));
  add("ledger_payload_bytes", d(both(LedgerPurpose::Payload).bytes));
  add("offload_host_events", d(r.host_events));
  add("offload_segments", d(r.segments));
  add("offload_client_frames", d(r.client_frames));
  add("offload_send_crossings", d(r.crossings[0]));
  add("offload_recv_crossings", d(r.crossings[1]));
  const std::uint64_t descriptors = r.descriptors[0] + r.descriptors[1];
  add("offload_descriptor_wait_us",
      descriptors > 0 ? r.descriptor_wait_sum / d(descriptors) / 1e6 : 0.0);
  // A run too short for the whole file reports what crossed so far, and says so.
  add("offload_files_done", r.complete ? 1.0 : 0.0);
  add("offload_transfer_us", static_cast<double>(r.complete ? r.end : ctx.now()) / 1e6);
  const OffloadMachine& m = offload_machine(static_cast<int>(cfg.offload.machine));
  add("machine_l1_cycles", m.l1_cycles);
  add("machine_l2_cycles", m.l2_cycles);
  add("machine_memory_cycles", m.memory_cycles);
  add("machine_register_read_cycles", m.register_read_cycles);
  add("machine_register_write_cycles", m.register_write_cycles);
  add("register_read_cycles_per_transfer", d(r.interrupts) * m.register_read_cycles);
  add("events", d(ctx.model_events()));
  add("sim_time", static_cast<double>(ctx.now()) / 1e6);
  add("window", static_cast<double>(cfg.run.duration - cfg.run.warmup) / 1e6);
  // Conservation: the response (header and file) reached the client whole.
  const auto stream =
      static_cast<std::uint64_t>(cfg.offload.http_header_bytes + cfg.offload.file_bytes);
  out.ledgers.push_back({"response bytes from the server's file to the client", stream,
                         r.client_bytes, 0, r.complete ? 0 : stream});
  out.trace_dropped = ctx.trace.dropped();
  out.trace_start = cfg.run.trace_start;
  out.trace_end = cfg.run.trace_end;
  out.trace = ctx.trace.take();
  return out;
}

}  // namespace nicsim
