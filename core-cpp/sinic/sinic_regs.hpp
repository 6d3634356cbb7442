// The driver's register accesses as the trace records them (NicRegister, VnicState): register
// names of the SINIC paper Fig 3 and the 64-bit values laid out as gem5's sinicreg.hh (nic_facts
// §1.3), so a view can show RxDone's bits as the driver reads them. Only the fields the model keeps
// are set; the model has no buffer addresses, so RxData/TxData carry Addr 0.
#pragma once
#include <cstdint>

#include "sinic/sinic_device.hpp"

namespace nicsim {

// Trace field a of NicRegister.
enum class NicReg : std::uint32_t {
  RxData = 0,
  RxDone = 1,
  RxWait = 2,
  TxData = 3,
  TxDone = 4,
  TxWait = 5,
  IntrStatus = 6,
  IntrMask = 7,
  Doorbell = 8,  // the CNIC's transmit doorbell (§2.2 transmit step 3)
};

// Trace field b of NicRegister for a device-wide access (no VNIC).
constexpr std::uint32_t kAnyVnic = 0xffff;

// Trace field b of VnicState (a receive VNIC's state, §3.2; nic_facts §1.4).
enum class VnicRx : std::uint32_t {
  Free = 0,      // no packet bound, no copy outstanding
  Posted = 1,    // RxData written: waits for a packet or the copy engine
  Copying = 2,   // the copy engine moves this VNIC's bytes
  Deferred = 3,  // the header is copied; the payload waits in the FIFO bound to this VNIC
  Done = 4,      // the last copy completed (RxDone Complete); the VNIC is free again
};

namespace sinic_bits {
// Interrupt causes (nic_facts §1.3).
constexpr std::uint64_t kIntrRxPacket = 1u << 0;
// IntrMask after reset: Soft | RxHigh | RxPacket | TxLow.
constexpr std::uint64_t kIntrMaskReset = (1u << 8) | (1u << 7) | (1u << 3) | (1u << 0);

inline std::uint64_t field(bool on, int bit) { return on ? (std::uint64_t{1} << bit) : 0; }
inline std::uint64_t len_field(std::int64_t len) {
  return (static_cast<std::uint64_t>(len) & 0xfffff) << 40;  // bits 59..40
}

// RxDone / RxWait: Packets 47..32, Busy 31, Complete 30, More 29, Empty 28, NotHigh 26,
// TcpError 25, IpError 23, TcpPacket 22, IpPacket 20, CopyLen 19..0.
inline std::uint64_t rx_done(const RxDoneReg& r) {
  return (static_cast<std::uint64_t>(r.packets & 0xffff) << 32) | field(r.busy, 31) |
         field(r.complete, 30) | field(r.more, 29) | field(r.empty, 28) | field(r.not_high, 26) |
         field(r.tcp_error, 25) | field(r.ip_error, 23) | field(r.tcp, 22) | field(r.ip, 20) |
         (r.copy_len & 0xfffff);
}
// TxDone / TxWait: Packets 47..32, Busy 31, Complete 30, Full 29, CopyLen 19..0.
inline std::uint64_t tx_done(const TxDoneReg& r) {
  return (static_cast<std::uint64_t>(r.packets & 0xffff) << 32) | field(r.busy, 31) |
         field(r.complete, 30) | field(r.full, 29) | (r.copy_len & 0xfffff);
}
// RxData: NoDelay 61, Len 59..40, Addr 39..0.
inline std::uint64_t rx_data(std::int64_t len, bool no_delay) {
  return field(no_delay, 61) | len_field(len);
}
// TxData: More 63, Checksum 62, Len 59..40, Addr 39..0.
inline std::uint64_t tx_data(std::int64_t len, bool more, bool csum) {
  return field(more, 63) | field(csum, 62) | len_field(len);
}
}  // namespace sinic_bits

}  // namespace nicsim
