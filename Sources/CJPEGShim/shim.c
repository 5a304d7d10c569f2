#include "CJPEGShim.h"
#include <stdio.h>
#include <jpeglib.h>
int sk_jpeg_shim_version(void) { return JPEG_LIB_VERSION; }
