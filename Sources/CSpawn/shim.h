// What Spawn (and the tests' ChildProcess) need of glibc beyond Swift's Glibc module.
#include <spawn.h>
#include <sys/pidfd.h>

// glibc 2.34 and later (Debian 12 has 2.36). spawn.h declares it only under _GNU_SOURCE, which Swift's Glibc
// module is not built with; this is the same declaration.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

// pidfd_open (glibc 2.36, <sys/pidfd.h>, which Swift's Glibc module does not include) comes with the include above:
// a descriptor that polls readable once a process ends, for a process that is not one's child.
