#include "CJPEGShim.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

struct sk_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr err;
    jmp_buf jump;
    int created;
    int stop_at_data_end;
    int data_ended;
    int warnings;
    int rows;
    char message[JMSG_LENGTH_MAX];
    char first_warning[JMSG_LENGTH_MAX];
};

/* cinfo is the decoder's first field, so a pointer to it is a pointer to the decoder. */
static sk_jpeg_decoder *decoder_of(j_common_ptr cinfo) {
    return (sk_jpeg_decoder *)cinfo;
}

static void on_error_exit(j_common_ptr cinfo) {
    sk_jpeg_decoder *dec = decoder_of(cinfo);
    cinfo->err->format_message(cinfo, dec->message);
    longjmp(dec->jump, SK_JPEG_ERROR);
}

static void on_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return; /* trace messages */
    sk_jpeg_decoder *dec = decoder_of(cinfo);
    if (dec->warnings == 0) cinfo->err->format_message(cinfo, dec->first_warning);
    dec->warnings++;
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) {
        dec->data_ended = 1;
        if (dec->stop_at_data_end) {
            cinfo->err->format_message(cinfo, dec->message);
            longjmp(dec->jump, SK_JPEG_DATA_ENDS);
        }
    }
}

sk_jpeg_decoder *sk_jpeg_new(void) {
    sk_jpeg_decoder *dec = calloc(1, sizeof(sk_jpeg_decoder));
    if (!dec) return NULL;
    dec->cinfo.err = jpeg_std_error(&dec->err);
    dec->err.error_exit = on_error_exit;
    dec->err.emit_message = on_emit_message;
    if (setjmp(dec->jump)) {
        free(dec);
        return NULL;
    }
    jpeg_create_decompress(&dec->cinfo);
    dec->created = 1;
    return dec;
}

void sk_jpeg_free(sk_jpeg_decoder *dec) {
    if (!dec) return;
    if (dec->created) jpeg_destroy_decompress(&dec->cinfo);
    free(dec);
}

int sk_jpeg_read_header(sk_jpeg_decoder *dec, const uint8_t *data, size_t size, sk_jpeg_header *out) {
    int status = setjmp(dec->jump);
    if (status) return status;
    dec->stop_at_data_end = 0;
    jpeg_mem_src(&dec->cinfo, data, (unsigned long)size);
    jpeg_save_markers(&dec->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&dec->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&dec->cinfo, TRUE);
    out->width = (int)dec->cinfo.image_width;
    out->height = (int)dec->cinfo.image_height;
    out->components = dec->cinfo.num_components;
    out->color_space = (int)dec->cinfo.jpeg_color_space;
    out->saw_adobe_marker = dec->cinfo.saw_Adobe_marker ? 1 : 0;
    out->progressive = dec->cinfo.progressive_mode ? 1 : 0;
    return SK_JPEG_OK;
}

int sk_jpeg_marker_count(const sk_jpeg_decoder *dec) {
    int n = 0;
    for (jpeg_saved_marker_ptr m = dec->cinfo.marker_list; m; m = m->next) n++;
    return n;
}

int sk_jpeg_marker(const sk_jpeg_decoder *dec, int index, int *code, const uint8_t **data, size_t *length) {
    int i = 0;
    for (jpeg_saved_marker_ptr m = dec->cinfo.marker_list; m; m = m->next, i++) {
        if (i == index) {
            *code = m->marker;
            *data = m->data;
            *length = m->data_length;
            return 1;
        }
    }
    return 0;
}

int sk_jpeg_start(sk_jpeg_decoder *dec, int output, int stop_at_data_end, int scale_denom, int *width, int *height) {
    dec->rows = 0;
    int status = setjmp(dec->jump);
    if (status) return status;
    dec->stop_at_data_end = stop_at_data_end;
    if (output == SK_JPEG_OUT_CMYK) {
        dec->cinfo.out_color_space = JCS_CMYK;
    } else {
        dec->cinfo.out_color_space = JCS_EXT_RGBA;
    }
    dec->cinfo.dct_method = JDCT_ISLOW;
    dec->cinfo.scale_num = 1;
    dec->cinfo.scale_denom = (unsigned)scale_denom;
    jpeg_start_decompress(&dec->cinfo);
    if (width) *width = (int)dec->cinfo.output_width;
    if (height) *height = (int)dec->cinfo.output_height;
    if (dec->cinfo.output_components != 4) {
        snprintf(dec->message, sizeof dec->message, "libjpeg gives %d components, expected 4",
                 dec->cinfo.output_components);
        return SK_JPEG_ERROR;
    }
    return SK_JPEG_OK;
}

int sk_jpeg_read_rows(sk_jpeg_decoder *dec, uint8_t *out, size_t row_bytes, int max_rows, int *got) {
    *got = 0;
    int status = setjmp(dec->jump);
    if (status) return status;
    while (*got < max_rows && dec->cinfo.output_scanline < dec->cinfo.output_height) {
        JSAMPROW rows[4];
        JDIMENSION left = (JDIMENSION)(max_rows - *got);
        if (left > 4) left = 4;
        for (JDIMENSION i = 0; i < left; i++) rows[i] = out + (size_t)(*got + (int)i) * row_bytes;
        JDIMENSION n = jpeg_read_scanlines(&dec->cinfo, rows, left);
        if (n == 0) break;
        *got += (int)n;
        dec->rows += (int)n;
    }
    return SK_JPEG_OK;
}

int sk_jpeg_finish(sk_jpeg_decoder *dec) {
    int status = setjmp(dec->jump);
    if (status) return status;
    jpeg_finish_decompress(&dec->cinfo);
    return SK_JPEG_OK;
}

int sk_jpeg_decode(sk_jpeg_decoder *dec, uint8_t *out, size_t row_bytes, int output, int stop_at_data_end) {
    int status = sk_jpeg_start(dec, output, stop_at_data_end, 1, NULL, NULL);
    if (status) return status;
    unsigned height = dec->cinfo.output_height;
    while (dec->cinfo.output_scanline < height) {
        int got = 0;
        status = sk_jpeg_read_rows(dec, out + (size_t)dec->cinfo.output_scanline * row_bytes, row_bytes, 4, &got);
        if (status) return status;
        if (got == 0) break;
    }
    return sk_jpeg_finish(dec);
}

const char *sk_jpeg_message(const sk_jpeg_decoder *dec) { return dec->message; }
int sk_jpeg_warning_count(const sk_jpeg_decoder *dec) { return dec->warnings; }
const char *sk_jpeg_first_warning(const sk_jpeg_decoder *dec) { return dec->first_warning; }
int sk_jpeg_data_ended(const sk_jpeg_decoder *dec) { return dec->data_ended; }
int sk_jpeg_rows_decoded(const sk_jpeg_decoder *dec) { return dec->rows; }
