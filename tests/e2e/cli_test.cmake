# End-to-end checks of the ampprof command line, as a user meets it: exit statuses, one-line errors
# that name the file, help on every command. Run by ctest as `e2e.cli`:
#   cmake -DAMPPROF=... -DSYNTH=... -DWORK_DIR=... -P cli_test.cmake

set(failures 0)

# expect(<description> EXIT <status> [STDOUT <regex>] [STDERR <regex>] [NOT_STDOUT <regex>] [NOT_STDERR <regex>]
#        [ONE_LINE_STDERR | EMPTY_STDERR] [INPUT_FILE <file>] COMMAND <args...>)
# A command that runs for more than 60 s fails (a hang, e.g. on a FIFO, is a failure, not a stuck test).
function(expect description)
  cmake_parse_arguments(A "ONE_LINE_STDERR;EMPTY_STDERR" "EXIT;STDOUT;STDERR;NOT_STDOUT;NOT_STDERR;INPUT_FILE" "COMMAND" ${ARGN})
  set(input "")
  if(DEFINED A_INPUT_FILE)
    set(input INPUT_FILE "${A_INPUT_FILE}")
  endif()
  execute_process(COMMAND ${A_COMMAND} ${input} TIMEOUT 60 RESULT_VARIABLE status OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  set(problems "")
  if(NOT status STREQUAL A_EXIT)
    string(APPEND problems "  exit status ${status}, expected ${A_EXIT}\n")
  endif()
  if(DEFINED A_STDOUT AND NOT out MATCHES "${A_STDOUT}")
    string(APPEND problems "  stdout does not match '${A_STDOUT}'\n")
  endif()
  if(DEFINED A_STDERR AND NOT err MATCHES "${A_STDERR}")
    string(APPEND problems "  stderr does not match '${A_STDERR}'\n")
  endif()
  if(DEFINED A_NOT_STDOUT AND out MATCHES "${A_NOT_STDOUT}")
    string(APPEND problems "  stdout matches '${A_NOT_STDOUT}'\n")
  endif()
  if(DEFINED A_NOT_STDERR AND err MATCHES "${A_NOT_STDERR}")
    string(APPEND problems "  stderr matches '${A_NOT_STDERR}'\n")
  endif()
  if(A_EMPTY_STDERR AND NOT err STREQUAL "")
    string(APPEND problems "  stderr is not empty\n")
  endif()
  if(A_ONE_LINE_STDERR)
    string(REGEX MATCHALL "\n" newlines "${err}")
    list(LENGTH newlines lines)
    if(NOT lines EQUAL 1)
      string(APPEND problems "  stderr has ${lines} lines, expected exactly one\n")
    endif()
  endif()
  if(problems)
    message("FAIL: ${description}\n  command: ${A_COMMAND}\n${problems}  stdout: ${out}\n  stderr: ${err}")
    math(EXPR n "${failures} + 1")
    set(failures ${n} PARENT_SCOPE)
  else()
    message("ok:   ${description}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(good "${WORK_DIR}/good.ampt")
execute_process(COMMAND "${SYNTH}" --kernels 3000 --output "${good}" RESULT_VARIABLE synth_status)
if(NOT synth_status EQUAL 0)
  message(FATAL_ERROR "ampprof-synth failed: ${synth_status}")
endif()
file(SIZE "${good}" good_size)
math(EXPR half "${good_size} / 2")
execute_process(COMMAND sh -c "head -c ${half} '${good}' > '${WORK_DIR}/truncated.ampt'")
execute_process(COMMAND sh -c "head -c 10 '${good}' > '${WORK_DIR}/header-only.ampt'")
execute_process(COMMAND sh -c "cp '${good}' '${WORK_DIR}/corrupt.ampt' && printf 'Z' | dd of='${WORK_DIR}/corrupt.ampt' bs=1 seek=${half} conv=notrunc 2>/dev/null")
file(WRITE "${WORK_DIR}/empty.ampt" "")
file(WRITE "${WORK_DIR}/notes.txt" "these are my notes, not a trace\n")

# Help and usage.
expect("top-level help" EXIT 0 STDOUT "analyze.*explain" COMMAND "${AMPPROF}" --help)
foreach(command run compare analyze export explain classify version)
  expect("${command} --help" EXIT 0 STDOUT "Usage|usage|USAGE|${command}" COMMAND "${AMPPROF}" ${command} --help)
endforeach()
expect("no command" EXIT 1 ONE_LINE_STDERR STDERR "a command is required" COMMAND "${AMPPROF}")
expect("unknown flag" EXIT 1 ONE_LINE_STDERR STDERR "--bogus" COMMAND "${AMPPROF}" --bogus)
expect("unknown flag of a command" EXIT 1 ONE_LINE_STDERR STDERR "ampprof analyze --help"
       COMMAND "${AMPPROF}" analyze --bogus "${good}")
expect("unknown command" EXIT 1 ONE_LINE_STDERR COMMAND "${AMPPROF}" frobnicate)
expect("bad log level" EXIT 1 ONE_LINE_STDERR STDERR "verbose" COMMAND "${AMPPROF}" --log-level verbose version)

# The conventions of git and friends: --version, help CMD, "did you mean", "--" before a workload, help
# pages in words rather than the parser's internals.
expect("--version is the version command" EXIT 0 EMPTY_STDERR STDOUT "^ampprof [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit "
       COMMAND "${AMPPROF}" --version)
expect("help CMD is CMD --help" EXIT 0 EMPTY_STDERR STDOUT "^Read traces[^\n]*\nUsage: ampprof analyze \\[FLAGS\\] TRACE\\.\\.\\.\n"
       COMMAND "${AMPPROF}" help analyze)
expect("help alone is --help" EXIT 0 EMPTY_STDERR STDOUT "\nCommands:\n  run " COMMAND "${AMPPROF}" help)
expect("help on a mistyped command" EXIT 1 ONE_LINE_STDERR
       STDERR "^ampprof: no help on 'anlyze': it is not an ampprof command; did you mean 'analyze'\\?"
       COMMAND "${AMPPROF}" help anlyze)
expect("a mistyped command: did you mean" EXIT 1 ONE_LINE_STDERR
       STDERR "^ampprof: 'anlyze' is not an ampprof command; did you mean 'analyze'\\? \\(see 'ampprof --help'\\)\n$"
       COMMAND "${AMPPROF}" anlyze x)
expect("an unknown command: the list" EXIT 1 ONE_LINE_STDERR
       STDERR "'frobnicate' is not an ampprof command \\(run, compare, analyze, export, explain, classify or version\\)"
       COMMAND "${AMPPROF}" frobnicate)
expect("a mistyped flag: did you mean" EXIT 1 ONE_LINE_STDERR
       STDERR "^ampprof analyze: unknown flag '--verbos'; did you mean '--verbose'\\? \\(see 'ampprof analyze --help'\\)\n$"
       COMMAND "${AMPPROF}" analyze --verbos "${good}")
expect("a mistyped top-level flag: did you mean" EXIT 1 ONE_LINE_STDERR
       STDERR "unknown flag '--log-levl'; did you mean '--log-level'\\?" COMMAND "${AMPPROF}" --log-levl info version)
expect("a workload's flag without --: the command line that works" EXIT 1 ONE_LINE_STDERR
       STDERR "^ampprof run: '-c' is not a flag of run; if it is the workload's, put '--' before the workload: ampprof run -o out -- python3 -c 1 "
       COMMAND "${AMPPROF}" run -o out python3 -c 1)
expect("a missing argument by the name the help shows" EXIT 1 ONE_LINE_STDERR
       STDERR "^ampprof analyze: TRACE is required \\(see" COMMAND "${AMPPROF}" analyze)
expect("a flag without its value" EXIT 1 ONE_LINE_STDERR
       STDERR "^ampprof analyze: --baseline needs a value \\(FP32_TRACE\\) \\(see" COMMAND "${AMPPROF}" analyze "${good}" --baseline)
expect("run without a workload" EXIT 1 ONE_LINE_STDERR
       STDERR "^ampprof run: the workload to run is required, after '--': ampprof run \\[FLAGS\\] -- CMD ARGS\\.\\.\\." COMMAND "${AMPPROF}" run)
# CLI11's internals: a flag's default value ("{false}"), the validator's text ("TEXT:{...}"), "REQUIRED".
foreach(command run compare analyze export explain classify version)
  expect("${command} --help without the parser's internals" EXIT 0 STDOUT "^[^\n]+\nUsage: ampprof ${command} "
         NOT_STDOUT "{false}|{true}|TEXT|:{|=ampprof-out|=text|=60|REQUIRED|INT in|FLOAT|Positionals" COMMAND "${AMPPROF}" ${command} --help)
endforeach()
foreach(command explain version classify)
  expect("${command} --help does not repeat the other commands' exit statuses" EXIT 0 STDOUT "Exit status: 0 printed"
         NOT_STDOUT "--fail-on|workload" COMMAND "${AMPPROF}" ${command} --help)
endforeach()
expect("analyze --help: the format's name, its choices and the default in words" EXIT 0
       STDOUT "\n  --format FORMAT +The report's format: text: [^\n]*\\(default: text\\)\n" COMMAND "${AMPPROF}" analyze --help)
expect("run --help: the workload after --" EXIT 0 STDOUT "Usage: ampprof run \\[FLAGS\\] -- CMD ARGS\\.\\.\\.\n.*\n  --no-report  +Only record"
       COMMAND "${AMPPROF}" run --help)

# analyze: good, damaged and wrong inputs.
expect("analyze a trace: header, verdict, findings with their fix" EXIT 0
       STDOUT "^trace +[^\n]*good.ampt\n.*gpu +GPU 0: NVIDIA H100[^\n]*\n +[0-9,]+ kernels on 2 streams, busy [0-9.]+% of.*\n\nverdict +[0-9]+ findings? .*\nFindings\n  \\[critical\\] gpu.launch_bound: .*      saves: [0-9.]+% of the step.*      fix: Give the GPU more work per launch"
       COMMAND "${AMPPROF}" analyze "${good}")
expect("analyze --verbose adds the tables" EXIT 0
       STDOUT "busy +[0-9.]+% of.*Step account, GPU 0: [0-9]+ measured steps.*Top kernels by GPU time.*Steps: the first 32 of [0-9]+, from ProfilerStep ranges\n +step +start +duration\n"
       COMMAND "${AMPPROF}" analyze "${good}" --verbose)
expect("analyze is quiet on stderr by default" EXIT 0 EMPTY_STDERR COMMAND "${AMPPROF}" analyze "${good}" -o "${WORK_DIR}/quiet.txt")
expect("--log-level info tells what was read" EXIT 0 STDERR "info: built the model in"
       COMMAND "${AMPPROF}" analyze "${good}" --log-level info -o "${WORK_DIR}/info.txt")
expect("analyze to a file" EXIT 0 COMMAND "${AMPPROF}" analyze "${good}" -o "${WORK_DIR}/report.txt")
file(READ "${WORK_DIR}/report.txt" report)
if(NOT report MATCHES "GPU 0")
  message("FAIL: analyze -o wrote no report")
  math(EXPR failures "${failures} + 1")
endif()
expect("analyze a truncated trace" EXIT 0 STDOUT "ampt_truncated_tail" STDERR "records were lost"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/truncated.ampt")
expect("empty file" EXIT 2 ONE_LINE_STDERR STDERR "empty.ampt: file is empty"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/empty.ampt")
expect("header cut short" EXIT 2 ONE_LINE_STDERR STDERR "header-only.ampt: truncated .ampt file"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/header-only.ampt")
expect("corrupt file" EXIT 2 ONE_LINE_STDERR STDERR "corrupt.ampt: corrupt .ampt file: chunk at byte [0-9]+"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/corrupt.ampt")
expect("not a trace" EXIT 2 ONE_LINE_STDERR STDERR "notes.txt: not a trace ampprof can read"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/notes.txt")
expect("missing file" EXIT 2 ONE_LINE_STDERR STDERR "missing.ampt: no such file"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/missing.ampt")
file(MAKE_DIRECTORY "${WORK_DIR}/ranks" "${WORK_DIR}/nothing")
execute_process(COMMAND "${SYNTH}" --kernels 500 --output "${WORK_DIR}/ranks/trace_rank0.ampt")
execute_process(COMMAND "${SYNTH}" --kernels 500 --seed 2 --output "${WORK_DIR}/ranks/trace_rank1.ampt")
file(WRITE "${WORK_DIR}/ranks/README.txt" "not a trace")
# The README is no trace: named on stderr at the default log level, and the ranks are analysed.
set(readme_skipped "^ampprof: warning: skipping [^\n]*ranks/README.txt: not a trace ampprof can read")
# Two ranks of a job: one cross-rank report (docs/ranks.md); --per-rank adds each rank's own.
expect("a directory of ranks" EXIT 0 STDOUT "^Cross-rank report\n  2 ranks; .*\nRanks \\(per step\\)\n.*\n  0 .*\n  1 "
       ONE_LINE_STDERR STDERR "${readme_skipped}" COMMAND "${AMPPROF}" analyze "${WORK_DIR}/ranks")
expect("a directory of ranks, --per-rank" EXIT 0 STDOUT "^Cross-rank report\n.*== rank 0 \\(from the file name\\) =+\n.*== rank 1 "
       ONE_LINE_STDERR STDERR "${readme_skipped}" COMMAND "${AMPPROF}" analyze "${WORK_DIR}/ranks" --per-rank)
expect("--rank N of a job that has no rank N" EXIT 2 STDERR "--rank 7: no trace of that rank"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/ranks" --rank 7)
expect("a directory without traces" EXIT 2 ONE_LINE_STDERR STDERR "no trace files in this directory"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/nothing")
expect("unwritable report: the reason" EXIT 2 ONE_LINE_STDERR
       STDERR "^ampprof analyze: [^\n]*no/such/dir/report\\.txt: cannot write: No such file or directory\n$"
       COMMAND "${AMPPROF}" analyze "${good}" -o "${WORK_DIR}/no/such/dir/report.txt")
expect("no trace given" EXIT 1 ONE_LINE_STDERR COMMAND "${AMPPROF}" analyze)

# analyze's views and CI gating.
execute_process(COMMAND "${AMPPROF}" analyze "${good}" RESULT_VARIABLE status OUTPUT_VARIABLE piped)
string(ASCII 27 escape)
if(piped MATCHES "${escape}")
  message("FAIL: colour codes in a report that goes to a pipe")
  math(EXPR failures "${failures} + 1")
endif()
expect("analyze --format json" EXIT 0 EMPTY_STDERR
       STDOUT "^{\n  \"schema_version\": 2,\n  \"generator\": \"ampprof [0-9.]+\",\n  \"reports\": .\n.*\"id\": \"gpu.launch_bound\",\n *\"severity\": \"critical\".*\"saving_ns\": [0-9]+,\n *\"saving_fraction\": 0\\.[0-9]+"
       COMMAND "${AMPPROF}" analyze "${good}" --format json)
expect("analyze --format json -o FILE" EXIT 0 ONE_LINE_STDERR STDERR "${readme_skipped}"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/ranks" "${good}" --per-rank --format json -o "${WORK_DIR}/report.json")
file(READ "${WORK_DIR}/report.json" json)
string(JSON schema ERROR_VARIABLE json_error_message GET "${json}" schema_version)
string(JSON report_count ERROR_VARIABLE json_error_message LENGTH "${json}" reports)
string(JSON first_rank ERROR_VARIABLE json_error_message GET "${json}" reports 0 rank)
string(JSON worst ERROR_VARIABLE json_error_message GET "${json}" reports 2 verdict worst_severity)
string(JSON job_ranks ERROR_VARIABLE json_error_message GET "${json}" job ranks)
if(NOT json_error_message STREQUAL "NOTFOUND" OR NOT schema EQUAL 2 OR NOT report_count EQUAL 3 OR NOT first_rank EQUAL 0
   OR NOT worst STREQUAL "critical" OR NOT job_ranks EQUAL 2)
  message("FAIL: the JSON report does not read back: ${json_error_message}; ${report_count} reports, first rank "
          "${first_rank}, worst severity ${worst}")
  math(EXPR failures "${failures} + 1")
else()
  message("ok:   the JSON report reads back (the job of 2 ranks, 3 reports, ranks first, worst severity critical)")
endif()
expect("analyze --format md" EXIT 0 EMPTY_STDERR
       STDOUT "^### ampprof: pid 4242\n\n\\*\\*2 findings \\(1 critical, 1 info\\): start with gpu.launch\\\\_bound.*\n\\| severity \\| finding \\| what ampprof measured \\| saves \\| fix \\|\n"
       COMMAND "${AMPPROF}" analyze "${good}" --format md)
expect("analyze checks --format" EXIT 1 ONE_LINE_STDERR STDERR "--format" COMMAND "${AMPPROF}" analyze "${good}" --format pdf)
expect("--fail-on warning fails on a warning, after the report" EXIT 4 ONE_LINE_STDERR
       STDOUT "verdict" STDERR "ampprof analyze: 1 finding at warning or above \\(--fail-on warning\\)"
       COMMAND "${AMPPROF}" analyze "${good}" --fail-on warning)
expect("--fail-on critical fails on a critical finding" EXIT 4 ONE_LINE_STDERR
       STDERR "ampprof analyze: 1 finding at critical or above \\(--fail-on critical\\)"
       COMMAND "${AMPPROF}" analyze "${good}" --fail-on critical --format json -o "${WORK_DIR}/gate.json")
# A wider model (32 layers) keeps the GPU busier: its launch waits are a warning, not critical.
execute_process(COMMAND "${SYNTH}" --kernels 3000 --layers 32 --output "${WORK_DIR}/wide.ampt")
expect("--fail-on critical passes without a critical finding" EXIT 0 EMPTY_STDERR
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/wide.ampt" --fail-on critical --format json -o "${WORK_DIR}/gate.json")
expect("--fail-on writes the report file before failing" EXIT 4
       COMMAND "${AMPPROF}" analyze "${good}" --fail-on warning -o "${WORK_DIR}/gated.txt")
if(NOT EXISTS "${WORK_DIR}/gated.txt")
  message("FAIL: --fail-on left no report file")
  math(EXPR failures "${failures} + 1")
endif()
# A trace with no kernels is nothing to diagnose: said in the verdict, and not a pass for a CI gate.
file(WRITE "${WORK_DIR}/no_kernels.json"
     "{\"schemaVersion\": 1, \"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", "
     "\"pid\": 1, \"tid\": 1, \"ts\": 10, \"dur\": 5}]}")
expect("a trace without kernels has nothing to diagnose" EXIT 0
       STDOUT "verdict +nothing to diagnose: the trace holds no GPU kernels\n"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/no_kernels.json")
expect("--fail-on fails when there is nothing to diagnose" EXIT 4 ONE_LINE_STDERR
       STDERR "ampprof analyze: 1 of 1 trace had nothing to diagnose \\(--fail-on critical\\)"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/no_kernels.json" --fail-on critical)
expect("--fail-on checks its level" EXIT 1 ONE_LINE_STDERR STDERR "--fail-on"
       COMMAND "${AMPPROF}" analyze "${good}" --fail-on info)
expect("no progress bar when stderr is not a terminal" EXIT 0 ONE_LINE_STDERR STDERR "${readme_skipped}"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/ranks" -o "${WORK_DIR}/ranks.txt")

# analyze --baseline: the AMP trace against the same synthetic loop in FP32.
set(fp32 "${WORK_DIR}/fp32.ampt")
execute_process(COMMAND "${SYNTH}" --kernels 3000 --precision fp32 --output "${fp32}" RESULT_VARIABLE synth_status)
if(NOT synth_status EQUAL 0)
  message(FATAL_ERROR "ampprof-synth --precision fp32 failed: ${synth_status}")
endif()
expect("compare with an FP32 baseline" EXIT 0 EMPTY_STDERR
       STDOUT "FP32 vs mixed precision\n  FP32 +[^\n]*fp32.ampt \\(pid 4242\\)\n +median step [0-9.]+ [mu]s over [0-9]+ steps.*speed-up +[0-9]\\.[0-9][0-9]x.*per step +FP32 +AMP +change +explained by\n.*GEMM on CUDA cores.*cast .*amp.cast_overhead.*GPU time per step"
       COMMAND "${AMPPROF}" analyze "${good}" --baseline "${fp32}")
expect("an AMP trace against itself states no speed-up" EXIT 0
       STDOUT "verdict +both runs are mixed precision: no FP32 baseline to compare with.*note +both runs are mixed precision"
       COMMAND "${AMPPROF}" analyze "${good}" --baseline "${good}")
expect("two FP32 traces state no speed-up" EXIT 0
       STDOUT "verdict +both runs are FP32: no mixed-precision speed-up to state.*note +both runs are FP32"
       COMMAND "${AMPPROF}" analyze "${fp32}" --baseline "${fp32}")
expect("arguments the wrong way round are compared the right way, and said so" EXIT 0
       STDOUT "FP32 +[^\n]*fp32.ampt.*note +the traces were given the wrong way round"
       COMMAND "${AMPPROF}" analyze "${fp32}" --baseline "${good}")
# Two runs that are not the same job: another GPU, world size and rank. A warning line in every format.
execute_process(COMMAND "${SYNTH}" --kernels 3000 --precision fp32 --format kineto --output "${WORK_DIR}/fp32_kineto.json")
execute_process(COMMAND "${SYNTH}" --kernels 3000 --format kineto --output "${WORK_DIR}/amp_kineto.json")
function(write_job_trace from to gpu rank world)
  file(READ "${from}" trace)
  string(REPLACE "NVIDIA H100 80GB HBM3 (synthetic)" "${gpu}" trace "${trace}")
  string(REPLACE "\"rank\": 0, \"world_size\": 1" "\"rank\": ${rank}, \"world_size\": ${world}" trace "${trace}")
  file(WRITE "${to}" "${trace}")
endfunction()
write_job_trace("${WORK_DIR}/fp32_kineto.json" "${WORK_DIR}/v100_rank1.json" "Tesla V100-SXM2-16GB" 1 2)
write_job_trace("${WORK_DIR}/amp_kineto.json" "${WORK_DIR}/a100_rank3.json" "NVIDIA A100-SXM4-40GB" 3 8)
foreach(format text json md)
  expect("--baseline of another job warns in ${format}" EXIT 0
         STDOUT "warning.*different GPUs: Tesla V100-SXM2-16GB \\(FP32\\).*different world sizes: 2 ranks.*different ranks: FP32 rank 1 of 2"
         COMMAND "${AMPPROF}" analyze "${WORK_DIR}/a100_rank3.json" --baseline "${WORK_DIR}/v100_rank1.json" --format ${format})
endforeach()
expect("--baseline of another job warns in HTML" EXIT 0
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/a100_rank3.json" --baseline "${WORK_DIR}/v100_rank1.json"
               --html "${WORK_DIR}/job.html")
file(READ "${WORK_DIR}/job.html" html)
if(NOT html MATCHES "<li>warning: different GPUs: Tesla V100-SXM2-16GB \\(FP32\\).*<li>warning: different ranks")
  message("FAIL: the HTML comparison has no warning lines")
  math(EXPR failures "${failures} + 1")
endif()
# Directories pair by rank; a rank only one run has is named.
file(MAKE_DIRECTORY "${WORK_DIR}/fp32_ranks" "${WORK_DIR}/amp_ranks")
foreach(rank 0 1)
  write_job_trace("${WORK_DIR}/fp32_kineto.json" "${WORK_DIR}/fp32_ranks/rank${rank}.json" "NVIDIA H100 80GB HBM3" ${rank} 3)
endforeach()
foreach(rank 0 1 2)
  write_job_trace("${WORK_DIR}/amp_kineto.json" "${WORK_DIR}/amp_ranks/rank${rank}.json" "NVIDIA H100 80GB HBM3" ${rank} 3)
endforeach()
expect("directories pair traces by rank and name the unpaired" EXIT 0
       STDOUT "> compared rank by rank: this is rank 0 of both runs; unpaired, so not compared: AMP rank\\(s\\) 2 \\(no FP32 trace\\)"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/amp_ranks" --baseline "${WORK_DIR}/fp32_ranks" --format md)
expect("ranks against one baseline" EXIT 0
       STDOUT "== rank 0 [^\n]*\n.*note +the runs do not have the same ranks \\(AMP: 0, 1; FP32: none\\)"
       COMMAND "${AMPPROF}" analyze "${WORK_DIR}/ranks" --baseline "${fp32}")
expect("an HTML report beside the text one" EXIT 0 EMPTY_STDERR STDOUT "FP32 vs mixed precision"
       COMMAND "${AMPPROF}" analyze "${good}" --baseline "${fp32}" --html "${WORK_DIR}/report.html")
file(READ "${WORK_DIR}/report.html" html)
if(NOT html MATCHES "^<!DOCTYPE html>.*id=\"r0-compare\".*id=\"r0-timeline-amp\".*</html>\n$")
  message("FAIL: analyze --html wrote no complete page with the comparison and the timeline")
  math(EXPR failures "${failures} + 1")
endif()
expect("--format html" EXIT 0 EMPTY_STDERR COMMAND "${AMPPROF}" analyze "${good}" --format html -o "${WORK_DIR}/format.html")
file(READ "${WORK_DIR}/format.html" html)
if(NOT html MATCHES "^<!DOCTYPE html>.*id=\"r0-timeline-amp\".*</html>\n$")
  message("FAIL: analyze --format html -o wrote no complete page")
  math(EXPR failures "${failures} + 1")
endif()
if(NOT html MATCHES "<title>ampprof: synthetic AMP training loop: 8 linear layers, autocast FP16\\.\\.\\.</title>")
  message("FAIL: the HTML page is not titled by its workload")
  math(EXPR failures "${failures} + 1")
else()
  message("ok:   the HTML page is titled by its workload")
endif()
expect("unwritable HTML report" EXIT 2 ONE_LINE_STDERR STDERR "no/such/dir/report.html: cannot write: No such file or directory"
       COMMAND "${AMPPROF}" analyze "${good}" --html "${WORK_DIR}/no/such/dir/report.html")
expect("missing baseline" EXIT 2 ONE_LINE_STDERR STDERR "ampprof analyze: baseline .*missing.ampt: no such file"
       COMMAND "${AMPPROF}" analyze "${good}" --baseline "${WORK_DIR}/missing.ampt")
expect("corrupt baseline" EXIT 2 ONE_LINE_STDERR STDERR "baseline .*corrupt.ampt: corrupt .ampt file"
       COMMAND "${AMPPROF}" analyze "${good}" --baseline "${WORK_DIR}/corrupt.ampt")
expect("baseline that is not a trace" EXIT 2 ONE_LINE_STDERR STDERR "baseline .*notes.txt: not a trace ampprof can read"
       COMMAND "${AMPPROF}" analyze "${good}" --baseline "${WORK_DIR}/notes.txt")
expect("--baseline needs a value" EXIT 1 ONE_LINE_STDERR COMMAND "${AMPPROF}" analyze "${good}" --baseline)
expect("truncated baseline" EXIT 0 STDERR "the baseline trace lost records"
       STDOUT "note +the FP32 trace lost records"
       COMMAND "${AMPPROF}" analyze "${good}" --baseline "${WORK_DIR}/truncated.ampt")

# Inputs and outputs (docs/reliability.md, "Inputs and outputs"): an output is never an input, a lost
# report is never exit status 0, a FIFO never hangs, a directory says what it skipped.
function(expect_unchanged description path sha256)
  set(now "")
  if(EXISTS "${path}")
    file(SHA256 "${path}" now)
  endif()
  if(NOT now STREQUAL sha256)
    message("FAIL: ${description}: ${path} was changed or removed")
    math(EXPR n "${failures} + 1")
    set(failures ${n} PARENT_SCOPE)
    file(COPY_FILE "${good}" "${path}")  # for the cases after this one
  else()
    message("ok:   ${description}: ${path} is untouched")
  endif()
endfunction()

set(io "${WORK_DIR}/io")
file(MAKE_DIRECTORY "${io}")
execute_process(COMMAND "${SYNTH}" --kernels 500 --seed 3 --format kineto --output "${io}/kineto.json")
file(COPY_FILE "${good}" "${io}/T.ampt")
file(SHA256 "${io}/T.ampt" trace_sha)
file(CREATE_LINK "T.ampt" "${io}/link.json" SYMBOLIC)
expect("export onto its own trace is refused" EXIT 2 ONE_LINE_STDERR
       STDERR "^ampprof export: [^\n]*T\\.ampt: is also an input \\([^\n]*T\\.ampt\\); write the output to another file\n$"
       COMMAND "${AMPPROF}" export --format chrome -o "${io}/T.ampt" "${io}/T.ampt")
expect_unchanged("export onto its own trace" "${io}/T.ampt" "${trace_sha}")
expect("export onto a link to its trace is refused" EXIT 2 ONE_LINE_STDERR STDERR "link\\.json: is also an input"
       COMMAND "${AMPPROF}" export --format chrome -o "${io}/link.json" "${io}/T.ampt")
expect_unchanged("export onto a link to its trace" "${io}/T.ampt" "${trace_sha}")
expect("analyze -o its own trace is refused" EXIT 2 ONE_LINE_STDERR STDERR "T\\.ampt: is also an input"
       COMMAND "${AMPPROF}" analyze "${io}/T.ampt" -o "${io}/T.ampt")
expect("analyze --html onto its baseline is refused" EXIT 2 ONE_LINE_STDERR STDERR "link\\.json: is also an input"
       COMMAND "${AMPPROF}" analyze "${good}" --baseline "${io}/T.ampt" --html "${io}/link.json")
expect_unchanged("analyze onto its trace or baseline" "${io}/T.ampt" "${trace_sha}")
expect("a report redirected onto its trace is refused" EXIT 2 ONE_LINE_STDERR
       STDERR "standard output: is also an input"
       COMMAND sh -c "'${AMPPROF}' analyze '${io}/T.ampt' >> '${io}/T.ampt'")
expect_unchanged("a report appended to its trace" "${io}/T.ampt" "${trace_sha}")
expect("--html and -o the same file are refused" EXIT 2 ONE_LINE_STDERR
       STDERR "x\\.html: --html and the report are the same file; give each its own"
       COMMAND "${AMPPROF}" analyze "${good}" --html "${io}/x.html" -o "${io}/./x.html")
if(EXISTS "${io}/x.html")
  message("FAIL: a refused analyze wrote ${io}/x.html")
  math(EXPR failures "${failures} + 1")
endif()

# Every write is checked, standard output included.
expect("a report to a full standard output is an error" EXIT 2 ONE_LINE_STDERR
       STDERR "^ampprof analyze: standard output: cannot write: No space left on device\n$"
       COMMAND sh -c "'${AMPPROF}' analyze '${good}' > /dev/full")
expect("a report to a full device is an error" EXIT 2 ONE_LINE_STDERR
       STDERR "/dev/full: cannot write: No space left on device"
       COMMAND "${AMPPROF}" analyze "${good}" --format json -o /dev/full)
expect("a closed standard output is an error" EXIT 2 ONE_LINE_STDERR
       STDERR "standard output: cannot write: Bad file descriptor"
       COMMAND sh -c "'${AMPPROF}' analyze '${good}' >&-")
expect("an export to a full device is an error" EXIT 2 ONE_LINE_STDERR
       STDERR "^ampprof export: /dev/full: cannot write: No space left on device\n$"
       COMMAND "${AMPPROF}" export --format chrome -o /dev/full "${good}")
expect("an export whose summary cannot be printed is an error" EXIT 2 ONE_LINE_STDERR
       STDERR "standard output: cannot write: No space left on device"
       COMMAND sh -c "'${AMPPROF}' export --format nvtxt -o '${io}/summary.nvtxt' '${good}' > /dev/full")
foreach(printing "explain" "explain gpu.launch_bound" "version" "classify volta_sgemm_128x64_nn")
  expect("${printing} to a full standard output is an error" EXIT 2 ONE_LINE_STDERR
         STDERR "^ampprof [a-z]+: standard output: cannot write: No space left on device\n$"
         COMMAND sh -c "'${AMPPROF}' ${printing} > /dev/full")
endforeach()
expect("explain to a closed standard output is an error" EXIT 2 ONE_LINE_STDERR
       STDERR "^ampprof explain: standard output: cannot write: Bad file descriptor\n$"
       COMMAND sh -c "'${AMPPROF}' explain >&-")
string(REPEAT "n" 300 long_name)
expect("an output name too long: the reason" EXIT 2 ONE_LINE_STDERR STDERR "cannot write: File name too long"
       COMMAND "${AMPPROF}" analyze "${good}" -o "${io}/${long_name}.txt")
expect("analyze -o /dev/null" EXIT 0 EMPTY_STDERR COMMAND "${AMPPROF}" analyze "${good}" -o /dev/null)

# "-": standard output for -o and --html, standard input for a trace.
execute_process(COMMAND "${AMPPROF}" export --format chrome -o - "${good}" WORKING_DIRECTORY "${io}"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT out MATCHES "^{\"displayTimeUnit\":\"ns\"" OR NOT err MATCHES "^wrote standard output: "
   OR EXISTS "${io}/-")
  message("FAIL: export -o - writes the trace to stdout and the summary to stderr (status ${status}, stderr ${err})")
  math(EXPR failures "${failures} + 1")
else()
  message("ok:   export -o - writes the trace to stdout and the summary to stderr, and no file named -")
endif()
expect("analyze - reads the trace from standard input" EXIT 0 EMPTY_STDERR
       STDOUT "^trace +standard input\nformat +ampprof trace, format 1\\.[0-9]+\n" INPUT_FILE "${good}"
       COMMAND "${AMPPROF}" analyze -)
expect("a JSON trace from standard input against a baseline" EXIT 0 STDOUT "FP32 vs mixed precision"
       INPUT_FILE "${io}/kineto.json" COMMAND "${AMPPROF}" analyze - --baseline "${fp32}")
expect("export - reads the trace from standard input" EXIT 0 STDOUT "^wrote [^\n]*from-stdin\\.nvtxt"
       INPUT_FILE "${good}" COMMAND "${AMPPROF}" export --format nvtxt -o "${io}/from-stdin.nvtxt" -)
expect("analyze - onto the file standard input comes from is refused" EXIT 2 ONE_LINE_STDERR
       STDERR "T\\.ampt: is also an input \\(standard input\\)" INPUT_FILE "${io}/T.ampt"
       COMMAND "${AMPPROF}" analyze - -o "${io}/T.ampt")
expect_unchanged("analyze - onto its standard input" "${io}/T.ampt" "${trace_sha}")
expect("an empty standard input" EXIT 2 ONE_LINE_STDERR STDERR "^ampprof analyze: standard input: file is empty\n$"
       INPUT_FILE "${WORK_DIR}/empty.ampt" COMMAND "${AMPPROF}" analyze -)
expect("html to standard output beside a report file" EXIT 0 EMPTY_STDERR STDOUT "^<!DOCTYPE html>"
       COMMAND "${AMPPROF}" analyze "${good}" --html - -o "${io}/beside.txt")

# A FIFO given as a trace blocked forever while its format was sniffed.
execute_process(COMMAND mkfifo "${io}/trace.fifo" RESULT_VARIABLE mkfifo_status)
if(mkfifo_status EQUAL 0)
  set(fifo_error "trace\\.fifo: is a named pipe \\(FIFO\\), not a trace file; ampprof reads traces from regular files")
  expect("a FIFO as a trace" EXIT 2 ONE_LINE_STDERR STDERR "^ampprof analyze: [^\n]*${fifo_error}"
         COMMAND "${AMPPROF}" analyze "${io}/trace.fifo")
  expect("a FIFO as the baseline" EXIT 2 ONE_LINE_STDERR STDERR "^ampprof analyze: baseline [^\n]*${fifo_error}"
         COMMAND "${AMPPROF}" analyze "${good}" --baseline "${io}/trace.fifo")
  expect("a FIFO to export" EXIT 2 ONE_LINE_STDERR STDERR "^ampprof export: [^\n]*${fifo_error}"
         COMMAND "${AMPPROF}" export --format chrome -o "${io}/fifo.json" "${io}/trace.fifo")
else()
  message("skip: FIFO cases (no mkfifo)")
endif()

# A directory: every skipped entry named on stderr with its reason, the analysis going on with the rest.
# (b_rank1.json says "rank 0 of 1", a single-GPU run: not a job, so one report per trace.)
set(mixed "${io}/mixed")
file(MAKE_DIRECTORY "${mixed}/subdirectory")
file(COPY_FILE "${WORK_DIR}/ranks/trace_rank0.ampt" "${mixed}/a_rank0.ampt")
string(ASCII 239 187 191 bom)
file(READ "${io}/kineto.json" kineto_json)
file(WRITE "${mixed}/b_rank1.json" "${bom}${kineto_json}")
file(WRITE "${mixed}/config.json" "{\"learning_rate\": 0.1}\n")
file(WRITE "${mixed}/empty.json" "")
file(CREATE_LINK "loop-b" "${mixed}/loop-a" SYMBOLIC)
file(CREATE_LINK "loop-a" "${mixed}/loop-b" SYMBOLIC)
file(CREATE_LINK "nowhere.ampt" "${mixed}/broken.ampt" SYMBOLIC)
execute_process(COMMAND mkfifo "${mixed}/z.fifo")
file(WRITE "${mixed}/report.html" "<!DOCTYPE html>")
set(skip "ampprof: warning: skipping [^\n]*mixed/")
expect("a directory skips what it cannot read, says why, and goes on" EXIT 0
       STDOUT "^== rank 0 [^\n]*\ntrace +[^\n]*a_rank0\\.ampt\n.*\n== rank [^\n]*\ntrace +[^\n]*b_rank1\\.json\n"
       STDERR "^${skip}broken\\.ampt: a broken symbolic link \\(what it points to does not exist\\)\n${skip}empty\\.json: file is empty\n${skip}loop-a: a loop of symbolic links\n${skip}loop-b: a loop of symbolic links\n${skip}subdirectory: a directory \\(not searched\\)\n${skip}z\\.fifo: a named pipe \\(FIFO\\), not a trace file\n${skip}config\\.json: JSON, but not a PyTorch profiler trace \\(no traceEvents\\)\n$"
       COMMAND "${AMPPROF}" analyze "${mixed}")
file(MAKE_DIRECTORY "${io}/configs")
file(WRITE "${io}/configs/config.json" "{\"learning_rate\": 0.1}\n")
expect("a directory with nothing readable" EXIT 2
       STDERR "skipping [^\n]*config\\.json: JSON, but not a PyTorch profiler trace[^\n]*\nampprof analyze: [^\n]*configs: no trace in this directory could be read \\(1 entry skipped, as said above\\)\n$"
       COMMAND "${AMPPROF}" analyze "${io}/configs")
expect("a stray file named by the user still fails" EXIT 2 ONE_LINE_STDERR STDERR "config\\.json: JSON, but not a PyTorch profiler trace"
       COMMAND "${AMPPROF}" analyze "${io}/configs/config.json")

# explain, version, and the commands this version cannot run.
expect("explain lists findings" EXIT 0 EMPTY_STDERR
       STDOUT "gpu.launch_bound +critical +GPU idles between kernels.*amp.double_optimizer_step +critical"
       COMMAND "${AMPPROF}" explain)
expect("explain one finding: title, sections, fix code" EXIT 0 EMPTY_STDERR
       STDOUT "^Convolutions spend time converting tensors between NCHW and NHWC layouts\n=+\n.*\nHow to fix it\n.*\n      model = model\\.to\\(memory_format=torch\\.channels_last\\)\n"
       COMMAND "${AMPPROF}" explain layout.nchw_nhwc)
expect("explain --format md prints the page as written" EXIT 0 EMPTY_STDERR
       STDOUT "^# GPU idles between kernels: the host cannot launch work fast enough\n.*## How to fix it\n.*```python\nmodel = torch\\.compile\\(model, mode=\"reduce-overhead\"\\)\n```"
       COMMAND "${AMPPROF}" explain gpu.launch_bound --format md)
expect("explain --format md without an id prints the index table" EXIT 0
       STDOUT "^\\| id \\| default severity \\| title \\|\n\\|---\\|---\\|---\\|\n\\| \\[`gpu.launch_bound`\\]\\(gpu.launch_bound.md\\) \\| critical \\|"
       COMMAND "${AMPPROF}" explain --format md)
expect("explain wraps prose to COLUMNS" EXIT 0 STDOUT "\n  Every CUDA kernel is launched from the CPU: Python, the\n"
       COMMAND ${CMAKE_COMMAND} -E env COLUMNS=60 "${AMPPROF}" explain gpu.launch_bound)
expect("explain an unknown id" EXIT 1 ONE_LINE_STDERR STDERR "unknown finding id 'gpu.nope' \\(run 'ampprof explain' for the list\\)"
       COMMAND "${AMPPROF}" explain gpu.nope)
expect("explain suggests the closest id" EXIT 1 ONE_LINE_STDERR
       STDERR "unknown finding id 'gpu.launchbound'; did you mean 'gpu.launch_bound'\\?"
       COMMAND "${AMPPROF}" explain gpu.launchbound)
expect("explain checks --format" EXIT 1 ONE_LINE_STDERR STDERR "--format" COMMAND "${AMPPROF}" explain gpu.sync_stall --format html)
expect("version" EXIT 0 STDOUT "ampprof [0-9]+\\.[0-9]+\\.[0-9]+.*\\.ampt 1\\.2" COMMAND "${AMPPROF}" version)

# ampprof run. Without a GPU no process initialises CUDA, so no trace is written: what is checked here is
# the launcher (environment, exit status, output directory, messages); tests/gpu checks the traces.
if(CUDA_ENABLED)
  set(runs "${WORK_DIR}/runs")
  expect("run a program that never touches CUDA" EXIT 0 STDERR "^ampprof run: no CUDA activity was recorded \\(no trace in .*runs/a\\)\\. Likely reasons:\n"
         COMMAND "${AMPPROF}" run -o "${runs}/a" -- true)
  expect("run exits with the workload's status, and says so" EXIT 7
         STDERR "^ampprof run: the workload exited with status 7; ampprof exits with the same status\n"
         COMMAND "${AMPPROF}" run -o "${runs}/b" -- sh -c "exit 7")
  expect("the no-trace explanation is whole sentences" EXIT 0
         STDERR "Likely reasons:\n  - .*\n  - [^\n]+\\.\n$" NOT_STDERR "needs\\)"
         COMMAND "${AMPPROF}" run -o "${runs}/b2" -- true)
  expect("a workload that crashed before writing a trace: said once, without contradiction" EXIT 139
         STDERR "^ampprof run: the workload was killed by signal 11 \\(SIGSEGV\\) before any CUDA activity was recorded \\(no trace in [^\n]*runs/b3\\)\n"
         NOT_STDERR "hold what was recorded|Likely reasons"
         COMMAND sh -c "\"$0\" run -o \"$1\" -- sh -c 'kill -SEGV $$' || exit $?" "${AMPPROF}" "${runs}/b3")
  # ampprof then dies of that signal itself; a shell reports that as 128 + the signal (fault_test.sh
  # checks the death itself).
  expect("run says which signal killed the workload" EXIT 137 STDERR "killed by signal 9 \\(SIGKILL\\)"
         COMMAND sh -c "\"$0\" run -o \"$1\" -- sh -c 'kill -9 $$' || exit $?" "${AMPPROF}" "${runs}/c")
  expect("run gives the workload the collector and its settings" EXIT 0
         COMMAND "${AMPPROF}" run -o "${runs}/d" --capture-range cudaProfilerApi --duration 2 --api-calls all --
                 sh -c "test \"$AMPPROF_API_CALLS\" = all && test -f \"$CUDA_INJECTION64_PATH\" && test -f \"$NVTX_INJECTION64_PATH\" && test \"$AMPPROF_OUTPUT_DIR\" = '${runs}/d' && test \"$AMPPROF_CAPTURE_RANGE\" = cudaProfilerApi && test \"$AMPPROF_DURATION_S\" = 2 && test \"$AMPPROF_SHIM\" = 1 && test -f \"$(echo \"$PYTHONPATH\" | cut -d: -f1)/sitecustomize.py\"")
  file(MAKE_DIRECTORY "${runs}/e")
  file(WRITE "${runs}/e/ampprof-pid1.ampt" "an earlier run")
  expect("run never mixes its traces with an earlier run's" EXIT 2 ONE_LINE_STDERR STDERR "pass --force to replace them"
         COMMAND "${AMPPROF}" run -o "${runs}/e" -- true)
  expect("run --force replaces them" EXIT 0 COMMAND "${AMPPROF}" run -o "${runs}/e" --force -- true)
  expect("run a program that does not exist" EXIT 127 ONE_LINE_STDERR STDERR "no-such-program"
         COMMAND "${AMPPROF}" run -o "${runs}/f" -- no-such-program-ampprof)
  expect("run under another CUDA tool records nothing and says so" EXIT 0
         STDERR "another CUDA tool is attached \\(CUDA_INJECTION64_PATH=/opt/other/libtool.so\\)"
         COMMAND ${CMAKE_COMMAND} -E env CUDA_INJECTION64_PATH=/opt/other/libtool.so
                 "${AMPPROF}" run -o "${runs}/g" -- sh -c "test \"$CUDA_INJECTION64_PATH\" = /opt/other/libtool.so")
  expect("run --delay needs the whole-run capture" EXIT 1 ONE_LINE_STDERR STDERR "--delay"
         COMMAND "${AMPPROF}" run -o "${runs}/h" --capture-range cudaProfilerApi --delay 1 -- true)
  expect("compare gives each run its precision, and fails when a run recorded nothing" EXIT 2 STDERR "FP32 run 1 of 1\n.*no CUDA activity was recorded"
         COMMAND "${AMPPROF}" compare -o "${runs}/cmp1" -- sh -c "test \"$AMPPROF_PRECISION:{precision}\" = fp32:fp32")
  expect("compare stops at a failing run with its status" EXIT 4 STDERR "the fp32 run exited with status 4; stopping"
         COMMAND "${AMPPROF}" compare -o "${runs}/cmp2" -- sh -c "exit 4")
  file(MAKE_DIRECTORY "${runs}/cmp3/amp-2")
  file(WRITE "${runs}/cmp3/amp-2/ampprof-pid1.ampt" "an earlier run")
  expect("compare checks every run's directory before the first" EXIT 2 ONE_LINE_STDERR STDERR "amp-2: holds 1 trace"
         COMMAND "${AMPPROF}" compare --runs 2 -o "${runs}/cmp3" -- sh -c "exit 5")
  # A process that "writes a trace" the way the collector does (into $AMPPROF_OUTPUT_DIR), so that
  # what run and compare do with the traces is checked without a GPU.
  expect("run analyzes the traces its processes wrote and writes the HTML page" EXIT 0
         STDOUT "gpu.launch_bound" STDERR "1 trace\\(s\\) in .*runs/i\nampprof run: HTML report: .*runs/i/report.html\n$"
         COMMAND "${AMPPROF}" run -o "${runs}/i" -- sh -c "cp '${good}' \"$AMPPROF_OUTPUT_DIR/ampprof-pid4242.ampt\"")
  if(NOT EXISTS "${runs}/i/report.html")
    message("FAIL: run wrote no report.html")
    math(EXPR failures "${failures} + 1")
  endif()
  # A file, not an inline command: CMake would split an inline one at its semicolons.
  set(fake_precision_run "${WORK_DIR}/fake_precision_run.sh")
  file(WRITE "${fake_precision_run}"
       "if [ \"$AMPPROF_PRECISION\" = fp32 ]; then cp '${fp32}' \"$AMPPROF_OUTPUT_DIR/ampprof-pid1.ampt\"\n"
       "else cp '${good}' \"$AMPPROF_OUTPUT_DIR/ampprof-pid2.ampt\"; fi\n")
  expect("compare reports FP32 against mixed precision" EXIT 0
         STDOUT "FP32 vs mixed precision\n  FP32 +[^\n]*fp32-1/ampprof-pid1.ampt.*speed-up +[0-9]\\.[0-9][0-9]x"
         STDERR "HTML report: .*cmp4/report.html"
         COMMAND "${AMPPROF}" compare -o "${runs}/cmp4" -- sh "${fake_precision_run}")
  expect("compare --runs shows every pair and the spread" EXIT 0
         STDOUT "^Runs: FP32 and mixed precision alternated, 2 pair\\(s\\)\n.*speed-up: median [0-9.]+x, from [0-9.]+x to [0-9.]+x over 2 pairs\n.*The report of pair [12], the median speed-up"
         COMMAND "${AMPPROF}" compare --runs 2 -o "${runs}/cmp5" -- sh "${fake_precision_run}")
else()
  expect("compare without a collector" EXIT 3 ONE_LINE_STDERR STDERR "CUPTI collector" COMMAND "${AMPPROF}" compare -- true)
  expect("run without a collector" EXIT 3 ONE_LINE_STDERR STDERR "CUPTI collector" COMMAND "${AMPPROF}" run -- true)
endif()
expect("run needs a command" EXIT 1 ONE_LINE_STDERR COMMAND "${AMPPROF}" run)
expect("export format is checked" EXIT 1 ONE_LINE_STDERR STDERR "--format" COMMAND "${AMPPROF}" export "${good}" --format pdf -o x)

# export: both formats, and the errors (one line, exit 2, nothing left behind).
expect("export to the Chrome trace format" EXIT 0 EMPTY_STDERR
       STDOUT "^wrote .*/export\\.json: [0-9,]+ kernels, [0-9]+ training steps and [0-9]+ findings\nopen it in https://ui\\.perfetto\\.dev"
       COMMAND "${AMPPROF}" export "${good}" --format chrome -o "${WORK_DIR}/export.json")
file(READ "${WORK_DIR}/export.json" chrome_head LIMIT 64)
if(NOT chrome_head MATCHES "^{\"displayTimeUnit\":\"ns\"")
  message("FAIL: the Chrome trace export does not start as a Trace Event Format document: ${chrome_head}")
  math(EXPR failures "${failures} + 1")
endif()
expect("export to NVTXT" EXIT 0 EMPTY_STDERR STDOUT "as NVTX ranges\n.*ImportNvtxt --cmd create -n .*/export\\.nvtxt"
       COMMAND "${AMPPROF}" export "${good}" --format nvtxt -o "${WORK_DIR}/export.nvtxt")
file(READ "${WORK_DIR}/export.nvtxt" nvtxt)
if(NOT nvtxt MATCHES "\nSetFileDisplayName, ampprof\n@RangeStartEnd, Start, End, ThreadId, Message\n.*RangeStartEnd, [0-9]+, [0-9]+, [0-9]+, \"ampprof step 1\"\n")
  message("FAIL: the NVTXT export has no header or no step ranges:\n${nvtxt}")
  math(EXPR failures "${failures} + 1")
endif()
expect("export counts one finding in the singular" EXIT 0 EMPTY_STDERR STDOUT "^wrote [^\n]*: [0-9]+ training steps and 1 finding as NVTX ranges\n"
       COMMAND "${AMPPROF}" export "${fp32}" --format nvtxt -o "${WORK_DIR}/fp32.nvtxt")
expect("export an unreadable trace" EXIT 2 ONE_LINE_STDERR STDERR "^ampprof export: .*empty\\.ampt"
       COMMAND "${AMPPROF}" export "${WORK_DIR}/empty.ampt" --format chrome -o "${WORK_DIR}/never.json")
if(EXISTS "${WORK_DIR}/never.json")
  message("FAIL: a failed export left ${WORK_DIR}/never.json behind")
  math(EXPR failures "${failures} + 1")
endif()
expect("export to an unwritable path" EXIT 2 ONE_LINE_STDERR STDERR "no-such-dir/out\\.json: cannot write"
       COMMAND "${AMPPROF}" export "${good}" --format nvtxt -o "${WORK_DIR}/no-such-dir/out.json")

# classify: what the kernel classifier concludes and which rule decided it; --kernel-rules on every command
# that classifies (a malformed file: one line naming the file, the line and the problem, exit 2).
expect("classify a name given" EXIT 0 EMPTY_STDERR
       STDOUT "^volta_sgemm_128x64_nn\n  category GEMM, unit CUDA cores, dtype FP32, library cuBLAS\n  rule cublas\\.simt_gemm \\(analyzers/facts/kernel_rules\\.txt:[0-9]+\\)\n$"
       COMMAND "${AMPPROF}" classify volta_sgemm_128x64_nn)
expect("classify says when a kernel is a matrix-vector product" EXIT 0 EMPTY_STDERR
       STDOUT "^void gemv2N_kernel\n  category GEMM, unit CUDA cores, dtype unknown, library cuBLAS, matrix-vector\n  rule cublas\\.gemv "
       COMMAND "${AMPPROF}" classify "void gemv2N_kernel")
expect("classify --format json: one object per line" EXIT 0 EMPTY_STDERR
       STDOUT "^{\"name\": \"nvjet_sm100_ootst_128x128_256x7_4x1_2cta_v_bx_Avec16UE4M3_Bvec16UE4M3_TNT\", \"category\": \"gemm\", \"unit\": \"tensor_cores\", \"dtype\": \"fp4\", \"library\": \"cublaslt\", \"alignment\": 0, \"grouped\": false, \"matrix_vector\": false, \"rule\": \"cublaslt\\.nvjet\"}\n$"
       COMMAND "${AMPPROF}" classify --format json nvjet_sm100_ootst_128x128_256x7_4x1_2cta_v_bx_Avec16UE4M3_Bvec16UE4M3_TNT)
expect("classify names from stdin, one per line" EXIT 0 EMPTY_STDERR
       STDOUT "^{\"name\": \"volta_sgemm_128x64_nn\",[^\n]*\"rule\": \"cublas\\.simt_gemm\"}\n{\"name\": \"my_kernel\", \"category\": \"unknown\", \"unit\": \"unknown\", \"dtype\": \"unknown\", \"library\": \"unknown\", \"alignment\": 0, \"grouped\": false, \"matrix_vector\": false, \"rule\": null}\n$"
       COMMAND sh -c "printf 'volta_sgemm_128x64_nn\\n\\nmy_kernel\\r\\n' | '${AMPPROF}' classify --format json")
expect("classify an unknown name: how to teach it" EXIT 0 STDOUT "my_kernel\n  category unknown.*--kernel-rules"
       COMMAND "${AMPPROF}" classify my_kernel)
file(WRITE "${WORK_DIR}/good.rules" "rule site.tiled_gemm\n  match my_tiled_gemm\n  category gemm\n  unit tensor_cores\n  dtype name\n  example my_tiled_gemm_bf16_128x128\n")
file(WRITE "${WORK_DIR}/bad.rules" "rule site.x\n  match my_tiled_gemm\n  category gemmm\n")
expect("--kernel-rules adds a rule that changes a classification" EXIT 0 EMPTY_STDERR
       STDOUT "\"category\": \"gemm\", \"unit\": \"tensor_cores\", \"dtype\": \"bf16\",.*\"rule\": \"site\\.tiled_gemm\"}"
       COMMAND "${AMPPROF}" classify --format json --kernel-rules "${WORK_DIR}/good.rules" my_tiled_gemm_bf16_128x128)
expect("a malformed rules file: the file, the line, the problem" EXIT 2 ONE_LINE_STDERR
       STDERR "^ampprof classify: [^\n]*bad\\.rules:3: unknown category 'gemmm' \\(one of: "
       COMMAND "${AMPPROF}" classify --kernel-rules "${WORK_DIR}/bad.rules" my_tiled_gemm)
expect("a missing rules file" EXIT 2 ONE_LINE_STDERR STDERR "no-such\\.rules: cannot open the kernel rules file"
       COMMAND "${AMPPROF}" classify --kernel-rules "${WORK_DIR}/no-such.rules" my_tiled_gemm)
expect("analyze --kernel-rules with a malformed file" EXIT 2 ONE_LINE_STDERR STDERR "^ampprof analyze: [^\n]*bad\\.rules:3: "
       COMMAND "${AMPPROF}" analyze "${good}" --kernel-rules "${WORK_DIR}/bad.rules")
file(WRITE "${WORK_DIR}/nvjet.rules" "# pretend nvjet kernels ran on CUDA cores\nrule site.nvjet\n  match nvjet_\n  category gemm\n  unit cuda_cores\n  dtype fp32\n")
expect("analyze --kernel-rules: the user's rule decides in the report" EXIT 0
       STDOUT "nvjet_hsh_192x192_64x3_2x1_v_bz_coopB_NTN\n +\\(GEMM, CUDA cores, FP32\\)"
       COMMAND "${AMPPROF}" analyze "${good}" --verbose --kernel-rules "${WORK_DIR}/nvjet.rules")
foreach(command run compare)  # read before the workload starts: nothing runs
  expect("${command} --kernel-rules with a malformed file" EXIT 2 ONE_LINE_STDERR
         STDERR "^ampprof ${command}: [^\n]*bad\\.rules:3: "
         COMMAND "${AMPPROF}" ${command} -o "${WORK_DIR}/rules-${command}" --kernel-rules "${WORK_DIR}/bad.rules"
                 -- touch "${WORK_DIR}/rules-${command}-ran")
  if(EXISTS "${WORK_DIR}/rules-${command}-ran")
    message(SEND_ERROR "${command} --kernel-rules with a malformed file: the workload ran")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
expect("export --kernel-rules with a malformed file" EXIT 2 ONE_LINE_STDERR STDERR "^ampprof export: [^\n]*bad\\.rules:3: "
       COMMAND "${AMPPROF}" export "${good}" --format chrome -o "${WORK_DIR}/rules.json" --kernel-rules "${WORK_DIR}/bad.rules")

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} end-to-end check(s) failed")
endif()
