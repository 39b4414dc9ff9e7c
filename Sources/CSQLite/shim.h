#ifndef CKSCHEMA_CSQLITE_SHIM_H
#define CKSCHEMA_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
/// cannot import; this wrapper hands it over as a typed value.
static inline sqlite3_destructor_type ckschema_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
