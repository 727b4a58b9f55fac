// Xft (anti-aliased client-side text over fontconfig and FreeType), from Debian's libxft-dev.
#include <X11/Xlib.h>
#include <X11/Xft/Xft.h>
#include <fontconfig/fontconfig.h>
