#!/bin/sh
# Fault tests of `ampprof run` and `ampprof compare` (docs/reliability.md, "Faults in the traced run"):
# the workload crashes, aborts, is killed or interrupted (and ampprof ends as it did); its children
# outlive it; the output directory is unusable, fills up, already holds traces, is shared by several
# ranks or by two runs at once; kernel names are huge, a million, or carry terminal control sequences. The workload
# is ampprof_fault_workload (fault_workload.cc), which writes its trace as the collector does, so all
# of it is checked without a GPU. Run by ctest as e2e.faults (and e2e.faults.million_names):
#
#   sh fault_test.sh AMPPROF FAULT_WORKLOAD WORK_DIR [CASE...]      # no CASE: all but million_names
#
# A case that needs what this machine does not allow (a private mount namespace) says "skip:" and why.

set -u
AMPPROF=$1
WORKLOAD=$2
WORK=$3
shift 3

failures=0
rm -rf "$WORK"
mkdir -p "$WORK"

# ---- helpers ----

# problem MESSAGE: the current case fails, with its output for the log.
problem() {
  echo "FAIL: $case_name: $1"
  case_failed=1
}

# skip REASON: the current case cannot run here.
skip() {
  echo "skip: $case_name: $1"
  case_skipped=1
}

# begin NAME / end_case: one case, reported once.
begin() {
  case_name=$1
  case_failed=0
  case_skipped=0
}
end_case() {
  if [ "$case_skipped" -eq 1 ]; then
    return
  elif [ "$case_failed" -eq 0 ]; then
    echo "ok:   $case_name"
  else
    failures=$((failures + 1))
    for stream in out err; do
      if [ -f "$WORK/$case_name.$stream" ]; then
        echo "  --- $stream (last 15 lines):"
        tail -n 15 "$WORK/$case_name.$stream" | sed 's/^/  /'
      fi
    done
  fi
}

# How ampprof itself ended, "exit N" or "signal N": a shell's $? is 128 + N for both, but a shell loop
# is not indifferent (bash goes on after a command that exited 130, and stops after one that died of
# SIGINT). python3 tells them apart; without it the endings are not checked.
PYTHON=$(command -v python3 || true)
TELL_ENDING='import subprocess, sys
child = subprocess.Popen(sys.argv[3:])
with open(sys.argv[1], "w") as pid:
    pid.write("%d\n" % child.pid)
code = child.wait()
with open(sys.argv[2], "w") as ending:
    ending.write("signal %d\n" % -code if code < 0 else "exit %d\n" % code)'

