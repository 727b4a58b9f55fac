// libjpeg-turbo's TurboJPEG API 2.1, from Debian's libturbojpeg0-dev, for the thumbnail of an
// uploaded JPEG. TurboJPEG rather than libjpeg's own API: libjpeg reports errors by calling an
// error_exit that must longjmp out of the caller, which Swift could not survive; TurboJPEG does
// that inside its own C frames and returns -1 with a message (tjGetErrorStr2). It also decodes at
// 1/2, 1/4 or 1/8 of the size in the DCT (tjGetScalingFactors), which a thumbnail wants.
// libturbojpeg.a is linked (`imageLinking` in Package.swift).
#include <stddef.h>
#include <turbojpeg.h>
