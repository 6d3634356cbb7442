// The userver's machine of "Evaluating Network Processing Efficiency with Processor
// Partitioning and Asynchronous I/O" (Brecht et al., EuroSys 2006), event by event: httperf-like
// clients offering requests at a fixed rate over four gigabit NICs, and either the baseline (one
// userver per CPU, each CPU taking its two NICs' moderated interrupts) or ETA+AIO (CPU 0 a
// Packet Processing Engine polling the NICs and the doorbell queue, CPU 1 the AIO userver).
// Every cycle is booked to one of Table 1's bins.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "scenario/config.hpp"
#include "sim/context.hpp"

namespace nicsim {

// Table 1's busy bins (idle is what is left of the window).
enum class EtaBin : std::uint8_t {
  User = 0,
  TcpIp = 1,
  Ethernet = 2,
  KernelOther = 3,
  PpeOther = 4
};
constexpr std::size_t kEtaBins = 5;

struct EtaCounters {
  std::array<std::array<std::int64_t, kEtaBins>, 2> cycles{};  // per CPU, per bin
  std::int64_t unproductive_cycles = 0;  // the PPE's empty iterations (in PPE other)
  std::int64_t signal_cycles = 0;        // arming, the IPI, the Kernel Agent and the signal
  std::int64_t interrupt_cycles = 0;     // baseline: entering and leaving NIC interrupts
  std::uint64_t offered = 0, refused = 0, completed = 0;
  std::uint64_t bytes_delivered = 0;  // response bytes the clients have acknowledged
  std::uint64_t signals = 0, interrupts = 0, iterations = 0, empty_iterations = 0;
  std::uint64_t doorbells = 0, events = 0;
  Time latency_sum = 0;
};

class EtaServer final : public EventHandler {
 public:
  EtaServer(SimContext* ctx, const EtaConfig& cfg);
  void start();
  void fire(std::uint32_t tag) override;

  // The counters now, with the empty iterations of the PPE's current idle stretch.
  EtaCounters counters() const;
  // Busy time of a CPU up to now (the PPE is always busy: it never sleeps).
  Time cpu_busy(unsigned cpu) const;
  unsigned cpus() const { return static_cast<unsigned>(cpus_.size()); }
  bool eta() const { return cfg_.system == EtaSystem::EtaAio; }
  std::size_t doorbell_depth() const { return dbq_.size(); }
  std::size_t event_depth() const { return evq_rx_.size() + evq_tx_.size(); }
  std::uint64_t in_flight() const { return live_; }
  Time cycles_to_time(std::int64_t cycles) const;
  // The SPECweb99-like mix: a file's size for class c (0..3), file i (1..9).
  static std::int64_t file_bytes(unsigned c, unsigned i);
  // Mean response bytes of the mix (for the preset's notes and the tests).
  static double mean_file_bytes();

 private:
  enum Tag : std::uint32_t {
    kArrival = 0,
    kCpuDone = 1,   // + cpu
    kIrq = 4,       // + nic (baseline interrupt moderation timer)
    kAck = 12,      // + nic (an ACK reaches the NIC)
    kPpeWake = 20,  // the PPE's loop reaches the iteration that sees new work
    kPpeDone = 21,  // the PPE finishes an iteration
    kHostDone = 22  // the application CPU finishes a unit of work (ETA)
  };
  struct Request {
    std::uint32_t id = 0;
    unsigned nic = 0;
    std::int64_t bytes = 0;
    std::int64_t segments = 0, sent = 0, delivered = 0, acked = 0;
    Time arrived = 0;
    bool encrypt = false;
    std::uint32_t cause = 0;  // the trace record the next step follows from
  };
  struct Frame {
    bool ack = false;
    std::uint32_t slot = 0;
    std::int64_t segments = 0;  // an ACK: segments it acknowledges
    std::uint32_t cause = 0;
  };
  struct Nic {
    std::deque<Frame> rx;
    std::deque<std::pair<Time, Frame>> acks;  // ACKs on their way back, in time order
    Time wire_free = 0;
    Time last_irq = -1;
    bool irq_scheduled = false, irq_queued = false;
  };
  // Work a CPU does: its cycles by bin and what happens when it is done.
  struct Work {
    std::array<std::int64_t, kEtaBins> cycles{};
    std::vector<std::uint32_t> send;       // request slots to transmit for
    std::vector<std::uint32_t> done;       // requests whose last ACK was taken
    std::vector<std::uint32_t> app;        // baseline: requests the userver now serves
    std::vector<std::uint32_t> rx_events;  // ETA: receive completions to post (slots)
    std::vector<std::uint32_t> tx_events;  // ETA: send completions (request id, ACK record)
    std::vector<std::uint32_t> doorbell_recv, doorbell_send;
    bool signal_deliver = false;  // ETA host: the signal reached the userver
    bool arm = false;             // ETA host: the userver armed the signal
    std::int64_t total() const;
    // Empty again, its lists keeping their room: a run does millions of these, and fresh lists
    // cost an allocation per item (kept here, with the CPU, instead of made and moved).
    void reset();
  };
  // Work by turns: `current`, built in place by what starts it and then run, and the one that
  // has just `ended` while it takes effect (apply), which may start the next in `current`.
  class WorkTurns {
   public:
    Work& current() { return w_[now_]; }
    // The current one emptied, for the next work to be built in (its owner is idle).
    Work& fresh() {
      w_[now_].reset();
      return w_[now_];
    }
    Work& ended() { return w_[now_ ^ 1u]; }
    void end() { now_ ^= 1u; }  // current becomes ended; the ended one is reused next

