// One web file served over TCP (the TCP offload paper §5: Flash and httperf), through the
// conventional E1000-like adapter or the offload adapter, on the project's event queue and bus.
#pragma once
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bus/bus.hpp"
#include "nic/coalescer.hpp"
#include "offload/ledger.hpp"
#include "offload/offload_config.hpp"
#include "scenario/config.hpp"
#include "sim/context.hpp"

namespace nicsim {

// One DMA the ledger counted, for the views (capped).
struct OffloadDmaRecord {
  Time queued = 0, end = 0;
  LedgerDir dir = LedgerDir::Send;
  LedgerPurpose purpose = LedgerPurpose::Payload;
  std::uint32_t bytes = 0;
  std::uint32_t cycles = 0;
};

struct OffloadResult {
  OffloadLedger ledger;
  bool complete = false;
  Time end = 0;                           // the transfer's last step (server's close done)
  std::uint64_t host_events = 0;          // frames (E1000) or response crossings (offload)
  std::uint64_t interrupts = 0;           // E1000: coalesced; offload: one per crossing
  std::uint64_t register_writes = 0;      // E1000 tail writes (not DMAs: outside the ledger)
  std::uint64_t segments = 0;             // data segments on the wire
  std::uint64_t client_bytes = 0;         // response bytes (header and file) the client got
  std::uint64_t client_frames = 0;        // frames the client sent (SYN, ACKs, GET, FIN)
  std::uint64_t server_frames = 0;        // frames the server sent
  std::uint64_t crossings[2] = {0, 0};    // descriptor crossings per direction (offload)
  std::uint64_t descriptors[2] = {0, 0};  // descriptors per direction (offload)
  double descriptor_wait_sum = 0;         // ps, over all descriptors, created to shipped
  Time descriptor_wait_max = 0;
  std::vector<OffloadDmaRecord> dmas;  // the first kMaxDmaRecords
  static constexpr std::size_t kMaxDmaRecords = 4096;
};

class OffloadTransfer final : private EventHandler {
 public:
  OffloadTransfer(SimContext* ctx, const Config& cfg, IoBus* bus);
  void start();
  const OffloadResult& result() const { return r_; }

 private:
  enum class FrameKind : std::uint8_t { Syn, SynAck, Ack, Request, Data, Fin };
  struct Frame {
    FrameKind kind = FrameKind::Ack;
    std::uint32_t segment = 0;  // Data: its index
    std::uint32_t bytes = 0;    // on the wire, without CRC
    std::uint32_t id = 0;       // the trace's packet id
    std::uint32_t slot = 0;     // E1000 receive: its ring slot
    RecordId cause = 0;         // the record it follows from
  };
  struct Segment {
    std::int64_t offset = 0, length = 0;  // in the response stream (HTTP header, then file)
  };
  // `done` gets the id of the DMA's OffloadDma record.
  using Done = std::function<void(RecordId)>;
  struct Dma {
    LedgerDir dir;
    LedgerPurpose purpose;
    std::uint32_t bytes;
    bool read;
    Purpose bus_purpose;
    Done done;
    RecordId cause = 0;
    std::uint32_t frame = 0;
    Time queued = 0;
    std::uint32_t id = 0;
    RecordId queued_rec = 0;
  };
  // A bus master with a control queue served before its data queue.
  class Master final : public BusMaster {
   public:
    Master(OffloadTransfer* t, Component c) : t_(t), component_(c) {}
    void push(Dma d, bool control);
    void bus_done(const BusTransaction& txn) override;
    void bus_retry() override { kick(); }

   private:
    void kick();
    OffloadTransfer* t_;
    Component component_;
    std::deque<Dma> control_, data_;
    bool active_ = false;
    Dma current_{};
  };
  // Descriptors waiting to cross in one direction (§4.1 batching with idle timeout).
  struct Waiting {
    int kind;
    Time created;
    std::uint32_t slot;
    RecordId rec;  // its OffloadDescriptor post
  };
  struct Shipper {
    LedgerDir dir = LedgerDir::Send;
    std::uint32_t table = 0;  // offloadTable: Requests or Responses
    std::uint32_t posted = 0, in_table = 0;
    std::vector<Waiting> waiting;
    bool in_flight = false;
    bool hold = false;  // EDT is making responses: they ship when its pass ends
    std::uint64_t timer_generation = 0;
  };
  enum Desc : int { Accept, Recv, Send, Close, ConnEvent, RecvDone, SendDone, CloseCmd, CloseDone };

