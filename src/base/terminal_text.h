#ifndef AMPPROF_SRC_BASE_TERMINAL_TEXT_H_
#define AMPPROF_SRC_BASE_TERMINAL_TEXT_H_

// Text from a trace (kernel, process, device and file names, whatever another program wrote) made
// safe to print on a terminal. A terminal obeys the control characters it receives: a kernel name
// holding "ESC ] 0 ; ... BEL" sets the window title, "ESC ] 52 ; c ; ..." writes the clipboard,
// "ESC [ 2 J" clears the screen, and a newline forges a line of the report. Every string that
// ampprof prints as text and did not write itself goes through EscapeControlCharacters first, which
// makes them visible instead:
//
//   EscapeControlCharacters("k\x1b]0;owned\x07") == "k\\x1b]0;owned\\x07"  // k\x1b]0;owned\x07
//
// Escaped: the C0 controls 0x00-0x1f (newline and tab included: a name never lays out the report;
// the reporters add their own line breaks after escaping), DEL 0x7f, the C1 controls U+0080-U+009F
// written as UTF-8 (shown \u0080 ... \u009f; CSI, OSC and DCS have single-character forms there),
// and every byte that is not part of valid UTF-8 (shown \xNN: a terminal in an 8-bit mode reads a
// lone 0x9b as CSI). Valid UTF-8 otherwise, backslashes included, passes unchanged, so ASCII kernel
// names and paths print as they are. The result is valid UTF-8 with no control character, and
// escaping it again changes nothing.

#include <string>
#include <string_view>

namespace ampprof::base {

std::string EscapeControlCharacters(std::string_view text);

// True when EscapeControlCharacters would change `text` (a fast check for the common clean name).
bool NeedsEscaping(std::string_view text);

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_TERMINAL_TEXT_H_
