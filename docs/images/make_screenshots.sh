#!/usr/bin/env bash
# Regenerates the HTML report screenshots of README.md and docs/html-report.md from a build:
#   docs/images/make_screenshots.sh [BUILD_DIR]        (default: build; needs ../shared/fixtures)
# html-report-launch-bound.png: the shared param trace (an FP32 MLP on an RTX 2080 Ti);
# html-report-fp32-vs-amp.png: ampprof-synth's AMP loop against the same loop in FP32.
# Chromium as in tests/reports/html/html_browser_test.cc (headless, no network, no sandbox for root).
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${1:-build}"
ampprof="$build/src/cli/ampprof"
synth="$build/collectors/synthetic/ampprof-synth"
fixture=../shared/fixtures/facebookresearch__param/et_replay/tests/inputs/linear_kineto.json.gz
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[[ -x "$ampprof" && -x "$synth" ]] || { echo "make_screenshots.sh: build $build first" >&2; exit 2; }
[[ -f "$fixture" ]] || { echo "make_screenshots.sh: $fixture is missing (../shared)" >&2; exit 2; }
[[ -n "$chromium" ]] || { echo "make_screenshots.sh: no Chromium on PATH (.ci/setup installs it)" >&2; exit 2; }

work="$build/screenshots"  # in the build, so that the pages show short, stable trace paths
rm -rf "$work" && mkdir -p "$work"

shoot() {  # PAGE PNG WIDTH HEIGHT
  "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --hide-scrollbars \
    --disable-extensions --user-data-dir="$work/profile" --window-size="$3,$4" --screenshot="$2" \
    "file://$(realpath "$1")" >/dev/null 2>&1
  echo "wrote $2"
}

"$ampprof" analyze "$fixture" --format html -o "$work/launch-bound.html"
"$synth" -o "$work/amp.ampt" >/dev/null
"$synth" --precision fp32 -o "$work/fp32.ampt" >/dev/null
"$ampprof" analyze "$work/amp.ampt" --baseline "$work/fp32.ampt" --format html -o "$work/fp32-vs-amp.html"

shoot "$work/launch-bound.html" docs/images/html-report-launch-bound.png 1200 1150
shoot "$work/fp32-vs-amp.html" docs/images/html-report-fp32-vs-amp.png 1200 1720