# start_ampprof ARGS...: ampprof in the background, stdout and stderr in $WORK/<case>.out/.err; sets
# $ampprof to its pid. finish_ampprof: waits for it; sets $status (as a shell reports it) and $ending.
start_ampprof() {
  rm -f "$WORK/$case_name.pid" "$WORK/$case_name.ending"
  if [ -n "$PYTHON" ]; then
    "$PYTHON" -c "$TELL_ENDING" "$WORK/$case_name.pid" "$WORK/$case_name.ending" "$AMPPROF" "$@" \
      >"$WORK/$case_name.out" 2>"$WORK/$case_name.err" &
    waiter=$!
    wait_for "$WORK/$case_name.pid" '^[0-9]+$'
    ampprof=$(cat "$WORK/$case_name.pid")
  else
    "$AMPPROF" "$@" >"$WORK/$case_name.out" 2>"$WORK/$case_name.err" &
    waiter=$!
    ampprof=$waiter
  fi
}
finish_ampprof() {
  wait "$waiter"
  status=$?
  ending=unknown
  if [ -n "$PYTHON" ]; then
    ending=$(cat "$WORK/$case_name.ending")
    case $ending in
      "signal "*) status=$((128 + ${ending#signal })) ;;
      "exit "*) status=${ending#exit } ;;
    esac
  fi
}

# run_ampprof ARGS...: ampprof with stdout and stderr in $WORK/<case>.out/.err; sets $status and $ending.
run_ampprof() {
  start_ampprof "$@"
  finish_ampprof
}

expect_status() {
  [ "$status" -eq "$1" ] || problem "exit status $status, expected $1"
}
# expect_ending "signal N" | "exit N": how ampprof itself ended.
expect_ending() {
  if [ "$ending" = unknown ]; then
    echo "  ($case_name: how ampprof ended is not checked: no python3)"
  elif [ "$ending" != "$1" ]; then
    problem "ampprof ended with '$ending', expected '$1'"
  fi
}
expect_no_err() {
  if grep -Eq -- "$1" "$WORK/$case_name.err"; then problem "stderr has a line matching '$1'"; fi
}
# expect_printable FILE...: nothing but printable ASCII, newlines and the Markdown summary's " · "
# (U+00B7): no raw control byte, and no byte a terminal could take for one.
expect_printable() {
  for file in "$@"; do
    raw=$(LC_ALL=C tr -d '\n\40-\176\302\267' <"$file" | wc -c)
    [ "$raw" -eq 0 ] || problem "$(basename "$file") holds $raw raw control or non-ASCII byte(s)"
  done
}
# expect_out REGEX / expect_err REGEX: a line of stdout / stderr matches (grep -E).
expect_out() {
  grep -Eq -- "$1" "$WORK/$case_name.out" || problem "stdout has no line matching '$1'"
}
expect_err() {
  grep -Eq -- "$1" "$WORK/$case_name.err" || problem "stderr has no line matching '$1'"
}
expect_no_out() {
  if grep -Eq -- "$1" "$WORK/$case_name.out"; then problem "stdout has a line matching '$1'"; fi
}
# The report analysed what the workload wrote before it ended: a GPU with kernels.
expect_kernels_reported() {
  expect_out '^ {10}[1-9][0-9,]* kernels on [0-9]+ streams?, busy'
}
expect_one_line_stderr() {
  lines=$(wc -l <"$WORK/$case_name.err")
  [ "$lines" -eq 1 ] || problem "stderr has $lines lines, expected one"
}

# wait_for FILE REGEX: until a line of FILE matches, for at most 30 s.
wait_for() {
  tries=0
  until grep -Eq -- "$2" "$1" 2>/dev/null; do
    tries=$((tries + 1))
    [ "$tries" -le 300 ] || return 1
    sleep 0.1
  done
}

# Ends the workloads that wrote traces into directory $1 (their pids are in the trace names), each by
# its pid.
stop_workloads() {
  for trace in "$1"/*.ampt; do
    [ -e "$trace" ] || continue
    pid=${trace##*-pid}
    kill -KILL "${pid%.ampt}" 2>/dev/null
  done
}

# Ends what a case left running after it failed: ampprof ($1, started by start_ampprof) and the
# workloads that wrote traces into directory $2.
stop_run() {
  kill -KILL "$1" 2>/dev/null
  stop_workloads "$2"
  wait "$waiter" 2>/dev/null
}

# The command that runs its arguments in a private mount namespace (as root; else as root of a new
# user namespace), or nothing where neither is allowed.
private_mounts() {
  if unshare --mount true 2>/dev/null; then
    echo "unshare --mount"
  elif unshare --user --map-root-user --mount true 2>/dev/null; then
    echo "unshare --user --map-root-user --mount"
  fi
}

# ---- the workload ends badly ----

case_exit_status() {
  begin exit_status
  run_ampprof run -o "$WORK/exit_status" -- "$WORKLOAD" --end exit:3
  expect_status 3
  expect_ending "exit 3"
  expect_out '^ended     exited with status 3$'
  expect_kernels_reported
}

case_segfault() {
  begin segfault
  run_ampprof run -o "$WORK/segfault" -- "$WORKLOAD" --end segfault
  expect_status 139
  expect_ending "signal 11"  # after the report, as the workload died
  expect_err '^ampprof run: the workload was killed by signal 11 \(SIGSEGV\); its traces hold what was recorded before$'
  expect_out '^ended     killed by signal 11 \(SIGSEGV\)$'
  expect_kernels_reported
  grep -q '<dt>ended</dt><dd>killed by signal 11 (SIGSEGV)</dd>' "$WORK/segfault/report.html" 2>/dev/null ||
    problem "report.html does not say how the workload ended"
}

case_abort() {
  begin abort
  run_ampprof run -o "$WORK/abort" -- "$WORKLOAD" --end abort
  expect_status 134
  expect_ending "signal 6"
  expect_err 'killed by signal 6 \(SIGABRT\)'
  expect_out '^ended     killed by signal 6 \(SIGABRT\)$'
  expect_kernels_reported
}

case_sigkill() {
  begin sigkill
  run_ampprof run -o "$WORK/sigkill" -- "$WORKLOAD" --end sigkill
  expect_status 137
  expect_ending "signal 9"
  expect_out '^ended     killed by signal 9 \(SIGKILL\)$'
  expect_kernels_reported
  expect_out '^data      no records lost or repaired$'   # killed between two writes: nothing torn
}

# Killed inside the write of a chunk: the trace is read up to its last whole chunk, the torn chunk's
# complete records are kept, and the report says records were lost.
case_sigkill_mid_write() {
  begin sigkill_mid_write
  run_ampprof run -o "$WORK/sigkill_mid_write" -- "$WORKLOAD" --end sigkill-mid-write
  expect_status 137
  expect_err 'killed while writing byte [0-9]+'
  expect_out '^ended     killed by signal 9 \(SIGKILL\)$'
  expect_kernels_reported
  expect_out '^data      RECORDS LOST: 1 ampt_truncated_tail \(data-loss\), [0-9,]+ ampt_salvaged_records'
  expect_out '^  data-loss +1  ampt_truncated_tail$'
}

# Ctrl-C sent to ampprof alone (not its process group, as `kill -INT` or a scheduler does): forwarded;
# the workload finishes its step and dies of SIGINT as Python does, its trace as the last flush left it;
# a second SIGINT while it shuts down is forwarded too and does not end ampprof, which reports and
# then dies of SIGINT itself, as the workload did (status 130).
case_ctrl_c() {
  begin ctrl_c
  dir="$WORK/ctrl_c"
  start_ampprof run -o "$dir" -- "$WORKLOAD" --end sigint --kernels 200000 --step-delay-ms 20 \
    --sigint-linger-ms 20000
  if ! wait_for "$WORK/ctrl_c.err" '^ampprof_fault_workload: writing '; then
    problem "the workload never started writing"
    stop_run "$ampprof" "$dir"
    return
  fi
  kill -INT "$ampprof"
  if ! wait_for "$WORK/ctrl_c.err" '^ampprof_fault_workload: interrupted after [0-9]+ steps$'; then
    problem "the first SIGINT did not reach the workload"
    stop_run "$ampprof" "$dir"
    return
  fi
  kill -INT "$ampprof"
  finish_ampprof
  expect_status 130
  expect_ending "signal 2"
  expect_err '^ampprof_fault_workload: 2 SIGINT\(s\) received$'
  expect_err '^ampprof run: the workload was killed by signal 2 \(SIGINT\)'
  expect_out '^ended     killed by signal 2 \(SIGINT\)$'
  expect_kernels_reported
  expect_out '^data      no records lost or repaired$'
}

# compare: a run that fails stops the comparison with its status, and what it recorded is reported.
case_compare_amp_crash() {
  begin compare_amp_crash
  script="$WORK/amp_crashes.sh"
  printf '%s\n' "if [ \"\$AMPPROF_PRECISION\" = amp ]; then exec '$WORKLOAD' --end segfault; fi" \
    "exec '$WORKLOAD'" >"$script"
  run_ampprof compare -o "$WORK/compare_amp_crash" -- sh "$script"
  expect_status 139
  expect_ending "signal 11"
  expect_err '^ampprof compare: the amp run was killed by signal 11 \(SIGSEGV\); stopping$'
  expect_out '^ended     killed by signal 11 \(SIGSEGV\)$'
  expect_out '^FP32 vs mixed precision$'
  expect_out '^  speed-up  [0-9.]+x'
  expect_kernels_reported
}

case_compare_fp32_crash() {
  begin compare_fp32_crash
  script="$WORK/fp32_aborts.sh"
  printf '%s\n' "if [ \"\$AMPPROF_PRECISION\" = fp32 ]; then exec '$WORKLOAD' --end abort; fi" \
    "exec '$WORKLOAD'" >"$script"
  run_ampprof compare -o "$WORK/compare_fp32_crash" -- sh "$script"
  expect_status 134
  expect_ending "signal 6"
  expect_err '^ampprof compare: the fp32 run was killed by signal 6 \(SIGABRT\); stopping$'
  expect_err "^ampprof compare: nothing to compare; the FP32 run's own report follows$"
  expect_out '^ended     killed by signal 6 \(SIGABRT\)$'
  expect_no_out 'FP32 vs mixed precision'
  expect_kernels_reported
  if ls "$WORK/compare_fp32_crash/amp-1/"*.ampt >/dev/null 2>&1; then
    problem "the mixed-precision run started after the FP32 run failed"
  fi
}

# Ctrl-C during the FP32 run of a comparison: that run's report, exit status 130.
case_compare_ctrl_c() {
  begin compare_ctrl_c
  dir="$WORK/compare_ctrl_c"
  start_ampprof compare -o "$dir" -- "$WORKLOAD" --end sigint --kernels 200000 --step-delay-ms 20
  if ! wait_for "$WORK/compare_ctrl_c.err" '^ampprof_fault_workload: writing '; then
    problem "the workload never started writing"
    stop_run "$ampprof" "$dir/fp32-1"
    return
  fi
  kill -INT "$ampprof"
  finish_ampprof
  expect_status 130
  expect_ending "signal 2"
  expect_err '^ampprof compare: the fp32 run was killed by signal 2 \(SIGINT\); stopping$'
  expect_out '^ended     killed by signal 2 \(SIGINT\)$'
  expect_kernels_reported
}

# ---- processes that outlive the workload, runs that share a directory ----

# child_writes CHILD_ERR ARGS...: a shell command that starts the workload with ARGS in the
# background and exits as soon as the workload writes its trace (at most 30 s later): a program that
# ends before its child processes.
child_writes() {
  err=$1
  shift
  printf '%s' "'$WORKLOAD' $* 2>'$err' & i=0; until grep -q '^ampprof_fault_workload: writing ' '$err' || [ \$i -ge 300 ]; do sleep 0.1; i=\$((i + 1)); done"
}

# The workload's main process exits while its child still writes its trace: the report waits for the
# trace to be finished and counts all of it (it used to count the few steps written by then, and say
# "no records lost").
case_children_outlive_the_workload() {
  begin children_outlive_the_workload
  dir="$WORK/children"
  run_ampprof run -o "$dir" -- sh -c "$(child_writes "$WORK/$case_name.child" --kernels 40000 --step-delay-ms 3)"
  expect_status 0
  expect_err "^ampprof run: the program has ended, but 1 trace\(s\) are still being written by its other processes: ampprof-pid[0-9]+\.ampt \(process [0-9]+\); waiting up to 60 s for them \(--trace-wait\)$"
  expect_no_err 'gave up'
  expect_out '^ {10}4[0-9],[0-9]{3} kernels on 2 streams'  # the whole of --kernels 40000
  "$AMPPROF" analyze "$dir" >"$WORK/$case_name.finished" 2>&1 || problem "analyze of the finished trace failed"
  reported=$(grep -Eo '^ {10}[0-9,]+ kernels' "$WORK/$case_name.out")
  finished=$(grep -Eo '^ {10}[0-9,]+ kernels' "$WORK/$case_name.finished")
  [ -n "$finished" ] && [ "$reported" = "$finished" ] ||
    problem "the report counted '$reported', the finished trace holds '$finished'"
}

# A child that writes for longer than --trace-wait: the report comes after the wait, and says which
# trace was still being written.
case_gave_up_waiting() {
  begin gave_up_waiting
  dir="$WORK/gave_up"
  run_ampprof run -o "$dir" --trace-wait 1 -- sh -c \
    "$(child_writes "$WORK/$case_name.child" --end sigint --kernels 2000000 --step-delay-ms 20)"
  stop_workloads "$dir"
  expect_status 0
  expect_err '^ampprof run: gave up waiting after 1 s: 1 trace\(s\) are still being written: ampprof-pid[0-9]+\.ampt \(process [0-9]+\); the report shows what they held then$'
  expect_kernels_reported
}

# Two runs given the same directory at the same time: the second is refused, with or without --force,
# and the first run's trace and report are its own.
case_concurrent_runs() {
  begin concurrent_runs
  dir="$WORK/concurrent"
  start_ampprof run -o "$dir" -- "$WORKLOAD" --end sigint --kernels 200000 --step-delay-ms 20
  if ! wait_for "$WORK/$case_name.err" '^ampprof_fault_workload: writing '; then
    problem "the first run's workload never started writing"
    stop_run "$ampprof" "$dir"
    return
  fi
  for second in "run -o $dir" "run -o $dir --force" "compare -o $dir"; do
    # shellcheck disable=SC2086 # the words of $second are the arguments
    "$AMPPROF" $second -- "$WORKLOAD" >"$WORK/$case_name.second.out" 2>"$WORK/$case_name.second.err"
    second_status=$?
    [ "$second_status" -eq 2 ] || problem "'ampprof $second' beside a run: exit status $second_status, expected 2"
    grep -Eq 'concurrent: another ampprof run is using this directory; wait for it to end, or give this run another -o$' \
      "$WORK/$case_name.second.err" || problem "'ampprof $second' beside a run: $(head -c 300 "$WORK/$case_name.second.err")"
  done
  set -- "$dir"/*.ampt
  [ "$#" -eq 1 ] && [ -e "$1" ] || problem "the first run's trace is gone: $*"
  kill -INT "$ampprof"
  finish_ampprof
  expect_status 130
  expect_err '^ampprof run: 1 trace\(s\) in '
  expect_kernels_reported
}

# ---- what reaches the terminal ----

# Kernel, GPU, process and workload names carrying terminal sequences (window title, clipboard, clear
# screen): every text output shows them escaped; no raw control byte reaches stdout or stderr.
case_hostile_names() {
  begin hostile_names
  dir="$WORK/hostile"
  run_ampprof run -o "$dir" -- "$WORKLOAD" --hostile-names --kernels 5000
  expect_status 0
  expect_kernels_reported
  expect_out '^workload  .*\\x1b\[5m\\u009b31m\\x0a$'    # shortened in the middle, its end escaped
  expect_out '^ {10}.*\\x1b\]0;pwned\\x07.*, sm_90$'
  "$AMPPROF" analyze "$dir" --verbose >"$WORK/$case_name.verbose" 2>&1 || problem "analyze --verbose failed"
  "$AMPPROF" analyze "$dir" --format md >"$WORK/$case_name.md" 2>&1 || problem "analyze --format md failed"
  grep -q 'Top kernels by GPU time' "$WORK/$case_name.verbose" || problem "no top kernels table"
  expect_printable "$WORK/$case_name.out" "$WORK/$case_name.err" "$WORK/$case_name.verbose" "$WORK/$case_name.md"
}

# ---- the output directory ----

case_unwritable() {
  begin unwritable_under_a_file
  : >"$WORK/a_file"
  run_ampprof run -o "$WORK/a_file/out" -- sh -c "touch '$WORK/$case_name.started'"
  expect_status 2
  expect_one_line_stderr
  expect_err 'a_file/out: cannot create the output directory'
  run_ampprof compare -o "$WORK/a_file/out" -- sh -c "touch '$WORK/$case_name.started'"
  expect_status 2
  expect_one_line_stderr
  [ ! -e "$WORK/$case_name.started" ] || problem "the workload was started"
  end_case

  # Permission bits do not stop root: a read-only mount does.
  begin unwritable_read_only_mount
  private=$(private_mounts)
  if [ -z "$private" ]; then
    skip "no private mount namespace here (unshare --mount and --user both refused)"
    return
  fi
  mkdir -p "$WORK/read_only"
  $private sh -c "mount -t tmpfs -o ro,size=1m ampprof-ro '$WORK/read_only' &&
    exec '$AMPPROF' run -o '$WORK/read_only' -- sh -c \"touch '$WORK/$case_name.started'\"" \
    >"$WORK/$case_name.out" 2>"$WORK/$case_name.err"
  status=$?
  expect_status 2
  expect_one_line_stderr
  expect_err 'read_only: the output directory is not writable$'
  [ ! -e "$WORK/$case_name.started" ] || problem "the workload was started"
}

# A 1 MiB tmpfs as the output directory. Already full: refused before the start. Filling during the
# run (a trace of several MiB): the workload goes on and keeps its exit status, its trace is cut back
# to its last whole chunk, and the report counts the records it could not write.
case_disk_full() {
  begin disk_already_full
  private=$(private_mounts)
  if [ -z "$private" ]; then
    skip "no private mount namespace here (unshare --mount and --user both refused); nor the case after it"
    return
  fi
  dir="$WORK/full"
  mkdir -p "$dir"
  $private sh -c "mount -t tmpfs -o size=1m ampprof-full '$dir' &&
    (dd if=/dev/zero of='$dir/filler' bs=64k 2>/dev/null; true) &&
    exec '$AMPPROF' run -o '$dir' -- sh -c \"touch '$WORK/$case_name.started'\"" \
    >"$WORK/$case_name.out" 2>"$WORK/$case_name.err"
  status=$?
  expect_status 2
  expect_one_line_stderr
  expect_err 'full: no space left on the output directory.s device$'
  [ ! -e "$WORK/$case_name.started" ] || problem "the workload was started"
  end_case

  begin disk_fills_during_the_run
  $private sh -c "mount -t tmpfs -o size=1m ampprof-full '$dir' &&
    exec '$AMPPROF' run -o '$dir' -- '$WORKLOAD' --end exit:5 --kernels 40000" \
    >"$WORK/$case_name.out" 2>"$WORK/$case_name.err"
  status=$?
  expect_status 5
  expect_err '^ampprof_fault_workload: the trace was not written completely: .*No space left on device'
  expect_out '^ended     exited with status 5$'
  expect_kernels_reported
  expect_out '^data      RECORDS LOST: [0-9,]+ collector_write_errors \(data-loss\)'
  expect_no_out 'ampt_truncated_tail'
  expect_err 'the HTML report: .*report.html: cannot write: No space left on device$'
}

# Traces of an earlier run are never overwritten or mixed with new ones; --force replaces them.
case_existing_output() {
  begin existing_output
  dir="$WORK/existing"
  mkdir -p "$dir/fp32-1"
  echo "an earlier run" >"$dir/ampprof-pid1.ampt"
  echo "an earlier run" >"$dir/fp32-1/ampprof-pid1.ampt"
  run_ampprof run -o "$dir" -- "$WORKLOAD"
  expect_status 2
  expect_one_line_stderr
  expect_err 'existing: holds 1 trace\(s\) of an earlier run \(ampprof-pid1.ampt...\); pass --force'
  run_ampprof compare -o "$dir" -- "$WORKLOAD"
  expect_status 2
  expect_err 'fp32-1: holds 1 trace\(s\) of an earlier run'
  [ "$(cat "$dir/ampprof-pid1.ampt")" = "an earlier run" ] || problem "run changed the earlier trace"
  [ "$(cat "$dir/fp32-1/ampprof-pid1.ampt")" = "an earlier run" ] || problem "compare changed the earlier trace"
  run_ampprof run -o "$dir" --force -- "$WORKLOAD"
  expect_status 0
  [ ! -e "$dir/ampprof-pid1.ampt" ] || problem "run --force kept the earlier trace"
  expect_err '^ampprof run: 1 trace\(s\) in '
  run_ampprof compare -o "$dir" --force -- "$WORKLOAD"
  expect_status 0
  [ ! -e "$dir/fp32-1/ampprof-pid1.ampt" ] || problem "compare --force kept the earlier trace"
  expect_out '^FP32 vs mixed precision$'
}

# Four ranks started together write into one directory: four traces, four reports in rank order.
case_ranks() {
  begin ranks
  run_ampprof run -o "$WORK/ranks" -- sh -c "for rank in 3 1 0 2; do RANK=\$rank WORLD_SIZE=4 '$WORKLOAD' & done; wait"
  expect_status 0
  expect_err '^ampprof run: 4 trace\(s\) in '
  for rank in 0 1 2 3; do
    set -- "$WORK/ranks/ampprof-rank$rank-pid"*.ampt
    [ "$#" -eq 1 ] && [ -e "$1" ] || problem "no single trace for rank $rank"
  done
  order=$(grep -Eo '^== rank [0-9]' "$WORK/ranks.out" | tr -d '=' | tr '\n' ' ')
  [ "$order" = " rank 0  rank 1  rank 2  rank 3 " ] || problem "reports in the order '$order'"
  [ "$(grep -c '^data      no records lost or repaired$' "$WORK/ranks.out")" -eq 4 ] ||
    problem "not every rank's trace is whole"
}

# 64 KiB kernel names: the text report keeps its 100 columns, the JSON is valid, the HTML is written.
case_long_names() {
  begin long_names
  dir="$WORK/long_names"
  run_ampprof run -o "$dir" -- "$WORKLOAD" --kernels 5000 --kernel-name-bytes 65536
  expect_status 0
  expect_kernels_reported
  long=$(awk 'length > 100' "$WORK/long_names.out" | wc -l)
  [ "$long" -eq 0 ] || problem "$long lines of the report are wider than 100 columns"
  "$AMPPROF" analyze "$dir" --verbose >"$WORK/long_names.verbose" 2>&1 || problem "analyze --verbose failed"
  long=$(awk 'length > 100' "$WORK/long_names.verbose" | wc -l)
  [ "$long" -eq 0 ] || problem "$long lines of the --verbose report are wider than 100 columns"
  grep -q 'Top kernels by GPU time' "$WORK/long_names.verbose" || problem "no top kernels table"
  "$AMPPROF" analyze "$dir" --format json -o "$WORK/long_names.json" || problem "analyze --format json failed"
  if command -v python3 >/dev/null; then
    python3 -m json.tool "$WORK/long_names.json" >/dev/null || problem "the JSON report is not valid JSON"
  else
    echo "skip: long_names: JSON validity (no python3)"
  fi
  grep -q '"name": "nvjet_hsh_192x192_64x3_2x1_v_bz_coopB_NTN_xxxxxxxx' "$WORK/long_names.json" ||
    problem "the JSON report lost the names"
  tail -c 8 "$dir/report.html" 2>/dev/null | grep -q '</html>' || problem "report.html was not written whole"
}

# A million distinct kernel names: the trace is written and read, and the report printed. The whole
# case is timed (the classification of each distinct name is most of it).
case_million_names() {
  begin million_names
  started=$(date +%s)
  run_ampprof run -o "$WORK/million_names" -- "$WORKLOAD" --kernels 1000000 --kernel-name-variants 1000000
  expect_status 0
  expect_out '^ {10}1,000,[0-9]{3} kernels on 2 streams'
  expect_out '^verdict   '
  echo "  million_names: $(($(date +%s) - started)) s"
  rm -rf "$WORK/million_names"
}

# ---- main ----

cases=${*:-"exit_status segfault abort sigkill sigkill_mid_write ctrl_c compare_amp_crash compare_fp32_crash compare_ctrl_c children_outlive_the_workload gave_up_waiting concurrent_runs hostile_names unwritable disk_full existing_output ranks long_names"}
for name in $cases; do
  "case_$name"
  end_case
done
if [ "$failures" -gt 0 ]; then
  echo "$failures fault test(s) failed"
  exit 1
fi
