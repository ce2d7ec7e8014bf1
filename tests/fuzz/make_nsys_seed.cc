// Builds an SQLite database from SQL text: the nsys fuzzer's seed from tests/data/nsys/*.sql.
//   make_nsys_seed minimal_export.sql seed.sqlite

#include <sqlite3.h>

#include <cstdio>
#include <fstream>
#include <sstream>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s SQL_FILE DATABASE\n", argv[0]);
    return 1;
  }
  std::ifstream in(argv[1]);
  std::stringstream sql;
  sql << in.rdbuf();
  std::remove(argv[2]);
  sqlite3* db = nullptr;
  char* error = nullptr;
  if (sqlite3_open(argv[2], &db) != SQLITE_OK ||
      sqlite3_exec(db, sql.str().c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::fprintf(stderr, "%s: %s\n", argv[2], error != nullptr ? error : sqlite3_errmsg(db));
    return 1;
  }
  sqlite3_close(db);
  return 0;
}
