// libdbus-1, imported into Swift as the CDBus module. Only the DBus module may import it.
#include <dbus/dbus.h>

// libdbus defines its type codes as casts (`((int) 'y')`), which Swift cannot import; these constants can.
static const int CDBUS_TYPE_INVALID = DBUS_TYPE_INVALID;
static const int CDBUS_TYPE_BYTE = DBUS_TYPE_BYTE;
static const int CDBUS_TYPE_BOOLEAN = DBUS_TYPE_BOOLEAN;
static const int CDBUS_TYPE_INT16 = DBUS_TYPE_INT16;
static const int CDBUS_TYPE_UINT16 = DBUS_TYPE_UINT16;
static const int CDBUS_TYPE_INT32 = DBUS_TYPE_INT32;
static const int CDBUS_TYPE_UINT32 = DBUS_TYPE_UINT32;
static const int CDBUS_TYPE_INT64 = DBUS_TYPE_INT64;
static const int CDBUS_TYPE_UINT64 = DBUS_TYPE_UINT64;
static const int CDBUS_TYPE_DOUBLE = DBUS_TYPE_DOUBLE;
static const int CDBUS_TYPE_STRING = DBUS_TYPE_STRING;
static const int CDBUS_TYPE_OBJECT_PATH = DBUS_TYPE_OBJECT_PATH;
static const int CDBUS_TYPE_SIGNATURE = DBUS_TYPE_SIGNATURE;
static const int CDBUS_TYPE_UNIX_FD = DBUS_TYPE_UNIX_FD;
static const int CDBUS_TYPE_ARRAY = DBUS_TYPE_ARRAY;
static const int CDBUS_TYPE_VARIANT = DBUS_TYPE_VARIANT;
static const int CDBUS_TYPE_STRUCT = DBUS_TYPE_STRUCT;
static const int CDBUS_TYPE_DICT_ENTRY = DBUS_TYPE_DICT_ENTRY;

// Names the calling thread (ps -L, top -H and gdb show it): prctl is variadic, which Swift cannot call.
#include <sys/prctl.h>
static inline void cdbus_name_this_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

// Gives the heap's free pages back to the system (glibc's malloc_trim; malloc.h is not in Swift's Glibc module).
// The daemon calls it after a large message, whose buffers would otherwise stay in its resident size for good.
#include <malloc.h>
static inline int cdbus_release_free_memory(void) { return malloc_trim(0); }
// Fixes the size from which glibc serves an allocation with its own mmap (and unmaps it when freed). By default
// the threshold grows to the largest block freed so far (up to 32 MiB), after which libdbus's buffer for a
// large message is carved from the heap and its pages stay resident.
static inline int cdbus_fix_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
