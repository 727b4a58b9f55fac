// Xlib, from Debian's libx11-dev (pkg-config: x11).
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
