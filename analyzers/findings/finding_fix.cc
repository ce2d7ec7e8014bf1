#include "analyzers/findings/finding_fix.h"

#include <cctype>

#include "analyzers/findings/finding_catalog.h"

namespace ampprof::analyzers {
namespace {

constexpr std::string_view kFixHeading = "## How to fix it";
constexpr std::string_view kInferenceOpening = "In an inference run";

// The "How to fix it" section: from its heading to the next heading of its level.
std::string_view FixSection(std::string_view page) {
  size_t at = page.find(kFixHeading);
  if (at == std::string_view::npos) return {};
  std::string_view section = page.substr(at);
  const size_t next = section.find("\n## ", kFixHeading.size());
  return next == std::string_view::npos ? section : section.substr(0, next);
}

// The section's paragraph that opens with "In an inference run", or "".
std::string_view InferenceParagraph(std::string_view section) {
  const size_t at = section.find(std::string("\n\n") + std::string(kInferenceOpening));
  if (at == std::string_view::npos) return {};
  std::string_view rest = section.substr(at + 2);
  const size_t end = rest.find("\n\n");
  return end == std::string_view::npos ? rest : rest.substr(0, end);
}

// The first paragraph after the fix heading: the lines up to the first blank line.
std::string_view FirstFixParagraph(std::string_view page) {
  size_t at = page.find(kFixHeading);
  if (at == std::string_view::npos) return {};
  at = page.find('\n', at);
  if (at == std::string_view::npos) return {};
  std::string_view rest = page.substr(at + 1);
  while (!rest.empty() && (rest.front() == '\n' || rest.front() == '\r')) rest.remove_prefix(1);
  if (rest.starts_with("```") || rest.starts_with("#")) return {};  // no prose before the code
  const size_t end = rest.find("\n\n");
  return end == std::string_view::npos ? rest : rest.substr(0, end);
}

// Markdown inline markup removed: `code` -> code, [text](target) -> text.
std::string PlainText(std::string_view markdown) {
  std::string text;
  for (size_t i = 0; i < markdown.size(); ++i) {
    const char c = markdown[i];
    if (c == '`') continue;
    if (c == ']' && i + 1 < markdown.size() && markdown[i + 1] == '(') {
      const size_t close = markdown.find(')', i + 2);
      if (close != std::string_view::npos) {
        i = close;
        continue;
      }
    }
    if (c == '[') continue;
    text += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return text;
}

}  // namespace

std::string FirstSentenceAsPlainText(std::string_view markdown_paragraph) {
  const std::string text = PlainText(markdown_paragraph);
  // A sentence ends at '.', '!' or '?' followed by a space and a capital letter; "e.g. this" does not.
  size_t end = text.size();
  for (size_t i = 0; i + 2 < text.size(); ++i) {
    const bool stop = text[i] == '.' || text[i] == '!' || text[i] == '?';
    if (stop && text[i + 1] == ' ' && std::isupper(static_cast<unsigned char>(text[i + 2])) != 0) {
      end = i + 1;
      break;
    }
  }
  std::string sentence = text.substr(0, end);
  while (!sentence.empty() && std::isspace(static_cast<unsigned char>(sentence.back())) != 0) sentence.pop_back();
  if (!sentence.empty() && sentence.back() == ':') sentence.back() = '.';
  return sentence;
}

std::string FindingFix(std::string_view id, RunKind run) {
  const std::string_view page = FindingDoc(id);
  if (run == RunKind::kInference) {
    const std::string_view paragraph = InferenceParagraph(FixSection(page));
    if (!paragraph.empty()) return FirstSentenceAsPlainText(paragraph);
  }
  return FirstSentenceAsPlainText(FirstFixParagraph(page));
}

}  // namespace ampprof::analyzers
