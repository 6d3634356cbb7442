// The command line's conventions: --help and --version exit 0, every option described; unknown
// options, unwritable output paths and bad request files exit 2 with a message, before any run.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace {

struct Cli {
  int status = -1;
  std::string out;  // standard output and standard error, in order
};

// Runs the CLI (built next to the tests) with `args`, a shell-quoted string.
Cli cli(const std::string& args) {
  Cli r;
  const std::string cmd = std::string(NICSIM_CLI) + " " + args + " 2>&1";
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

std::string scenario(const std::string& id) {
  return std::string(NICSIM_SCENARIOS_DIR) + "/" + id + ".json";
}

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(Cli, HelpExitsZeroAndDescribesEveryOption) {
  for (const char* flag : {"--help", "-h"}) {
    const Cli r = cli(flag);
    EXPECT_EQ(r.status, 0) << r.out;
    for (const char* option :
         {"--set", "--format", "--trace", "--log", "--requests", "--workers", "--validate",
          "--list-parameters", "--schema", "--limits", "--help", "--version", "Exit status"})
      EXPECT_NE(r.out.find(option), std::string::npos) << option;
  }
}

TEST(Cli, VersionExitsZero) {
  const Cli r = cli("--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("nicsim 0.1.0", 0), 0u) << r.out;
  // The same version as the package.
  const std::string pkg =
      nicsim::testing::read_file(std::string(NICSIM_SCENARIOS_DIR) + "/../package.json");
  EXPECT_NE(pkg.find("\"version\": \"0.1.0\""), std::string::npos);
}

TEST(Cli, UnknownOptionsAreErrorsWhereverTheyStand) {
  for (const std::string& args :
       std::vector<std::string>{"--bogus", "--list-parameters --bogus", "--schema --bogus",
                                "--bogus --help", scenario("udp-throughput") + " --bogus",
                                "--validate " + scenario("udp-throughput") + " -x"}) {
    const Cli r = cli(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_NE(r.out.find("error: unknown option"), std::string::npos) << args << ": " << r.out;
  }
  EXPECT_EQ(cli("--list-parameters " + scenario("udp-throughput")).status, 2);
  EXPECT_EQ(cli("--limits").status, 0);
  EXPECT_EQ(cli("").status, 2);
}

TEST(Cli, AnUnwritableTracePathFailsBeforeTheRun) {
  const auto start = std::chrono::steady_clock::now();
  // web-sendfile-vs-write runs for many seconds: the check must come first.
  Cli r = cli(scenario("web-sendfile-vs-write") + " --trace /nonexistent-dir/trace.bin");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("--trace /nonexistent-dir/trace.bin: cannot write"), std::string::npos)
      << r.out;
  EXPECT_LT(s, 3.0);
  r = cli(scenario("udp-throughput") + " --trace " + ::testing::TempDir());
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("is a directory"), std::string::npos) << r.out;
}

TEST(Cli, AFailedRunLeavesNoTraceFileBehind) {
  const std::string path = ::testing::TempDir() + "nicsim-cli-no-trace.bin";
  std::remove(path.c_str());
  const Cli r = cli(scenario("udp-throughput") + " --set run.duration_us=-1 --trace " + path);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_FALSE(std::ifstream(path).good());
}

TEST(Cli, DeepSetValuesAndTooManySetsAreRefused) {
  const std::string deep = std::string(2000, '[') + std::string(2000, ']');
  Cli r = cli("--validate " + scenario("udp-throughput") +
              " --set 'workload.datagram_bytes=" + deep + "'");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("deeper than 64 levels"), std::string::npos) << r.out;
  std::string many;
  for (int i = 0; i < 257; ++i) many += " --set workload.datagram_bytes=18";
  r = cli("--validate " + scenario("udp-throughput") + many);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("more than 256 --set options"), std::string::npos) << r.out;
}

// --workers takes 1 to 64 and says so; any count gives the same output (run_split_test.cpp
// proves it on every preset through the API).
TEST(Cli, WorkersAreBoundedAndChangeNoOutput) {
  const std::string udp = scenario("udp-throughput") +
                          " --set run.duration_us=2000 --set run.warmup_us=1000"
                          " --set run.trace.start_us=1000 --set run.trace.end_us=1010";
  for (const char* bad : {"0", "65", "-1", "2.5", "two", "999999999999", ""}) {
    const Cli r = cli(udp + " --workers '" + bad + "'");
    EXPECT_EQ(r.status, 2) << bad << ": " << r.out;
    EXPECT_NE(r.out.find("--workers must be a whole number from 1 to 64"), std::string::npos)
        << bad << ": " << r.out;
  }
  const Cli one = cli(udp + " --workers 1");
  ASSERT_EQ(one.status, 0) << one.out.substr(0, 300);
  EXPECT_EQ(cli(udp + " --workers 64").out, one.out);
  EXPECT_EQ(cli(udp).out, one.out);
}

TEST(Cli, RequestFilesAreBounded) {
  const std::string web = scenario("web-access-log");
  Cli r = cli(web + " --requests " + temp_file("nicsim-req-id.txt", "0 1000\n4294967295 10\n"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("nicsim-req-id.txt:2: file id 4294967295 is out of range"),
            std::string::npos)
      << r.out;
  r = cli(web + " --requests " + temp_file("nicsim-req-bytes.txt", "# big\n0 4294967295\n"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find(":2: 4294967295 bytes is out of range"), std::string::npos) << r.out;
  r = cli(web + " --requests " + temp_file("nicsim-req-line.txt", std::string(10000, '1')));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find(":1: longer than 8192 bytes"), std::string::npos) << r.out;
  r = cli(web + " --requests " + temp_file("nicsim-req-ok.txt", "0 1000\n1 5000\n0 1000\n"));
  EXPECT_EQ(r.status, 0) << r.out.substr(0, 500);
}

}  // namespace