  void fire(std::uint32_t tag) override;
  void after(Time delay, std::function<void()> f);
  RecordId count(const Dma& d, Time end, RecordId bus_end);
  RecordId table_op(std::uint32_t table, std::uint32_t op, int what, std::uint32_t slot,
                    std::uint32_t occupancy, RecordId cause);
  std::uint32_t read_cycles() const;

  // Wire.
  void to_client(Frame f);
  void to_server(Frame f);
  void wire(Frame f, int way);
  Time frame_time(std::uint32_t bytes) const;
  // Client (httperf on Linux).
  void client_receive(const Frame& f);
  void client_send(FrameKind k, RecordId cause, std::uint32_t payload = 0);
  // Server TCP sender, shared by both interfaces.
  void server_receive(const Frame& f);
  void on_frame(const Frame& f);  // after the host (E1000) or the adapter (offload) has it
  void try_send(RecordId cause);
  bool segment_ready(std::size_t i) const;
  void transmit(Frame f);
  // E1000.
  void e1000_receive(const Frame& f);
  void e1000_transmit(const Frame& f);
  void e1000_interrupt(std::uint32_t trigger, RecordId cause);
  void host_cpu(std::function<void()> f);
  // Offload.
  void post(Shipper& s, int kind, RecordId cause);
  void try_ship(Shipper& s);
  void ship(Shipper& s, bool timer);  // timer: a short batch the idle timeout ships
  void adapter_takes(int kind, RecordId cause);
  void host_takes(int kind, RecordId cause);
  void adapter_cpu(std::function<void()> f, Time cost);
  void edt_wake();
  void edt_loop();
  void edt_job_done();
  void finish();

  SimContext* ctx_;
  const Config& cfg_;
  const OffloadConfig& o_;
  IoBus* bus_;
  Master nic_, host_;
  OffloadResult r_;
  std::unordered_map<std::uint32_t, std::function<void()>> pending_;
  std::uint32_t next_tag_ = 0;
  bool offload_;
  std::vector<Segment> segments_;
  // Server TCP.
  std::size_t next_segment_ = 0, acked_segments_ = 0;
  std::int64_t cwnd_ = 0;
  bool request_seen_ = false, close_requested_ = false, fin_sent_ = false;
  std::int64_t present_bytes_ = 0;  // offload: stream bytes DMAed to the adapter so far
  RecordId present_rec_ = 0;        // offload: the DMA that brought them
  bool recv_posted_ = false, request_waiting_ = false, accept_posted_ = false, established_ = false;
  Frame request_frame_;  // offload: the GET that waits for its RECV
  // Client.
  std::size_t client_segments_ = 0;
  int client_unacked_ = 0;
  std::int64_t client_quick_ = 0;
  std::uint64_t delack_generation_ = 0;
  // Wire and CPUs.
  Time wire_free_[2] = {0, 0};
  Time host_free_ = 0, adapter_free_ = 0;
  Shipper requests_, responses_;
  // EDT's loop (§4.2): what waits for its next check, in the loop's order, and where it is.
  std::vector<Frame> edt_packets_;
  std::vector<std::pair<int, RecordId>> edt_descriptors_;
  std::vector<std::function<void()>> edt_completions_;
  int edt_phase_ = 0, edt_jobs_ = 0;
  bool edt_running_ = false;
  std::size_t sends_to_create_ = 0;
  // E1000 rings (slots only: what the views show) and receive interrupt coalescing.
  class CoalesceTimer final : public EventHandler {
   public:
    explicit CoalesceTimer(OffloadTransfer* t) : t_(t) {}
    void fire(std::uint32_t tag) override;

   private:
    OffloadTransfer* t_;
  };
  CoalesceTimer coalesce_timer_;
  Coalescer rx_coalescer_;
  std::vector<Frame> rx_unreported_;  // frames written back, not yet interrupted for
  RecordId rx_last_ = 0;
  std::uint32_t tx_posted_ = 0, tx_in_ring_ = 0, rx_filled_ = 0, rx_in_ring_ = 0;
  RecordId established_rec_ = 0;  // the handshake's last ACK, which the connection event follows
};

}  // namespace nicsim
