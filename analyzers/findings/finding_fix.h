#ifndef AMPPROF_ANALYZERS_FINDINGS_FINDING_FIX_H_
#define AMPPROF_ANALYZERS_FINDINGS_FINDING_FIX_H_

// The fix of a finding in one sentence, for reports: the first sentence of the "## How to fix it"
// section of its page (docs/findings/<id>.md), as plain text. The page stays the one place where the
// fix is written; every view quotes the same sentence and points to `ampprof explain ID` for the rest.
//
//   FindingFix("layout.nchw_nhwc")  // "Convert the model and its inputs to channels-last once, before training."

#include <string>
#include <string_view>

#include "analyzers/facts/run_kind.h"

namespace ampprof::analyzers {

// Empty when `id` has no page or its page no "How to fix it" section. For an inference run, the first
// sentence of the section's paragraph that starts "In an inference run" when the page has one (the
// pages whose first fix speaks of the loss, the backward pass, the optimizer or training have one), else
// the same first sentence.
std::string FindingFix(std::string_view id, RunKind run = RunKind::kTraining);

// The first sentence of a Markdown paragraph as plain text: `code` and [links](target) lose their
// markup, line breaks become spaces, and a closing ':' (which introduces a code block on the pages)
// becomes '.'. Exposed for tests.
std::string FirstSentenceAsPlainText(std::string_view markdown_paragraph);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_FINDING_FIX_H_
