// libFuzzer target: the Nsight Systems SQLite importer, into a model, then every analyzer and report format.
//
// An input is one of two things:
//   - an SQLite database file (it starts with "SQLite format 3"): mutations reach SQLite's file format
//     and the values in the tables;
//   - SQL text, run into a fresh database that is then imported: mutations rewrite the schema itself,
//     which byte mutations of a database file almost never do validly. Views in place of tables, columns
//     renamed, dropped or declared with other types, values of the wrong type, missing strings. The
//     seeds (tests/fuzz/nsys_seeds/*.sql) start from such cases and tests/fuzz/nsys.dict lends the
//     mutator SQL keywords and the names of the export's tables and columns.
// Building the database from text is bounded (instructions, pages, value sizes), so a costly statement
// only ends the build early; what was built so far is imported.

#include <sqlite3.h>

#include <cctype>
#include <cstring>
#include <string>

#include "collectors/nsys/nsys_importer.h"
#include "src/model/model_builder.h"
#include "tests/fuzz/fuzz_analysis.h"
#include "tests/fuzz/fuzz_input_file.h"

namespace {

constexpr char kSqliteMagic[] = "SQLite format 3";

// The input may only build tables, views and rows in its own database: no other files (ATTACH,
// VACUUM INTO) and no pragmas (journal modes, page sizes) of its own.
int Authorize(void*, int action, const char*, const char*, const char*, const char*) {
  return action == SQLITE_ATTACH || action == SQLITE_DETACH || action == SQLITE_PRAGMA ? SQLITE_DENY : SQLITE_OK;
}

// Runs `sql` into a new database at `path`, within bounds; errors end the build where they occur.
void BuildDatabase(const std::string& path, const std::string& sql) {
  std::string lower = sql;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.find("vacuum") != std::string::npos) return;
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    sqlite3_close(db);
    return;
  }
  sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA max_page_count = 4096;",
               nullptr, nullptr, nullptr);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_set_authorizer(db, Authorize, nullptr);
  // About 10^8 virtual-machine instructions: a statement that would take longer stops the build.
  static int instructions;
  instructions = 0;
  sqlite3_progress_handler(db, 10'000, [](void*) { return ++instructions > 10'000 ? 1 : 0; }, nullptr);
  sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  sqlite3_close(db);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const bool database = size >= sizeof(kSqliteMagic) && std::memcmp(data, kSqliteMagic, sizeof(kSqliteMagic)) == 0;
  const ampprof::fuzz::FuzzInputFile file(database ? data : nullptr, database ? size : 0,
                                          ampprof::fuzz::FuzzInputFile::Backing::kShmFile);
  if (!database) BuildDatabase(file.path(), std::string(reinterpret_cast<const char*>(data), size));
  ampprof::model::ModelBuilder builder;
  if (ampprof::nsys::ImportNsysSqlite(file.path(), builder).ok()) {
    ampprof::fuzz::AnalyzeAndReport(std::move(builder).Build(), ampprof::pipeline::TraceFormat::kNsysSqlite);
  }
  return 0;
}
