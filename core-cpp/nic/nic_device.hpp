// What the rest of the system sees of a NIC, whichever model is inside: mailbox and register
// ports for the driver, a DMA client on the bus, an endpoint on the wire, an interrupt line.
#pragma once
#include <cstdint>

#include "host/host_bridge.hpp"
#include "link/ethernet_link.hpp"
#include "nic/dma_engine.hpp"
#include "nic/tally.hpp"

namespace nicsim {

class NicDevice : public MailboxTarget, public DmaClient, public LinkEndpoint {
 public:
  virtual ~NicDevice() = default;
  virtual void attach_interrupt(InterruptLine* irq) = 0;
  virtual void attach_tx_link(LinkDirection* tx) = 0;
  virtual std::int64_t tx_buffer_used() const = 0;
  virtual std::int64_t rx_buffer_used() const = 0;
  virtual const DmaEngine& dma() const = 0;
};

}  // namespace nicsim
