#include <stdio.h>
#include <stddef.h>
#include <jpeglib.h>
