#ifndef CX11_SHIMS_H
#define CX11_SHIMS_H
#include <X11/Xlib.h>
#endif
