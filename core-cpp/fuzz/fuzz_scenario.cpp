// Fuzz target: a scenario file, as the command line and the browser read it. validate() must
// answer (errors or none) for any bytes; a valid scenario runs, its work capped (bounded_run).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/bounded_run.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  nicsim::fuzz::validate_and_run(text, nicsim::Json::object());
  return 0;
}
