// libpng 1.6, from Debian's libpng-dev (pkg-config: libpng16), for the notification's thumbnail.
// Only its simplified API is used (png_image_begin_read_from_memory, png_image_finish_read):
// it reports errors in the png_image instead of longjmp-ing out of the caller, which Swift
// could not survive, and it converts every PNG colour type, depth and interlace to RGBA8.
// libpng16.a is linked already (FreeType needs it); see `x11Linking` in Package.swift.
#include <png.h>
