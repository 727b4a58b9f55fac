// One code path for the two data-control protocols (see ../../../protocols/).
//
// ext-data-control-v1 and wlr-data-control-unstable-v1 have the same shape: the same four
// interfaces with the same requests and events, in the same order, with the same arguments.
// Only the interface names differ. So every call here takes the protocol's interface table
// (`cwayland_data_control_protocol`) and an untyped `struct wl_proxy *`, and marshals the
// request by its opcode, which both protocols share (the generated headers' opcode macros are
// asserted equal below). Why shims at all: the generated request functions are typed per
// protocol, and they call `wl_proxy_marshal_flags`, which is variadic (Swift cannot call it).
#ifndef CWAYLAND_DATA_CONTROL_H
#define CWAYLAND_DATA_CONTROL_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-client.h>

#include "ext-data-control-v1-client-protocol.h"
#include "wlr-data-control-unstable-v1-client-protocol.h"

/// The interfaces of one data-control protocol.
struct cwayland_data_control_protocol {
    const struct wl_interface *manager;
    const struct wl_interface *device;
    const struct wl_interface *source;
    const struct wl_interface *offer;
};

/// ext-data-control-v1 (`ext_data_control_manager_v1`, wayland-protocols 1.39 on). A function,
/// not an extern constant: Swift can take a C constant's address only through `inout`.
const struct cwayland_data_control_protocol *cwayland_data_control_ext(void);
/// wlr-data-control-unstable-v1 (`zwlr_data_control_manager_v1`, wlroots and KDE).
const struct cwayland_data_control_protocol *cwayland_data_control_wlr(void);

/// A device's events, whichever protocol made it (the generated listener structs are typed
/// per protocol; their layouts are these).
struct cwayland_device_listener {
    void (*data_offer)(void *data, struct wl_proxy *device, struct wl_proxy *offer);
    void (*selection)(void *data, struct wl_proxy *device, struct wl_proxy *offer);
    void (*finished)(void *data, struct wl_proxy *device);
    void (*primary_selection)(void *data, struct wl_proxy *device, struct wl_proxy *offer);
};

/// An offer's events.
struct cwayland_offer_listener {
    void (*offer)(void *data, struct wl_proxy *offer, const char *mime_type);
};

/// A source's events.
struct cwayland_source_listener {
    void (*send)(void *data, struct wl_proxy *source, const char *mime_type, int32_t fd);
    void (*cancelled)(void *data, struct wl_proxy *source);
};

/// A registry's events, typed over `wl_proxy` like the rest (layout of `wl_registry_listener`).
struct cwayland_registry_listener {
    void (*global)(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version);
    void (*global_remove)(void *data, struct wl_proxy *registry, uint32_t name);
};

/// A callback's one event (layout of `wl_callback_listener`).
struct cwayland_callback_listener {
    void (*done)(void *data, struct wl_proxy *callback, uint32_t callback_data);
};

/// `wl_display_get_registry` (inline over the variadic marshaller).
struct wl_proxy *cwayland_display_get_registry(struct wl_display *display);
/// `wl_display_sync`.
struct wl_proxy *cwayland_display_sync(struct wl_display *display);
/// `wl_registry_bind` of `interface` at `version`.
struct wl_proxy *cwayland_registry_bind(
    struct wl_proxy *registry, uint32_t name, const struct wl_interface *interface, uint32_t version);
/// `wl_seat_interface`, the one core interface bound here.
const struct wl_interface *cwayland_seat_interface(void);

/// `wl_proxy_add_listener` for each listener shape: 0, or -1 when one is set already.
int cwayland_registry_add_listener(struct wl_proxy *registry, const struct cwayland_registry_listener *listener, void *data);
int cwayland_callback_add_listener(struct wl_proxy *callback, const struct cwayland_callback_listener *listener, void *data);
int cwayland_device_add_listener(struct wl_proxy *device, const struct cwayland_device_listener *listener, void *data);
int cwayland_offer_add_listener(struct wl_proxy *offer, const struct cwayland_offer_listener *listener, void *data);
int cwayland_source_add_listener(struct wl_proxy *source, const struct cwayland_source_listener *listener, void *data);

/// `…_manager_v1.create_data_source`.
struct wl_proxy *cwayland_manager_create_source(
    struct wl_proxy *manager, const struct cwayland_data_control_protocol *protocol);
/// `…_manager_v1.get_data_device` for `seat`.
struct wl_proxy *cwayland_manager_get_device(
    struct wl_proxy *manager, const struct cwayland_data_control_protocol *protocol, struct wl_proxy *seat);
/// `…_device_v1.set_selection` (or `set_primary_selection` when `primary`); `source` may be NULL.
void cwayland_device_set_selection(struct wl_proxy *device, struct wl_proxy *source, bool primary);
/// `…_source_v1.offer`.
void cwayland_source_offer(struct wl_proxy *source, const char *mime_type);
/// `…_offer_v1.receive`: the owner writes the data to `fd` (which stays the caller's to close).
void cwayland_offer_receive(struct wl_proxy *offer, const char *mime_type, int32_t fd);
/// The `destroy` request of a manager, device, source or offer (opcode 1 for device, source
/// and offer, 2 for the manager), then the proxy is freed.
void cwayland_manager_destroy(struct wl_proxy *manager);
void cwayland_device_destroy(struct wl_proxy *device);
void cwayland_source_destroy(struct wl_proxy *source);
void cwayland_offer_destroy(struct wl_proxy *offer);

#endif
