// Fuzz target: the command line's --set overrides. The input is a preset id on the first line
// (an unknown one picks a preset from its bytes), then one `path=value` per line; each becomes
// an override the way cli/main.cpp reads --set (its count, length and depth limits, then a JSON
// value, else the text as a string). Keep the two in step.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/bounded_run.hpp"
#include "scenario/limits.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using nicsim::Json;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto& presets = nicsim::fuzz::presets();
  if (presets.empty()) return 0;
  std::size_t eol = text.find('\n');
  const std::string id = text.substr(0, eol);
  const nicsim::fuzz::Preset* preset = nullptr;
  for (const auto& p : presets)
    if (p.id == id) preset = &p;
  if (preset == nullptr) {
    std::size_t h = 0;
    for (const unsigned char c : id) h = h * 31 + c;
    preset = &presets[h % presets.size()];
  }
  Json overrides = Json::object();
  std::uint32_t sets = 0;
  while (eol != std::string::npos && sets++ < nicsim::kMaxSetOptions) {
    const std::size_t start = eol + 1;
    eol = text.find('\n', start);
    const std::string arg = text.substr(start, eol == std::string::npos ? eol : eol - start);
    // What the CLI refuses with a usage error is skipped.
    if (arg.size() > nicsim::kMaxStringBytes) continue;
    const auto eq = arg.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    const std::string value = arg.substr(eq + 1);
    std::string where;
    if (!nicsim::json_depth_within(value, nicsim::kMaxJsonDepth, &where)) continue;
    Json v = Json::parse(value, nullptr, false);
    overrides[arg.substr(0, eq)] = v.is_discarded() ? Json(value) : v;
  }
  nicsim::fuzz::validate_and_run(preset->text, overrides);
  return 0;
}
