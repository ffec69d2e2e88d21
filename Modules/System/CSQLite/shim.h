#ifndef WEFT_CSQLITE_SHIM_H
#define WEFT_CSQLITE_SHIM_H
#include <sqlite3.h>

/// Turns off SQLite's "double-quoted string literal" fallback on `db`, so that a quoted
/// identifier naming a missing column is an error instead of silently becoming the string
/// 'name'. (`sqlite3_db_config` is variadic, which Swift cannot call directly.)
/// Returns SQLITE_OK, or an error code from an SQLite older than 3.29.
static inline int weft_sqlite3_disable_double_quoted_strings(sqlite3 *db) {
  int code = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
  if (code != SQLITE_OK) return code;
  return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
}

#endif
