// libFuzzer's driver, called from each target's entry point. SwiftPM links executables with
// `--defsym main=<Target>_main`, which hides libFuzzer's own `main`; so each target defines
// `<Target>_main` and hands control to the driver here.
#pragma once
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
