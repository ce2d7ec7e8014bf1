#ifndef AMPPROF_SRC_BASE_STRING_POOL_H_
#define AMPPROF_SRC_BASE_STRING_POOL_H_

// StringPool interns strings: each distinct string is stored once and named by a dense StringId.
// Traces repeat a few thousand kernel and API names millions of times, so records and model tables
// carry 4-byte ids instead of strings, and grouping by name is grouping by integer.
//
//   StringPool pool;
//   StringId gemm = pool.Intern("ampere_sgemm_128x64_nn");
//   pool.Intern("ampere_sgemm_128x64_nn") == gemm;   // true
//   pool.Get(gemm);                                   // "ampere_sgemm_128x64_nn"
//
// Invariants: id 0 is the empty string; ids are assigned in interning order (so "the strings added since
// id N" is a range, which the .ampt writer uses to emit string tables incrementally); the views returned
// by Get() stay valid for the pool's lifetime, because string bytes live in blocks that never move.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace ampprof::base {

struct StringId {
  uint32_t value = 0;
  friend auto operator<=>(const StringId&, const StringId&) = default;
};
inline constexpr StringId kEmptyStringId{0};

class StringPool {
 public:
  StringPool();
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;
  StringPool(StringPool&&) noexcept = default;
  StringPool& operator=(StringPool&&) noexcept = default;

  StringId Intern(std::string_view text);
  std::optional<StringId> Find(std::string_view text) const;
  std::string_view Get(StringId id) const;  // CHECKs that id is valid
  bool Contains(StringId id) const { return id.value < views_.size(); }
  size_t size() const { return views_.size(); }
  size_t memory_bytes() const;

 private:
  static constexpr uint32_t kEmptySlot = UINT32_MAX;
  static constexpr size_t kBlockBytes = 64 * 1024;

  std::string_view Store(std::string_view text);
  size_t FindSlot(std::string_view text, uint64_t hash) const;
  void Grow();

  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = kBlockBytes;  // bytes used in blocks_.back(); "full" until the first block exists
  size_t block_bytes_total_ = 0;
  std::vector<std::string_view> views_;  // by id
  std::vector<uint64_t> hashes_;         // by id, so growing the table does not rehash strings
  std::vector<uint32_t> slots_;          // open addressing, linear probing; holds ids or kEmptySlot
};

}  // namespace ampprof::base

template <>
struct std::hash<ampprof::base::StringId> {
  size_t operator()(ampprof::base::StringId id) const noexcept { return id.value; }
};

#endif  // AMPPROF_SRC_BASE_STRING_POOL_H_
