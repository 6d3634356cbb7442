#include "sim/context.hpp"

namespace nicsim {

void SimContext::refused(Time when, EventHandler* target, std::uint32_t tag,
                         std::int32_t priority) {
  const Status s = queue.schedule(when, target, tag, priority);
  if (!s.is_ok()) fail(s.message());
}

}  // namespace nicsim
