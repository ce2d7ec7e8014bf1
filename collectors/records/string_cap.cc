#include "collectors/records/string_cap.h"

namespace ampprof::records {

std::string_view CapString(std::string_view text, std::string& storage) {
  if (text.size() <= kMaxStringBytes) return text;
  size_t keep = kMaxStringBytes - kCutMarker.size();
  // Never split a UTF-8 character: back off continuation bytes (10xxxxxx) to the start of one.
  while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
  storage.assign(text.substr(0, keep));
  storage.append(kCutMarker);
  return storage;
}

StringId InternCapped(RecordSink& sink, std::string_view text) {
  if (text.size() <= kMaxStringBytes) return sink.strings().Intern(text);
  std::string storage;
  sink.stats().Increment(base::Stat::kStringsTruncated);
  return sink.strings().Intern(CapString(text, storage));
}

void SetMetadataCapped(RecordSink& sink, std::string_view key, std::string_view value) {
  std::string key_storage, value_storage;
  if (key.size() > kMaxStringBytes || value.size() > kMaxStringBytes) {
    sink.stats().Increment(base::Stat::kStringsTruncated);
  }
  sink.SetMetadata(CapString(key, key_storage), CapString(value, value_storage));
}

}  // namespace ampprof::records
