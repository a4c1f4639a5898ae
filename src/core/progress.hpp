// A one-line progress indicator on terminals; silent when stderr is a pipe or
// a file, so logs and --json output stay clean.
#pragma once
#include <string>

namespace tessera {

class Progress {
 public:
  Progress(std::string label, int total);
  ~Progress();
  void step(const std::string& what);

 private:
  std::string label_;
  int total_, done_ = 0;
  bool active_;
};

}  // namespace tessera
