// Intentionally empty: a C target needs one source file; the symbol comes from libFuzzer.
#include "CFuzzDriver.h"
