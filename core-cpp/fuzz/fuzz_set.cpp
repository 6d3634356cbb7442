// Fuzz target: the command line's --set overrides. The input is a preset id on the first line
// (an unknown one picks a preset from its bytes), then one `path=value` per line; each becomes
// an override the way cli/main.cpp reads --set (a JSON value, else the text as a string).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/bounded_run.hpp"

namespace {

// chosen: more overrides than the registry has parameters add nothing but time.
constexpr int kMaxLines = 256;

}  // namespace

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
  int lines = 0;
  while (eol != std::string::npos && lines++ < kMaxLines) {
    const std::size_t start = eol + 1;
    eol = text.find('\n', start);
    const std::string arg = text.substr(start, eol == std::string::npos ? eol : eol - start);
    const auto eq = arg.find('=');
    if (eq == std::string::npos || eq == 0) continue;  // the CLI's usage error
    const std::string value = arg.substr(eq + 1);
    Json v = Json::parse(value, nullptr, false);
    overrides[arg.substr(0, eq)] = v.is_discarded() ? Json(value) : v;
  }
  nicsim::fuzz::validate_and_run(preset->text, overrides);
  return 0;
}
