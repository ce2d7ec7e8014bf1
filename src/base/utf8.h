#ifndef AMPPROF_SRC_BASE_UTF8_H_
#define AMPPROF_SRC_BASE_UTF8_H_

// UTF-8 validity: names in traces are other people's bytes, and what ampprof writes as JSON must be
// valid UTF-8. Code that keeps a name to serialise later repairs it once, where it keeps it, so that
// the value in memory and the value read back are the same string.
//
//   ValidUtf8("caf\xC3\xA9")  == "caf\xC3\xA9"           // unchanged
//   ValidUtf8("bad\xFF byte") == "bad\xEF\xBF\xBD byte"  // U+FFFD for each byte that is not UTF-8

#include <cstddef>
#include <string>
#include <string_view>

namespace ampprof::base {

// Length of the well-formed UTF-8 sequence at the start of `text`, or 0 when it is not one (overlong
// forms, surrogates and code points past U+10FFFF included), after RFC 3629's table. `text` is not
// empty.
size_t Utf8SequenceLength(std::string_view text);

// `text` with every byte that does not start a well-formed sequence replaced by U+FFFD.
std::string ValidUtf8(std::string_view text);

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_UTF8_H_
