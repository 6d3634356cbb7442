// Which parameters were fitted to published values, and to which reference checks. A check is
// named "<preset id>#<reference id>" (scenarios/<preset id>.json, its reference entry). A check
// some fitted parameter names is "fitted": its agreement was bought by the fit and shows only
// that the fit holds. Every other check is "predicted": the model had no say in its value. The
// list is part of the parameter registry's metadata (params.hpp), kept here in one table so a
// reader sees every fit at once; --list-parameters and the app read it as "fitted_to".
#pragma once
#include <string>
#include <vector>

namespace nicsim {

struct ParameterFit {
  // A registry path, or a prefix ending in '.' for a family fitted together (the Tigon's
  // per-path instruction counts).
  const char* path;
  std::vector<const char*> checks;  // "<preset id>#<reference id>"
};

const std::vector<ParameterFit>& parameter_fits();

// The checks the parameter at `path` was fitted to (empty: not fitted).
std::vector<std::string> fitted_to(const std::string& path);

// "fitted" when some parameter's fitted_to names "<scenario_id>#<reference_id>", else
// "predicted".
const char* check_basis(const std::string& scenario_id, const std::string& reference_id);

}  // namespace nicsim
