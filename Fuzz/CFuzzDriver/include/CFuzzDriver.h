#ifndef TRAITD_CFUZZDRIVER_H
#define TRAITD_CFUZZDRIVER_H
#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with `callback` as the target when the fuzz targets are built for fuzzing (-DFUZZING and
/// -sanitize=fuzzer); returns -1 at once otherwise, and the caller replays inputs itself.
int traitd_run_fuzzer(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
