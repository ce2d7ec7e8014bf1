// Writes the rank summaries of a directory of rank traces (what `ampprof analyze DIR --summary-only`
// writes) as a seed for the rank-summary fuzzer: tests/fuzz/run makes the traces with ampprof-synth.
//
//   make_summary_seed RANK_DIR OUT.summary.json

#include <fstream>
#include <iostream>

#include "reports/json/rank_summary_json.h"
#include "src/pipeline/job_analysis.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: make_summary_seed RANK_DIR OUT.summary.json\n";
    return 2;
  }
  auto analysis = ampprof::pipeline::AnalyzeJob({argv[1]}, {.jobs = 1});
  if (!analysis.ok()) {
    std::cerr << analysis.status().message() << "\n";
    return 1;
  }
  std::ofstream out(argv[2]);
  ampprof::reports::WriteRankSummaries(analysis->summaries, out, {.generator = "make_summary_seed"});
  return out.good() ? 0 : 1;
}
