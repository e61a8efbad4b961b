#ifndef MOVIECAT_CSQLITE_SHIM_H
#define MOVIECAT_CSQLITE_SHIM_H
#include <sqlite3.h>

/// sqlite3_config is variadic, which Swift cannot call: this wrapper turns off SQLite's
/// memory statistics (a global mutex on every allocation). Call before opening any connection.
static inline int moviecat_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
