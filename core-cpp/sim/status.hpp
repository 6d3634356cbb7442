// Errors are values: the core is built without C++ exceptions.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace nicsim {

struct Error {
  std::string path;     // the field the error is about ("" for the whole input)
  std::string message;  // names the allowed values or range where there is one
};

using Errors = std::vector<Error>;

class Status {
 public:
  Status() = default;
  static Status ok() { return Status(); }
  static Status fail(std::string message) {
    Status s;
    s.failed_ = true;
    s.message_ = std::move(message);
    return s;
  }
  bool is_ok() const { return !failed_; }
  const std::string& message() const { return message_; }

 private:
  bool failed_ = false;
  std::string message_;
};

}  // namespace nicsim
