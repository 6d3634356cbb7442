// The parameter registry: every tunable of the model, with its path in a scenario file, type,
// allowed range, default, unit and where the value comes from (a paper, or "chosen" and why).
// The validator, the CLI's --set, sweeps and the UI's parameter table all read this one list.
#pragma once
#include <string>
#include <vector>

#include "scenario/config.hpp"
#include "scenario/json.hpp"
#include "sim/status.hpp"

namespace nicsim {

enum class ParamType { Integer, Number, Choice };

struct ParamSpec {
  const char* path;
  ParamType type;
  double min;
  double max;
  std::vector<Json> choices;  // ParamType::Choice
  Json def;
  const char* unit;
  const char* origin;  // "the thesis §…" / "nic_facts §…" / "chosen: why"
  const char* description;
  void (*set)(Config&, const Json&);
  Json (*get)(const Config&);
};

const std::vector<ParamSpec>& parameter_registry();

// Rules on a parameter's values between min and max, published (parameter_info_json) so a
// slider offers only values the core accepts. Each check stays with the rule's owner (a
// validate() or check_*_config()); scenario_test.cpp proves each rule is exactly its check.
struct ValueRule {
  const char* path;
  bool power_of_two;  // cache sizes, line sizes, ways
  double step;        // when > 0: a whole multiple of step
  // A step set by another parameter: value x multiple_factor is a whole multiple of the value
  // at multiple_of (0 always allowed).
  const char* multiple_of;
  double multiple_factor;
};
const std::vector<ValueRule>& value_rules();
const ValueRule* value_rule(const std::string& path);

const ParamSpec* find_param(const std::string& path);

// Checks one value against its spec; returns "" when valid, else a message naming the range.
std::string check_param_value(const ParamSpec& spec, const Json& value);

// The registry as JSON (for the UI's parameter table and the CLI's --list-parameters).
Json parameter_info_json();

// sinic/sinic_params.cpp: the system.host_cpu / l2 / cnic / sinic and workload.tcp
// parameters, and the cross-field rules of a tcp-stream run.
void add_sinic_params(std::vector<ParamSpec>& r);
void check_sinic_config(const Config& c, const std::string& where, Errors* errors);
// offload/offload_params.cpp: the TCP offload paper's parameters (system.offload, workload.http)
// and the cross-field rules of a tcp-offload run.
void add_offload_params(std::vector<ParamSpec>& r);
void check_offload_config(const Config& c, const std::string& where, Errors* errors);
// eta/eta_params.cpp: the system.eta and workload.eta parameters of workload.kind eta-aio.
void add_eta_params(std::vector<ParamSpec>& r);
void check_eta_config(const Config& c, const std::string& where, Errors* errors);
// protocache/protocache_params.cpp: workload.kind "protocol-cache" (seed 002).
void add_protocache_params(std::vector<ParamSpec>& r);
void check_protocache_config(const Config& c, const std::string& where, Errors* errors);
bool nic_model_from_name(const std::string& name, NicModel* out);
const char* nic_model_name(NicModel m);

// "SendDataReady" → "send_data_ready" (the Tigon's per-event and per-path parameter names).
std::string snake_case(const char* camel);

// "system.bus.clock_mhz" → {"system", "bus", "clock_mhz"}.
std::vector<std::string> split_path(const std::string& path);

// The effective parameters of a config, nested by path.
Json effective_parameters(const Config& config);

}  // namespace nicsim
