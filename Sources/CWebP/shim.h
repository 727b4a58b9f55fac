// libwebp 1.2, from Debian's libwebp-dev, for the thumbnail of an uploaded WebP (a still image:
// WebPDecodeRGBAInto refuses an animation, which then gets no picture). WebPGetFeatures is a
// static inline over WebPGetFeaturesInternal, which Swift imports as it is.
// libwebp.a is linked (`imageLinking` in Package.swift).
#include <webp/decode.h>
