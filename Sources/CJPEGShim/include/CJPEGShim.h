#ifndef CJPEGSHIM_H
#define CJPEGSHIM_H
/*
 * A thin wrapper over libjpeg whose only job is error handling: libjpeg reports fatal errors
 * through error_exit, which must not return, so each entry point here holds a setjmp that
 * error_exit longjmps to. Swift cannot call setjmp, hence this C target. Everything else
 * (limits, EXIF, ICC, colour conversion, orientation) is done in Swift.
 */
#include <stddef.h>
#include <stdint.h>

/** Opaque decoder: a jpeg_decompress_struct plus its error manager and jump buffer. */
typedef struct sk_jpeg_decoder sk_jpeg_decoder;

/** What the frame header says, read before any pixel buffer is allocated. */
typedef struct sk_jpeg_header {
    int width;
    int height;
    /** Components in the file (1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK). */
    int components;
    /** libjpeg's J_COLOR_SPACE of the file: 1 gray, 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK. */
    int color_space;
    /** An Adobe APP14 marker was seen: CMYK data is then stored inverted (255 = no ink). */
    int saw_adobe_marker;
    int progressive;
} sk_jpeg_header;

/** Output pixel layouts for sk_jpeg_decode. */
enum {
    SK_JPEG_OUT_RGBA = 0, /* 4 bytes, alpha 255; gray and YCbCr files both end up here */
    SK_JPEG_OUT_CMYK = 1  /* 4 bytes, as stored (inverted when saw_adobe_marker) */
};

/** Status codes. */
enum {
    SK_JPEG_OK = 0,
    SK_JPEG_ERROR = 1,       /* libjpeg's message is in sk_jpeg_message */
    SK_JPEG_DATA_ENDS = 2    /* the data ended early (strict mode stops here) */
};

/** A new decoder, or NULL when out of memory. Free with sk_jpeg_free. */
sk_jpeg_decoder *sk_jpeg_new(void);
void sk_jpeg_free(sk_jpeg_decoder *dec);

/**
 * Reads the header of `data` (which must stay valid until sk_jpeg_free), saving APP1 and APP2
 * markers so that EXIF and ICC data can be read with sk_jpeg_marker.
 */
int sk_jpeg_read_header(sk_jpeg_decoder *dec, const uint8_t *data, size_t size, sk_jpeg_header *out);

/** Number of saved APP1/APP2 markers. */
int sk_jpeg_marker_count(const sk_jpeg_decoder *dec);
/** The saved marker at `index`: its code (0xE1, 0xE2) and payload. Returns 0 when out of range. */
int sk_jpeg_marker(const sk_jpeg_decoder *dec, int index, int *code, const uint8_t **data, size_t *length);

/**
 * Decodes the whole image into `out` (height rows of `row_bytes` bytes, 4 bytes per pixel, laid
 * out as `output`). With `stop_at_data_end` the decoder stops with SK_JPEG_DATA_ENDS when the
 * data ends early; otherwise libjpeg pads the missing part (gray) and sk_jpeg_data_ended says so.
 */
int sk_jpeg_decode(sk_jpeg_decoder *dec, uint8_t *out, size_t row_bytes, int output, int stop_at_data_end);

/**
 * Row by row instead of sk_jpeg_decode: sk_jpeg_start starts decompressing (same outputs and
 * stop_at_data_end), sk_jpeg_read_rows then decodes up to `max_rows` further rows into `out`
 * (`row_bytes` apart) and sets `*got` (0 only at the end of the image or of the data), and
 * sk_jpeg_finish ends the image. The rows are those sk_jpeg_decode writes, and sk_jpeg_rows_decoded
 * counts them the same way. `scale_denom` (1, 2, 4 or 8) is libjpeg's DCT scaling (scale_num 1):
 * the image comes out reduced to ceil(size / scale_denom), its size in `*width` and `*height`
 * (either may be NULL); sk_jpeg_decode is scale 1.
 */
int sk_jpeg_start(sk_jpeg_decoder *dec, int output, int stop_at_data_end, int scale_denom, int *width, int *height);
int sk_jpeg_read_rows(sk_jpeg_decoder *dec, uint8_t *out, size_t row_bytes, int max_rows, int *got);
int sk_jpeg_finish(sk_jpeg_decoder *dec);

/** The last error message (empty when none). */
const char *sk_jpeg_message(const sk_jpeg_decoder *dec);
/** Number of libjpeg warnings (corrupt data, early end) and the first one's text. */
int sk_jpeg_warning_count(const sk_jpeg_decoder *dec);
const char *sk_jpeg_first_warning(const sk_jpeg_decoder *dec);
/** Nonzero when libjpeg reached the end of the data before the end of the image. */
int sk_jpeg_data_ended(const sk_jpeg_decoder *dec);
/** Scanlines actually delivered by the last sk_jpeg_decode. */
int sk_jpeg_rows_decoded(const sk_jpeg_decoder *dec);

#endif
