#ifndef AMPPROF_SRC_MODEL_ROW_INDEX_H_
#define AMPPROF_SRC_MODEL_ROW_INDEX_H_

// RowIndex: a hash index over values kept in a vector (the model's kernel signatures, range labels),
// that finds a value's row or appends it. The values live once, in the vector; the index holds 4-byte
// row numbers in an open-addressing table at most half full, so 8 to 16 bytes per value. A
// std::unordered_map from value to row kept a second copy of each value in a node of its own (56
// bytes a signature): 56 MB for a trace of a million distinct kernel names.
//
//   RowIndex<KernelSignature, SignatureHash> index;
//   const uint32_t row = index.FindOrAppend(signature, model.signatures_);

#include <cstdint>
#include <vector>

namespace ampprof::model {

template <typename Value, typename Hash>
class RowIndex {
 public:
  uint32_t FindOrAppend(const Value& value, std::vector<Value>& rows) {
    if (slots_.empty()) slots_.assign(kInitialSlots, kEmpty);
    const size_t slot = FindSlot(value, rows);
    if (slots_[slot] != kEmpty) return slots_[slot];
    const auto row = static_cast<uint32_t>(rows.size());
    rows.push_back(value);
    slots_[slot] = row;
    if (rows.size() * 2 > slots_.size()) Grow(rows);
    return row;
  }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  static constexpr size_t kInitialSlots = 64;

  // The table takes the low bits of the hash: mix the high ones in (MurmurHash3's finaliser).
  static size_t Spread(uint64_t hash) {
    hash ^= hash >> 33;
    hash *= 0xff51afd7ed558ccdULL;
    hash ^= hash >> 33;
    return static_cast<size_t>(hash);
  }

  size_t FindSlot(const Value& value, const std::vector<Value>& rows) const {
    const size_t mask = slots_.size() - 1;
    for (size_t slot = Spread(Hash{}(value)) & mask;; slot = (slot + 1) & mask) {
      if (slots_[slot] == kEmpty || rows[slots_[slot]] == value) return slot;
    }
  }

  void Grow(const std::vector<Value>& rows) {
    slots_.assign(slots_.size() * 2, kEmpty);
    const size_t mask = slots_.size() - 1;
    for (uint32_t row = 0; row < rows.size(); ++row) {
      size_t slot = Spread(Hash{}(rows[row])) & mask;
      while (slots_[slot] != kEmpty) slot = (slot + 1) & mask;
      slots_[slot] = row;
    }
  }

  std::vector<uint32_t> slots_;
};

}  // namespace ampprof::model

#endif  // AMPPROF_SRC_MODEL_ROW_INDEX_H_
