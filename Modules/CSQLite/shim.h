#ifndef WEFT_CSQLITE_SHIM_H
#define WEFT_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
