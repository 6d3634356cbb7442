// Which metrics a run of a configuration reports: a model reports only its own (no other
// model's metric as 0), so a scenario's reference may name only those.
#pragma once
#include <string>

#include "scenario/config.hpp"

namespace nicsim {

bool model_reports(const Config& cfg, const std::string& metric);

}  // namespace nicsim
