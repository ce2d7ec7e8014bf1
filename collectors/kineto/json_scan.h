#ifndef AMPPROF_COLLECTORS_KINETO_JSON_SCAN_H_
#define AMPPROF_COLLECTORS_KINETO_JSON_SCAN_H_

// The byte searches that the JSON scanners (json_event_stream.h, event_blocks.h) spend their time in,
// between the few bytes that matter: quotes, backslashes and brackets.

#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ampprof::kineto {

inline bool IsJsonBlank(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// The first byte in [p, end) that is one of `kChars`, or end. SSE2 (every x86-64 CPU) looks at 16
// bytes per step.
template <char... kChars>
const char* FindFirstOf(const char* p, const char* end) {
#if defined(__SSE2__)
  while (end - p >= 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i hits = _mm_setzero_si128();
    ((hits = _mm_or_si128(hits, _mm_cmpeq_epi8(block, _mm_set1_epi8(kChars)))), ...);
    const int mask = _mm_movemask_epi8(hits);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  for (; p < end; ++p) {
    if (((*p == kChars) || ...)) return p;
  }
  return end;
}

}  // namespace ampprof::kineto

#endif  // AMPPROF_COLLECTORS_KINETO_JSON_SCAN_H_
