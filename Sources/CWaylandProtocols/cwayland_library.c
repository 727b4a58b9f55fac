// libwayland-client, opened with dlopen the first time a display is connected, not linked.
//
// Debian ships libwayland-client only as a shared library, and linking it made every run load it
// and libffi, Wayland session or not: 0.5 ms of every start (a C hello world with and without
// -lwayland-client, median of 300 interleaved runs on the loaded build machine, 1.04 and
// 1.57 ms), most of all on the X11 hotkey path, which never speaks Wayland. So paste's binary
// names no libwayland symbol: this file defines, with hidden visibility, the few functions of
// wayland-client-core.h that paste calls, each a call through a pointer that
// `wl_display_connect` fills (dlsym) on its first call, and the three core interfaces paste
// refers to (wl_registry, wl_callback, wl_seat), copied from the library's own once it is open.
// The data-control requests are marshalled with `wl_proxy_marshal_array_flags`
// (cwayland_data_control.c): the variadic marshaller cannot be forwarded from C.
//
// This file includes only wayland-client-core.h: wayland-client-protocol.h declares the core
// interfaces `const`, and here they are written once, at open, before any proxy refers to them.
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <wayland-client-core.h>

#define CWAYLAND_HIDDEN __attribute__((visibility("hidden")))

/// The library as Debian installs it (libwayland-client0).
static const char cwayland_library_name[] = "libwayland-client.so.0";

CWAYLAND_HIDDEN struct wl_interface wl_registry_interface;
CWAYLAND_HIDDEN struct wl_interface wl_callback_interface;
CWAYLAND_HIDDEN struct wl_interface wl_seat_interface;

static struct {
    struct wl_display *(*display_connect)(const char *);
    void (*display_disconnect)(struct wl_display *);
    int (*display_get_fd)(struct wl_display *);
    int (*display_dispatch_pending)(struct wl_display *);
    int (*display_get_error)(struct wl_display *);
    int (*display_flush)(struct wl_display *);
    int (*display_prepare_read)(struct wl_display *);
    void (*display_cancel_read)(struct wl_display *);
    int (*display_read_events)(struct wl_display *);
    void (*proxy_destroy)(struct wl_proxy *);
    int (*proxy_add_listener)(struct wl_proxy *, void (**)(void), void *);
    uint32_t (*proxy_get_version)(struct wl_proxy *);
    struct wl_proxy *(*proxy_marshal_array_flags)(
        struct wl_proxy *, uint32_t, const struct wl_interface *, uint32_t, uint32_t, union wl_argument *);
} cwayland;

static pthread_once_t cwayland_once = PTHREAD_ONCE_INIT;
static int cwayland_opened; // 1 once every symbol was found

static int cwayland_copy_interface(void *library, const char *name, struct wl_interface *copy) {
    const struct wl_interface *original = dlsym(library, name);
    if (original == NULL) return 0;
    memcpy(copy, original, sizeof *copy);
    return 1;
}

#define CWAYLAND_SYMBOL(field, name)                                                                                   \
    if ((*(void **)&cwayland.field = dlsym(library, name)) == NULL) return;

static void cwayland_open(void) {
    void *library = dlopen(cwayland_library_name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    CWAYLAND_SYMBOL(display_connect, "wl_display_connect")
    CWAYLAND_SYMBOL(display_disconnect, "wl_display_disconnect")
    CWAYLAND_SYMBOL(display_get_fd, "wl_display_get_fd")
    CWAYLAND_SYMBOL(display_dispatch_pending, "wl_display_dispatch_pending")
    CWAYLAND_SYMBOL(display_get_error, "wl_display_get_error")
    CWAYLAND_SYMBOL(display_flush, "wl_display_flush")
    CWAYLAND_SYMBOL(display_prepare_read, "wl_display_prepare_read")
    CWAYLAND_SYMBOL(display_cancel_read, "wl_display_cancel_read")
    CWAYLAND_SYMBOL(display_read_events, "wl_display_read_events")
    CWAYLAND_SYMBOL(proxy_destroy, "wl_proxy_destroy")
    CWAYLAND_SYMBOL(proxy_add_listener, "wl_proxy_add_listener")
    CWAYLAND_SYMBOL(proxy_get_version, "wl_proxy_get_version")
    CWAYLAND_SYMBOL(proxy_marshal_array_flags, "wl_proxy_marshal_array_flags")
    if (!cwayland_copy_interface(library, "wl_registry_interface", &wl_registry_interface)) return;
    if (!cwayland_copy_interface(library, "wl_callback_interface", &wl_callback_interface)) return;
    if (!cwayland_copy_interface(library, "wl_seat_interface", &wl_seat_interface)) return;
    cwayland_opened = 1;
}

/// Opens the library on the first call; NULL with errno ELIBACC when it cannot be opened (or
/// lacks a symbol: libwayland older than 1.20), else the library's own `wl_display_connect`.
CWAYLAND_HIDDEN struct wl_display *wl_display_connect(const char *name) {
    pthread_once(&cwayland_once, cwayland_open);
    if (!cwayland_opened) {
        errno = ELIBACC;
        return NULL;
    }
    return cwayland.display_connect(name);
}

// Every other function is reached only through a display that `wl_display_connect` made.
CWAYLAND_HIDDEN void wl_display_disconnect(struct wl_display *display) { cwayland.display_disconnect(display); }
CWAYLAND_HIDDEN int wl_display_get_fd(struct wl_display *display) { return cwayland.display_get_fd(display); }
CWAYLAND_HIDDEN int wl_display_dispatch_pending(struct wl_display *display) {
    return cwayland.display_dispatch_pending(display);
}
CWAYLAND_HIDDEN int wl_display_get_error(struct wl_display *display) { return cwayland.display_get_error(display); }
CWAYLAND_HIDDEN int wl_display_flush(struct wl_display *display) { return cwayland.display_flush(display); }
CWAYLAND_HIDDEN int wl_display_prepare_read(struct wl_display *display) {
    return cwayland.display_prepare_read(display);
}
CWAYLAND_HIDDEN void wl_display_cancel_read(struct wl_display *display) { cwayland.display_cancel_read(display); }
CWAYLAND_HIDDEN int wl_display_read_events(struct wl_display *display) { return cwayland.display_read_events(display); }
CWAYLAND_HIDDEN void wl_proxy_destroy(struct wl_proxy *proxy) { cwayland.proxy_destroy(proxy); }
CWAYLAND_HIDDEN int wl_proxy_add_listener(struct wl_proxy *proxy, void (**implementation)(void), void *data) {
    return cwayland.proxy_add_listener(proxy, implementation, data);
}
CWAYLAND_HIDDEN uint32_t wl_proxy_get_version(struct wl_proxy *proxy) { return cwayland.proxy_get_version(proxy); }
CWAYLAND_HIDDEN struct wl_proxy *wl_proxy_marshal_array_flags(
    struct wl_proxy *proxy, uint32_t opcode, const struct wl_interface *interface, uint32_t version, uint32_t flags,
    union wl_argument *args) {
    return cwayland.proxy_marshal_array_flags(proxy, opcode, interface, version, flags, args);
}
