#include "cx11_shims.h"
#include <X11/Xlibint.h>
#include <X11/XKBlib.h>

unsigned long cx11_resource_mask(Display *display) {
    return ((struct _XDisplay *)display)->resource_mask;
}

XIC cx11_create_ic(XIM method, Window window) {
    return XCreateIC(method, XNInputStyle, XIMPreeditNothing | XIMStatusNothing, XNClientWindow, window,
                     XNFocusWindow, window, (char *)NULL);
}

#include <pthread.h>
#include <string.h>
#include <unistd.h>

// The one slot per thread that the error handler writes and `cx11_take_last_error` empties.
// Thread-local, not global: each `Display` is used by one thread, and Xlib runs the handler on
// the thread whose call read the error from the connection.
static _Thread_local cx11_error_record last_error;
static _Thread_local int has_last_error;

static int cx11_record_error(Display *display, XErrorEvent *event) {
    (void)display;
    last_error.serial = event->serial;
    last_error.resource_id = event->resourceid;
    last_error.error_code = event->error_code;
    last_error.request_code = event->request_code;
    last_error.minor_code = event->minor_code;
    has_last_error = 1;
    return 0;  // Xlib ignores the value.
}

static int cx11_connection_lost(Display *display) {
    (void)display;
    // Must not return (Xlib would print and exit()); must not touch stdio buffers that a
    // half-written state could corrupt. _exit is async-signal-safe and skips atexit handlers.
    _exit(CX11_CONNECTION_LOST_EXIT_STATUS);
}

static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static void cx11_install(void) {
    XSetErrorHandler(cx11_record_error);
    XSetIOErrorHandler(cx11_connection_lost);
}

void cx11_install_handlers(void) {
    pthread_once(&install_once, cx11_install);
}

// Xlib reads `XkbIgnoreExtension`'s flag inside XOpenDisplay: opens are serialised so that one
// opened without the keyboard never leaves another (an alert window's) without it.
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

Display *cx11_open_display(const char *name, int keyboard) {
    pthread_mutex_lock(&open_lock);
    if (!keyboard) XkbIgnoreExtension(True);
    Display *display = XOpenDisplay(name);
    if (!keyboard) XkbIgnoreExtension(False);
    pthread_mutex_unlock(&open_lock);
    return display;
}

int cx11_take_last_error(cx11_error_record *out) {
    if (!has_last_error) return 0;
    memcpy(out, &last_error, sizeof *out);
    has_last_error = 0;
    return 1;
}
