#include "collectors/cupti/name_cache.h"

#include <cstring>

#include "collectors/cupti/demangle.h"

namespace ampprof::cupti {

base::StringId NameCache::Intern(const char* name, base::StringPool& pool) {
  if (name == nullptr) return base::kEmptyStringId;
  if (&pool != pool_) {
    by_pointer_.clear();
    by_mangled_text_.clear();
    pool_ = &pool;
  }
  const auto it = by_pointer_.find(name);
  if (it != by_pointer_.end() && std::strcmp(it->second.text.c_str(), name) == 0)
    return it->second.id;

  std::string text(name);
  const base::StringId id = InternText(text, pool);
  if (it != by_pointer_.end()) {
    it->second = Entry{std::move(text), id};  // the address now holds another name
  } else {
    if (by_pointer_.size() >= kMaxEntries) by_pointer_.clear();
    by_pointer_.emplace(name, Entry{std::move(text), id});
  }
  return id;
}

base::StringId NameCache::InternText(const std::string& text, base::StringPool& pool) {
  if (mode_ == Mode::kAsIs) return pool.Intern(text);
  // The same kernel can come under a new pointer (its module was reloaded): demangle it once.
  const auto known = by_mangled_text_.find(text);
  if (known != by_mangled_text_.end()) return known->second;
  ++demangler_calls_;
  const base::StringId id = pool.Intern(Demangle(text));
  if (by_mangled_text_.size() >= kMaxEntries) by_mangled_text_.clear();
  by_mangled_text_.emplace(text, id);
  return id;
}

}  // namespace ampprof::cupti
