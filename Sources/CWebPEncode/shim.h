// libwebp's encoder (WebPEncode, WebPConfig, WebPPicture) and libwebpmux's WebPAnimEncoder.
// Everything needed is a plain function or a static inline one, which Swift imports directly.
#include <webp/encode.h>
#include <webp/mux.h>
