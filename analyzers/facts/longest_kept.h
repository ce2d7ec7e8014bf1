#ifndef AMPPROF_ANALYZERS_FACTS_LONGEST_KEPT_H_
#define AMPPROF_ANALYZERS_FACTS_LONGEST_KEPT_H_

// The few longest of many: a trace has millions of gaps and kernels, a finding points at a handful.
// Keeps the `capacity` items with the largest key seen so far (a min-heap, O(log capacity) per item),
// counts the others, and hands the kept ones back largest first.
//
//   LongestKept<base::Interval> waits(16);
//   for (const base::Interval& gap : gaps) waits.Add(gap.duration(), gap);
//   std::vector<base::Interval> longest = std::move(waits).Take();  // waits.left_out() were dropped
//
// Ties keep the item added first, so that the result does not depend on the heap's order.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "src/base/time.h"

namespace ampprof::analyzers {

template <typename T>
class LongestKept {
 public:
  explicit LongestKept(size_t capacity) : capacity_(capacity) {}

  void Add(base::DurationNs key, T item) {
    Entry entry{key, next_++, std::move(item)};
    if (heap_.size() < capacity_) {
      heap_.push_back(std::move(entry));
      std::push_heap(heap_.begin(), heap_.end(), Later);
      return;
    }
    ++left_out_;
    if (capacity_ == 0 || !Later(entry, heap_.front())) return;  // not longer than the shortest kept
    std::pop_heap(heap_.begin(), heap_.end(), Later);
    heap_.back() = std::move(entry);
    std::push_heap(heap_.begin(), heap_.end(), Later);
  }

  // Whether an item with `key` would be kept now: lets a caller skip building an item (a label, a
  // demangled name) that would only be dropped. Skipping it is the caller's to count.
  bool WouldKeep(base::DurationNs key) const {
    return heap_.size() < capacity_ || (capacity_ > 0 && key > heap_.front().key);
  }

  // Items offered but not kept.
  uint64_t left_out() const { return left_out_; }
  size_t size() const { return heap_.size(); }

  // The kept items, largest key first (ties: the one added first).
  std::vector<T> Take() && {
    std::sort(heap_.begin(), heap_.end(), Later);
    std::vector<T> items;
    items.reserve(heap_.size());
    for (Entry& entry : heap_) items.push_back(std::move(entry.item));
    heap_.clear();
    return items;
  }

 private:
  struct Entry {
    base::DurationNs key = 0;
    uint64_t order = 0;
    T item;
  };
  // "a ranks before b": longer, or as long and added earlier. As the heap's comparison it puts the
  // item that ranks last (the first to drop) at the front.
  static bool Later(const Entry& a, const Entry& b) {
    return a.key != b.key ? a.key > b.key : a.order < b.order;
  }

  size_t capacity_;
  uint64_t next_ = 0;
  uint64_t left_out_ = 0;
  std::vector<Entry> heap_;
};

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_LONGEST_KEPT_H_
