// What Spawn needs of glibc's <spawn.h> beyond Swift's Glibc module.
#include <spawn.h>

// glibc 2.34 and later (Debian 12 has 2.36). spawn.h declares it only under _GNU_SOURCE, which Swift's Glibc
// module is not built with; this is the same declaration.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
