// Runs a fuzz target once on each file given, or on each file of each directory given (not
// recursively): how the committed crashes (core-cpp/fuzz/crashes/<target>/) are replayed by
// ctest in a build without libFuzzer. A crash, a sanitizer report or an abort fails the test.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool is_dir(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

void list(const std::string& path, std::vector<std::string>* files) {
  if (!is_dir(path)) {
    files->push_back(path);
    return;
  }
  std::vector<std::string> found;
  if (DIR* dir = opendir(path.c_str())) {
    while (dirent* ent = readdir(dir)) {
      const std::string name = ent->d_name;
      // README and dotfiles describe the folder; they are not inputs.
      if (name.empty() || name[0] == '.' || name == "README.md") continue;
      if (!is_dir(path + "/" + name)) found.push_back(path + "/" + name);
    }
    closedir(dir);
  }
  std::sort(found.begin(), found.end());  // the same order on every machine
  files->insert(files->end(), found.begin(), found.end());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) list(argv[i], &files);
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "replay: cannot read %s\n", f.c_str());
      return 2;
    }
    std::stringstream buf;
    buf << in.rdbuf();
    const std::string bytes = buf.str();
    std::fprintf(stderr, "replay: %s (%zu bytes)\n", f.c_str(), bytes.size());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("replay: %zu input(s) ran without a crash\n", files.size());
  return 0;
}
