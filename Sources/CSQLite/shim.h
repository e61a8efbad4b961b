#ifndef MOVIECAT_CSQLITE_SHIM_H
#define MOVIECAT_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
