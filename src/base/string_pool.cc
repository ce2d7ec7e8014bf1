#include "src/base/string_pool.h"

#include <algorithm>
#include <cstring>

#include "src/base/check.h"

namespace ampprof::base {
namespace {

uint64_t HashText(std::string_view text) { return std::hash<std::string_view>{}(text); }

}  // namespace

StringPool::StringPool() {
  slots_.assign(1024, kEmptySlot);
  views_.push_back(std::string_view());
  hashes_.push_back(HashText(std::string_view()));
  slots_[FindSlot(std::string_view(), hashes_[0])] = 0;
}

StringId StringPool::Intern(std::string_view text) {
  const uint64_t hash = HashText(text);
  size_t slot = FindSlot(text, hash);
  if (slots_[slot] != kEmptySlot) return StringId{slots_[slot]};
  AMPPROF_CHECK_MSG(views_.size() < kEmptySlot, "more than 4 billion distinct strings");
  const auto id = static_cast<uint32_t>(views_.size());
  views_.push_back(Store(text));
  hashes_.push_back(hash);
  slots_[slot] = id;
  // Keep the load factor at or under 1/2 so that probe sequences stay short.
  if (views_.size() * 2 > slots_.size()) Grow();
  return StringId{id};
}

std::optional<StringId> StringPool::Find(std::string_view text) const {
  const size_t slot = FindSlot(text, HashText(text));
  if (slots_[slot] == kEmptySlot) return std::nullopt;
  return StringId{slots_[slot]};
}

std::string_view StringPool::Get(StringId id) const {
  AMPPROF_CHECK_MSG(Contains(id), "string id out of range");
  return views_[id.value];
}

size_t StringPool::memory_bytes() const {
  return block_bytes_total_ + views_.capacity() * sizeof(std::string_view) +
         hashes_.capacity() * sizeof(uint64_t) + slots_.capacity() * sizeof(uint32_t);
}

std::string_view StringPool::Store(std::string_view text) {
  if (text.empty()) return std::string_view();
  if (text.size() > kBlockBytes / 4) {
    // A long string gets a block of its own, so it does not waste the rest of a shared block.
    auto block = std::make_unique<char[]>(text.size());
    std::memcpy(block.get(), text.data(), text.size());
    std::string_view stored(block.get(), text.size());
    block_bytes_total_ += text.size();
    // Insert before the current shared block so that blocks_.back() stays the one being filled.
    blocks_.insert(blocks_.empty() ? blocks_.end() : blocks_.end() - 1, std::move(block));
    return stored;
  }
  if (block_used_ + text.size() > kBlockBytes) {
    blocks_.push_back(std::make_unique<char[]>(kBlockBytes));
    block_bytes_total_ += kBlockBytes;
    block_used_ = 0;
  }
  char* destination = blocks_.back().get() + block_used_;
  std::memcpy(destination, text.data(), text.size());
  block_used_ += text.size();
  return std::string_view(destination, text.size());
}

size_t StringPool::FindSlot(std::string_view text, uint64_t hash) const {
  const size_t mask = slots_.size() - 1;
  for (size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const uint32_t id = slots_[slot];
    if (id == kEmptySlot || (hashes_[id] == hash && views_[id] == text)) return slot;
  }
}

void StringPool::Grow() {
  slots_.assign(slots_.size() * 2, kEmptySlot);
  const size_t mask = slots_.size() - 1;
  for (uint32_t id = 0; id < views_.size(); ++id) {
    size_t slot = hashes_[id] & mask;
    while (slots_[slot] != kEmptySlot) slot = (slot + 1) & mask;
    slots_[slot] = id;
  }
}

}  // namespace ampprof::base
