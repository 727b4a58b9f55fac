#ifndef CX11_SHIMS_H
#define CX11_SHIMS_H

// C shims for X11Interop: only what Swift cannot do by itself.
//
// Xlib reports protocol errors and lost connections through process-wide C function pointers
// (`XSetErrorHandler`, `XSetIOErrorHandler`). Swift closures cannot be installed there without a
// C-convention trampoline and somewhere to put the result, and Xlib's default handlers print to
// stderr and call exit(), which a library must never do. So:
//
//  - `cx11_install_handlers` installs, once per process, an error handler that records the last
//    protocol error in a thread-local slot (a `Display` belongs to one thread, and Xlib calls the
//    handler synchronously on the thread that read the error), and an I/O error handler that ends
//    the process with `_exit(CX11_CONNECTION_LOST_EXIT_STATUS)`: Xlib's I/O error handler must not
//    return (Xlib would call exit() itself after printing "XIO: fatal IO error"), and no Xlib call
//    is safe on a connection after it. For the detached selection owner this is the clean end: the
//    X server is gone, so is the selection.
//  - `cx11_take_last_error` hands the recorded error to Swift and clears the slot.
//
// The usual macros (ConnectionNumber, DefaultRootWindow, ...) need no shim: Xlib exports the
// function forms (XConnectionNumber, XDefaultRootWindow, XMaxRequestSize, ...), which Swift calls.
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>

/// The status the process exits with when its X connection is lost (sysexits EX_IOERR).
#define CX11_CONNECTION_LOST_EXIT_STATUS 74

/// A copy of the fields of an XErrorEvent that stay meaningful after the handler returns.
typedef struct cx11_error_record {
    unsigned long serial;
    unsigned long resource_id;
    unsigned char error_code;
    unsigned char request_code;
    unsigned char minor_code;
} cx11_error_record;

/// Installs the recording error handler and the exiting I/O error handler; later calls do nothing.
void cx11_install_handlers(void);

/// Opens a connection like `XOpenDisplay`; with `keyboard` 0, without the XKEYBOARD extension
/// (`XkbIgnoreExtension` around the open: Xlib then skips its QueryExtension and UseExtension,
/// two round trips at every connection). For connections that never read a key, such as the
/// clipboard's; `XKB_FORCE` in the environment keeps the extension. The flag is Xlib's one
/// process-wide switch, so every open goes through here, one at a time.
Display *cx11_open_display(const char *name, int keyboard);

/// Copies the last protocol error seen on this thread into `out` and clears it.
/// Returns 1 when there was one, 0 otherwise.
int cx11_take_last_error(cx11_error_record *out);

/// Creates an input context for `window` with no preedit or status drawing by the input method
/// (the alert draws its own text field). Exists because `XCreateIC` is variadic (a NULL-terminated
/// list of name/value pairs), which Swift cannot call.
XIC cx11_create_ic(XIM method, Window window);

/// The connection's resource-id mask (the setup's `resource-id-mask`): two windows belong to one
/// client when their ids agree outside it. Exists because Xlib keeps the mask in the private
/// part of `Display` (Xlibint.h), with no function to read it.
unsigned long cx11_resource_mask(Display *display);

#endif
