#ifndef AMPPROF_SRC_MODEL_IDS_H_
#define AMPPROF_SRC_MODEL_IDS_H_

// Typed row ids: a KernelRow can only index the kernel table, an ApiCallRow only the API-call table.
// The compiler catches the mix-ups that plain uint32 indices invite.
//
//   KernelRow kernel{7};
//   ApiCallRow launch = model.kernels().launch(kernel);
//   if (launch.valid()) { ... model.api_calls().start(launch) ... }

#include <compare>
#include <cstdint>
#include <functional>

namespace ampprof::model {

template <typename Tag>
struct Row {
  static constexpr uint32_t kInvalidValue = UINT32_MAX;
  uint32_t value = kInvalidValue;

  constexpr Row() = default;
  constexpr explicit Row(uint32_t v) : value(v) {}
  constexpr bool valid() const { return value != kInvalidValue; }
  friend constexpr auto operator<=>(const Row&, const Row&) = default;
};

using DeviceRow = Row<struct DeviceTag>;
using ProcessRow = Row<struct ProcessTag>;
using ThreadRow = Row<struct ThreadTag>;
using StreamRow = Row<struct StreamTag>;
using KernelSignatureRow = Row<struct KernelSignatureTag>;
using KernelRow = Row<struct KernelTag>;
using ApiCallRow = Row<struct ApiCallTag>;
using MemcpyRow = Row<struct MemcpyTag>;
using MemsetRow = Row<struct MemsetTag>;
using SyncRow = Row<struct SyncTag>;
using RangeRow = Row<struct RangeTag>;
using RangeLabelRow = Row<struct RangeLabelTag>;
using MarkRow = Row<struct MarkTag>;
using MemoryEventRow = Row<struct MemoryEventTag>;
using OverheadRow = Row<struct OverheadTag>;

// The largest number of rows a table holds; one less than the invalid value.
inline constexpr uint32_t kMaxRows = UINT32_MAX - 1;

// A half-open range of rows [begin, end) that is iterable: for (KernelRow k : model.KernelsOf(d)).
template <typename RowType>
struct RowRange {
  uint32_t begin_value = 0;
  uint32_t end_value = 0;

  struct Iterator {
    uint32_t value;
    RowType operator*() const { return RowType(value); }
    Iterator& operator++() {
      ++value;
      return *this;
    }
    bool operator==(const Iterator&) const = default;
  };
  Iterator begin() const { return {begin_value}; }
  Iterator end() const { return {end_value}; }
  uint32_t size() const { return end_value - begin_value; }
  bool empty() const { return begin_value == end_value; }
};

}  // namespace ampprof::model

template <typename Tag>
struct std::hash<ampprof::model::Row<Tag>> {
  size_t operator()(ampprof::model::Row<Tag> row) const noexcept { return row.value; }
};

#endif  // AMPPROF_SRC_MODEL_IDS_H_
