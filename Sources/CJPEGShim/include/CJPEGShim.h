#ifndef CJPEGSHIM_H
#define CJPEGSHIM_H
#include <stddef.h>
#include <stdint.h>
/* Placeholder: the setjmp-based libjpeg wrapper is written with the JPEG decoder. */
int sk_jpeg_shim_version(void);
#endif