   private:
    std::array<Work, 2> w_;
    unsigned now_ = 0;
  };
  struct Cpu {
    bool busy = false;
    Time busy_since = 0, busy_total = 0;
    std::deque<unsigned> irq;       // NICs whose interrupt waits
    std::deque<std::uint32_t> app;  // requests waiting for the userver
    WorkTurns work;
  };

  void arrival();
  void frame_in(unsigned nic, const Frame& f);
  void transmit(std::uint32_t slot, std::int64_t segments);
  void ack_arrives(unsigned nic);
  void finish(std::uint32_t slot);
  std::int64_t window_room(const Request& r) const;
  // Baseline.
  void irq_due(unsigned nic);
  void cpu_next(unsigned cpu);
  // Starts the CPU's current work. `cause`: the record the work follows from (an interrupt, a
  // request, an event queue entry).
  void cpu_begin(unsigned cpu, std::uint32_t request, RecordId cause);
  void cpu_end(unsigned cpu);
  void charge_frames(unsigned nic, Work* w, bool ppe);
  void add_contention(unsigned cpu, Work* w);
  // ETA+AIO.
  void ppe_wake_for(int nic);
  void ppe_iteration();
  void ppe_done();
  void ppe_idle();
  void post_event(bool rx, std::uint32_t v, RecordId cause);
  void host_next();
  void host_begin(std::uint32_t request, RecordId cause);
  void host_done();
  void apply(const Work& w, unsigned cpu);
  void book(unsigned cpu, const Work& w);
  std::uint32_t draw_file();

  SimContext* ctx_;
  const EtaConfig& cfg_;
  Time interval_ = 0;                // between requests (httperf's fixed rate)
  std::int64_t wire_overhead_ = 78;  // Ethernet, IP, TCP headers, CRC, preamble, gap
  std::vector<Request> reqs_;
  std::vector<std::uint32_t> free_;
  std::uint64_t live_ = 0;
  std::uint32_t next_id_ = 0;
  unsigned next_nic_ = 0;
  std::int64_t encrypt_acc_ = 0;
  std::vector<Nic> nics_;
  std::vector<Cpu> cpus_;
  // The class deck (exact SPECweb99 shares per 100 requests) and each class's files laid out
  // by their per-mille shares.
  std::vector<std::uint8_t> class_deck_;
  std::array<std::vector<std::uint8_t>, 4> file_deck_;
  std::size_t class_pos_ = 0;
  std::array<std::size_t, 4> file_pos_{};
  std::array<bool, 4> file_started_{};
  // ETA+AIO: the PPE's loop, the doorbell queue and the event queues.
  struct DbOp {
    bool send = false;
    std::uint32_t slot = 0;
    std::uint32_t cause = 0;
  };
  std::deque<DbOp> dbq_;
  struct QueuedEvent {
    std::uint32_t v = 0;  // receive: a request slot; send: a request id
    RecordId cause = 0;   // its EtaEvent record: the application's work follows from it
  };
  std::deque<QueuedEvent> evq_rx_, evq_tx_;
  // The TX/RX descriptor queues (§5), for the trace only: sends posted and not yet complete,
  // receives posted and not yet filled by a request.
  std::int64_t tx_descriptors_ = 0, rx_descriptors_ = 0;
  unsigned rr_ = 0;           // the next NIC the loop polls
  bool ppe_running_ = false;  // in an iteration (else polling empty queues)
  Time idle_from_ = 0;        // first empty iteration of the current idle stretch
  unsigned idle_rr_ = 0;      // the NIC that iteration polled
  Time wake_at_ = -1;         // the iteration that will see work, when scheduled
  std::uint64_t wake_j_ = 0;
  std::uint32_t wake_gen_ = 0, wake_fired_gen_ = 0;
  Time poll_time_ = 0;
  std::int64_t pending_ppe_kernel_ = 0;  // the IPIs raised since the last iteration began
  WorkTurns ppe_work_;
  enum class App : std::uint8_t { Running, Sleeping, Waking } app_ = App::Running;
  bool host_busy_ = false;
  EtaCounters n_;
};

}  // namespace nicsim
