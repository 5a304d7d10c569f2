// libvpx's VP9 encoder and decoder. libvpx's entry points are macros (vpx_codec_enc_init,
// vpx_codec_dec_init) or variadic (vpx_codec_control_), neither of which Swift can call: these
// static inline functions forward to them and do nothing else.
#include <vpx/vpx_encoder.h>
#include <vpx/vpx_decoder.h>
#include <vpx/vp8cx.h>
#include <vpx/vp8dx.h>

static inline vpx_codec_err_t cvpx_encoder_init(vpx_codec_ctx_t *ctx, const vpx_codec_enc_cfg_t *cfg) {
  return vpx_codec_enc_init(ctx, vpx_codec_vp9_cx(), cfg, 0);
}

static inline vpx_codec_err_t cvpx_decoder_init(vpx_codec_ctx_t *ctx, unsigned int threads) {
  vpx_codec_dec_cfg_t cfg = {threads, 0, 0};
  return vpx_codec_dec_init(ctx, vpx_codec_vp9_dx(), &cfg, 0);
}

// One control with an int argument (every control the encoder sets takes an int or unsigned int).
static inline vpx_codec_err_t cvpx_control(vpx_codec_ctx_t *ctx, int control, int value) {
  return vpx_codec_control_(ctx, control, value);
}

static const vpx_enc_frame_flags_t CVPX_EFLAG_FORCE_KF = VPX_EFLAG_FORCE_KF;
static const vpx_codec_frame_flags_t CVPX_FRAME_IS_KEY = VPX_FRAME_IS_KEY;
static const vpx_codec_frame_flags_t CVPX_FRAME_IS_INVISIBLE = VPX_FRAME_IS_INVISIBLE;
static const unsigned long CVPX_DL_GOOD_QUALITY = VPX_DL_GOOD_QUALITY;
static const unsigned long CVPX_DL_BEST_QUALITY = VPX_DL_BEST_QUALITY;
static const unsigned long CVPX_DL_REALTIME = VPX_DL_REALTIME;
