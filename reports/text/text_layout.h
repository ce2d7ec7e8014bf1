#ifndef AMPPROF_REPORTS_TEXT_TEXT_LAYOUT_H_
#define AMPPROF_REPORTS_TEXT_TEXT_LAYOUT_H_

// Layout helpers of the terminal report: fitting text into columns (wrapping, shortening in the
// middle) and showing kernel names the way people scan them. Widths count bytes: the report's own
// text is ASCII, and a name from a trace that is not only overflows a little, never wraps wrong.
//
// Shorten and Wrap (so PrintWrapped) are where text from a trace reaches the terminal: they escape
// its control characters first (base::EscapeControlCharacters), so that widths count the escapes
// and no kernel, process or file name can send a terminal sequence. Text printed without them must
// be escaped where it is printed. Colour (text_style.h) is applied after them, so ampprof's own
// escapes are kept.

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace ampprof::reports {

// Keeps the head and the tail of `text`, its control characters escaped, within `width` characters,
// joined by "..."; never cuts a UTF-8 character in two.
std::string Shorten(std::string_view text, size_t width);

// A path within `width`: the file name whole, and as many of the directories above it as fit, the
// others replaced by ".../" ("/home/me/runs/h100-autotuned-k400/trace.ampt" ->
// ".../h100-autotuned-k400/trace.ampt"): the end of a path is what tells two traces apart. A file name
// wider than `width` alone is shortened like Shorten.
std::string ShortenPath(std::string_view path, size_t width);

// One long word (a kernel name) in lines of at most `width` characters, with nothing left out but the
// spaces it breaks at: each line ends after a separator ("_", ",", "<", "(", ":") or at a space when
// there is one in its last third, and never inside a UTF-8 character.
std::vector<std::string> BreakLongWord(std::string_view word, size_t width);

// `text`, its control characters escaped, in lines of at most `width` characters, broken at spaces;
// a word longer than a line is shortened in the middle (paths, kernel names), so that no line is
// wider than `width`.
std::vector<std::string> Wrap(std::string_view text, size_t width);

// Prints `text` wrapped to `width` columns: the first line after `first`, the others after `rest`
// (both prefixes count towards the width).
void PrintWrapped(std::ostream& out, std::string_view first, std::string_view rest, std::string_view text,
                  size_t width);

// A kernel name as people scan it: without the "void " return type and without the parameter list,
// which repeats the template arguments ("void f<4, Functor>(int, Functor, ...)" -> "f<4, Functor>").
std::string_view DisplayKernelName(std::string_view name);

// Replaces template arguments nested inside other template arguments, and every parenthesised list,
// with "...": "k<4, f<float>(int)::{lambda(float)#1}, std::array<char*, 2ul> >" becomes
// "k<4, f<...>(...)::{lambda(...)#1}, std::array<...> >". Keeps what tells kernels apart (the kernel
// template and its functor) when the full name is too long to show.
std::string CollapseNestedArguments(std::string_view full_name);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_TEXT_TEXT_LAYOUT_H_
