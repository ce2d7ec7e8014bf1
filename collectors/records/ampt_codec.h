#ifndef AMPPROF_COLLECTORS_RECORDS_AMPT_CODEC_H_
#define AMPPROF_COLLECTORS_RECORDS_AMPT_CODEC_H_

// Encoding and decoding of single records in the .ampt layout (see ampt_format.h), generic over the
// record types through their Fields() lists, so adding a field to a record is the only change needed.
// Internal to collectors/records.

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "collectors/records/records.h"

namespace ampprof::records::ampt {

static_assert(std::endian::native == std::endian::little,
              "the .ampt codec copies integers as they are in memory; add byte swaps for big-endian hosts");

template <typename Field>
constexpr size_t FieldBytes() {
  if constexpr (std::is_same_v<Field, StringId>) {
    return sizeof(uint32_t);
  } else {
    static_assert(std::is_integral_v<Field> || std::is_enum_v<Field>);
    return sizeof(Field);
  }
}

// Bytes one record of this type takes in a file written by this version.
template <typename Record>
size_t EncodedRecordBytes() {
  static const size_t bytes = [] {
    size_t total = 0;
    Record probe;
    Record::Fields(probe, [&](auto& field) { total += FieldBytes<std::decay_t<decltype(field)>>(); });
    return total;
  }();
  return bytes;
}

// Writes `record` at `out`, which has EncodedRecordBytes<Record>() bytes.
template <typename Record>
void EncodeRecord(const Record& record, uint8_t* out) {
  Record::Fields(record, [&](const auto& field) {
    using Field = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<Field, StringId>) {
      std::memcpy(out, &field.value, sizeof(uint32_t));
    } else {
      std::memcpy(out, &field, sizeof(Field));
    }
    out += FieldBytes<Field>();
  });
}

// Reads one record of `record_size` bytes (at least format 1.0's size: the reader checks). Bytes beyond
// this version's fields are ignored; fields beyond record_size keep their defaults, which is how a
// reader of a later minor version reads an earlier file. String ids are translated through `string_map` (file id -> pool id).
// Returns false when a string id is undefined or an enum value is out of range.
template <typename Record>
bool DecodeRecord(const uint8_t* in, size_t record_size, std::span<const StringId> string_map,
                  Record& record) {
  record = Record();
  // Records as long as this version's (the common case) skip the per-field length check.
  const bool complete = record_size >= EncodedRecordBytes<Record>();
  size_t offset = 0;
  bool valid = true;
  Record::Fields(record, [&](auto& field) {
    using Field = std::decay_t<decltype(field)>;
    constexpr size_t kBytes = FieldBytes<Field>();
    if (!complete && offset + kBytes > record_size) return;  // an older, shorter record: keep the default
    if constexpr (std::is_same_v<Field, StringId>) {
      uint32_t file_id;
      std::memcpy(&file_id, in + offset, sizeof(file_id));
      valid &= file_id < string_map.size();
      field = valid ? string_map[file_id] : StringId();
    } else if constexpr (std::is_enum_v<Field>) {
      uint8_t raw;
      static_assert(sizeof(Field) == 1);
      std::memcpy(&raw, in + offset, 1);
      valid &= raw <= kEnumMax<Field>;
      field = static_cast<Field>(raw);
    } else {
      std::memcpy(&field, in + offset, kBytes);
    }
    offset += kBytes;
  });
  return valid;
}

// Little-endian helpers for the fixed parts of headers and payloads.
inline void PutU16(uint8_t* out, uint16_t value) { std::memcpy(out, &value, 2); }
inline void PutU32(uint8_t* out, uint32_t value) { std::memcpy(out, &value, 4); }
inline void PutI64(uint8_t* out, int64_t value) { std::memcpy(out, &value, 8); }
inline uint16_t GetU16(const uint8_t* in) {
  uint16_t value;
  std::memcpy(&value, in, 2);
  return value;
}
inline uint32_t GetU32(const uint8_t* in) {
  uint32_t value;
  std::memcpy(&value, in, 4);
  return value;
}
inline int64_t GetI64(const uint8_t* in) {
  int64_t value;
  std::memcpy(&value, in, 8);
  return value;
}

}  // namespace ampprof::records::ampt

#endif  // AMPPROF_COLLECTORS_RECORDS_AMPT_CODEC_H_
