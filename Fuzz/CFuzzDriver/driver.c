// libFuzzer's entry for programs that have a main of their own (LLVM 11+). Only declared, and so only
// linked, in a fuzzing build: an ordinary build has no libFuzzer to link against.
#include "CFuzzDriver.h"

#ifdef FUZZING
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int traitd_run_fuzzer(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size)) {
    return LLVMFuzzerRunDriver(argc, argv, callback);
}
#else
int traitd_run_fuzzer(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size)) {
    (void)argc;
    (void)argv;
    (void)callback;
    return -1;
}
#endif
