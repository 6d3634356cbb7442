// The host of the SINIC paper ("Integrated Network Interfaces for High-Bandwidth TCP/IP") and its
// four NICs: the CPU whose time is split into driver / stack / copy / user / idle, the shared L2
// cache, the conventional descriptor NIC off or on chip, SINIC and V-SINIC, and the netperf TCP
// stream it runs.
#pragma once
#include <cstdint>

#include "sim/time.hpp"

namespace nicsim {

// Zero-copy receive policy (the SINIC paper §3.3, §6 Figs 10/11).
enum class ZeroCopyPolicy : std::uint8_t { Off = 0, Aggressive = 1, Conservative = 2 };

struct HostCpuConfig {
  std::int64_t ghz = 4;  // Table 1: 2 or 4 GHz
  // Per-packet and per-call costs in CPU cycles (chosen; the paper gives none).
  std::int64_t stack_rx_cycles = 0;       // TCP/IP receive of one data segment
  std::int64_t stack_tx_cycles = 0;       // TCP/IP output of one segment
  std::int64_t stack_ack_rx_cycles = 0;   // TCP/IP receive of one ACK
  std::int64_t stack_ack_tx_cycles = 0;   // build one ACK / window update
  std::int64_t syscall_cycles = 0;        // enter and leave one send()/recv()
  std::int64_t user_cycles = 0;           // netperf's own work per call
  std::int64_t isr_cycles = 0;            // enter and leave the interrupt handler
  std::int64_t copy_bytes_per_cycle = 0;  // cache-to-cache copy rate
};

struct L2Config {
  std::int64_t bytes = 0;          // Table 1: size varies (256 KB to 16 MB here)
  std::int64_t hot_bytes = 0;      // kernel, netperf and user buffers that stay resident (chosen)
  Time memory_latency = 0;         // Table 1: 50 ns main memory
  std::int64_t copy_mlp_x100 = 0;  // misses a copy loop overlaps, × 100 (chosen)
  std::int64_t line_bytes = 64;    // Table 1: 64-byte blocks
};

struct CnicConfig {
  std::int64_t rx_cycles = 0;       // driver: one received descriptor (unmap, sk_buff, refill)
  std::int64_t tx_cycles = 0;       // driver: build and post one packet's descriptors
  std::int64_t reclaim_cycles = 0;  // driver: reclaim one sent packet's descriptors and buffers
  Time interrupt_interval = 0;      // §5.1: at most one interrupt per 10 µs
  Time pio_read_off_chip = 0;       // §2.2: uncached register reads across the I/O bridge
  Time pio_write_off_chip = 0;      // a register write (interrupt mask, doorbell)
  Time register_on_chip = 0;        // an on-die register access
  Time dma_latency_off_chip = 0;    // PCI-Express-like link + I/O bridge, per DMA
  std::int64_t ring_entries = 0;    // descriptors per ring
};

struct SinicDeviceConfig {
  std::int64_t rx_fifo_bytes = 0;        // §6: 512 KB
  std::int64_t tx_fifo_bytes = 0;        // nic_facts §1.1: 512 KB
  std::int64_t fifo_bytes_per_vnic = 0;  // 0 = rx_fifo_bytes; else the FIFO is vnics × this (§6)
  std::int64_t vnics = 0;                // §6: 256 (V-SINIC; SINIC has one register set)
  ZeroCopyPolicy zero_copy = ZeroCopyPolicy::Off;
  std::int64_t zero_copy_bytes = 0;      // nic_facts §1.1: header bytes copied when deferring (64)
  std::int64_t high_mark_bytes = 0;      // conservative: no zero-copy above this ...
  std::int64_t low_mark_bytes = 0;       // ... until the FIFO drains below this (nic_facts §1.4)
  std::int64_t rx_cycles = 0;            // SINIC driver: one received packet
  std::int64_t tx_cycles = 0;            // SINIC driver: one transmitted packet
  std::int64_t vsinic_extra_cycles = 0;  // §3.2 footnote 3: V-SINIC driver overhead
  Time copy_setup = 0;                   // copy engine start-up per copy
  std::int64_t zero_copy_setup_cycles = 0;  // §3.3: VA→PA and RxData for a FIFO→user copy
  bool blocking_wait = true;                // §3.1 RxWait/TxWait block; false = poll RxDone/TxDone
  Time poll_interval = 0;                   // non-blocking: one RxDone/TxDone read per this
};

// The netperf TCP workload (the SINIC paper §5.2): stream (the host sends), maerts (it receives).
struct TcpStreamConfig {
  std::int64_t mtu = 1500;
  std::int64_t mss = 1448;         // 1500 − 20 IP − 20 TCP − 12 timestamps
  std::int64_t socket_buffer = 0;  // SO_RCVBUF / SO_SNDBUF
  std::int64_t message_bytes = 0;  // send()/recv() size
  std::int64_t connections = 1;
  Time read_delay = 0;  // slow reader: data ready → read() (mean, uniform 0..2×)
};

struct SinicSystemConfig {
  HostCpuConfig cpu;
  L2Config l2;
  CnicConfig cnic;
  SinicDeviceConfig sinic;
  TcpStreamConfig tcp;
};

}  // namespace nicsim
