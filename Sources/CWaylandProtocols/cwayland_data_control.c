// See include/cwayland_data_control.h for why these shims exist.
#include "cwayland_data_control.h"

// Both protocols put every request at the same opcode: what makes one code path correct.
_Static_assert(EXT_DATA_CONTROL_MANAGER_V1_CREATE_DATA_SOURCE == ZWLR_DATA_CONTROL_MANAGER_V1_CREATE_DATA_SOURCE, "");
_Static_assert(EXT_DATA_CONTROL_MANAGER_V1_GET_DATA_DEVICE == ZWLR_DATA_CONTROL_MANAGER_V1_GET_DATA_DEVICE, "");
_Static_assert(EXT_DATA_CONTROL_MANAGER_V1_DESTROY == ZWLR_DATA_CONTROL_MANAGER_V1_DESTROY, "");
_Static_assert(EXT_DATA_CONTROL_DEVICE_V1_SET_SELECTION == ZWLR_DATA_CONTROL_DEVICE_V1_SET_SELECTION, "");
_Static_assert(EXT_DATA_CONTROL_DEVICE_V1_SET_PRIMARY_SELECTION == ZWLR_DATA_CONTROL_DEVICE_V1_SET_PRIMARY_SELECTION, "");
_Static_assert(EXT_DATA_CONTROL_DEVICE_V1_DESTROY == ZWLR_DATA_CONTROL_DEVICE_V1_DESTROY, "");
_Static_assert(EXT_DATA_CONTROL_SOURCE_V1_OFFER == ZWLR_DATA_CONTROL_SOURCE_V1_OFFER, "");
_Static_assert(EXT_DATA_CONTROL_SOURCE_V1_DESTROY == ZWLR_DATA_CONTROL_SOURCE_V1_DESTROY, "");
_Static_assert(EXT_DATA_CONTROL_OFFER_V1_RECEIVE == ZWLR_DATA_CONTROL_OFFER_V1_RECEIVE, "");
_Static_assert(EXT_DATA_CONTROL_OFFER_V1_DESTROY == ZWLR_DATA_CONTROL_OFFER_V1_DESTROY, "");

static const struct cwayland_data_control_protocol ext_protocol = {
    &ext_data_control_manager_v1_interface, &ext_data_control_device_v1_interface,
    &ext_data_control_source_v1_interface, &ext_data_control_offer_v1_interface};
static const struct cwayland_data_control_protocol wlr_protocol = {
    &zwlr_data_control_manager_v1_interface, &zwlr_data_control_device_v1_interface,
    &zwlr_data_control_source_v1_interface, &zwlr_data_control_offer_v1_interface};

const struct cwayland_data_control_protocol *cwayland_data_control_ext(void) { return &ext_protocol; }
const struct cwayland_data_control_protocol *cwayland_data_control_wlr(void) { return &wlr_protocol; }

// Every request is marshalled with `wl_proxy_marshal_array_flags`, its arguments in an array in
// the order of the request's signature (a new_id's slot is filled by libwayland), not with the
// variadic `wl_proxy_marshal_flags` that the generated inline functions call: libwayland is
// opened at run time (cwayland_library.c), and a variadic call cannot be forwarded.

struct wl_proxy *cwayland_display_get_registry(struct wl_display *display) {
    struct wl_proxy *proxy = (struct wl_proxy *)display;
    union wl_argument args[] = {{.o = NULL}}; // "n"
    return wl_proxy_marshal_array_flags(
        proxy, WL_DISPLAY_GET_REGISTRY, &wl_registry_interface, wl_proxy_get_version(proxy), 0, args);
}

struct wl_proxy *cwayland_display_sync(struct wl_display *display) {
    struct wl_proxy *proxy = (struct wl_proxy *)display;
    union wl_argument args[] = {{.o = NULL}}; // "n"
    return wl_proxy_marshal_array_flags(proxy, WL_DISPLAY_SYNC, &wl_callback_interface, wl_proxy_get_version(proxy), 0, args);
}

struct wl_proxy *cwayland_registry_bind(
    struct wl_proxy *registry, uint32_t name, const struct wl_interface *interface, uint32_t version) {
    union wl_argument args[] = {{.u = name}, {.s = interface->name}, {.u = version}, {.o = NULL}}; // "usun"
    return wl_proxy_marshal_array_flags(registry, WL_REGISTRY_BIND, interface, version, 0, args);
}

const struct wl_interface *cwayland_seat_interface(void) { return &wl_seat_interface; }

int cwayland_registry_add_listener(struct wl_proxy *registry, const struct cwayland_registry_listener *listener, void *data) {
    return wl_proxy_add_listener(registry, (void (**)(void))listener, data);
}
int cwayland_callback_add_listener(struct wl_proxy *callback, const struct cwayland_callback_listener *listener, void *data) {
    return wl_proxy_add_listener(callback, (void (**)(void))listener, data);
}
int cwayland_device_add_listener(struct wl_proxy *device, const struct cwayland_device_listener *listener, void *data) {
    return wl_proxy_add_listener(device, (void (**)(void))listener, data);
}
int cwayland_offer_add_listener(struct wl_proxy *offer, const struct cwayland_offer_listener *listener, void *data) {
    return wl_proxy_add_listener(offer, (void (**)(void))listener, data);
}
int cwayland_source_add_listener(struct wl_proxy *source, const struct cwayland_source_listener *listener, void *data) {
    return wl_proxy_add_listener(source, (void (**)(void))listener, data);
}

struct wl_proxy *cwayland_manager_create_source(
    struct wl_proxy *manager, const struct cwayland_data_control_protocol *protocol) {
    union wl_argument args[] = {{.o = NULL}}; // "n"
    return wl_proxy_marshal_array_flags(
        manager, ZWLR_DATA_CONTROL_MANAGER_V1_CREATE_DATA_SOURCE, protocol->source, wl_proxy_get_version(manager), 0,
        args);
}

struct wl_proxy *cwayland_manager_get_device(
    struct wl_proxy *manager, const struct cwayland_data_control_protocol *protocol, struct wl_proxy *seat) {
    union wl_argument args[] = {{.o = NULL}, {.o = (struct wl_object *)seat}}; // "no"
    return wl_proxy_marshal_array_flags(
        manager, ZWLR_DATA_CONTROL_MANAGER_V1_GET_DATA_DEVICE, protocol->device, wl_proxy_get_version(manager), 0,
        args);
}

void cwayland_device_set_selection(struct wl_proxy *device, struct wl_proxy *source, bool primary) {
    uint32_t opcode =
        primary ? ZWLR_DATA_CONTROL_DEVICE_V1_SET_PRIMARY_SELECTION : ZWLR_DATA_CONTROL_DEVICE_V1_SET_SELECTION;
    union wl_argument args[] = {{.o = (struct wl_object *)source}}; // "?o"
    wl_proxy_marshal_array_flags(device, opcode, NULL, wl_proxy_get_version(device), 0, args);
}

void cwayland_source_offer(struct wl_proxy *source, const char *mime_type) {
    union wl_argument args[] = {{.s = mime_type}}; // "s"
    wl_proxy_marshal_array_flags(source, ZWLR_DATA_CONTROL_SOURCE_V1_OFFER, NULL, wl_proxy_get_version(source), 0, args);
}

void cwayland_offer_receive(struct wl_proxy *offer, const char *mime_type, int32_t fd) {
    union wl_argument args[] = {{.s = mime_type}, {.h = fd}}; // "sh"
    wl_proxy_marshal_array_flags(offer, ZWLR_DATA_CONTROL_OFFER_V1_RECEIVE, NULL, wl_proxy_get_version(offer), 0, args);
}

/// A `destroy` request (no arguments), then the proxy is freed.
static void cwayland_destroy(struct wl_proxy *proxy, uint32_t opcode) {
    union wl_argument none[1] = {{.o = NULL}};
    wl_proxy_marshal_array_flags(proxy, opcode, NULL, wl_proxy_get_version(proxy), WL_MARSHAL_FLAG_DESTROY, none);
}
void cwayland_manager_destroy(struct wl_proxy *manager) { cwayland_destroy(manager, ZWLR_DATA_CONTROL_MANAGER_V1_DESTROY); }
void cwayland_device_destroy(struct wl_proxy *device) { cwayland_destroy(device, ZWLR_DATA_CONTROL_DEVICE_V1_DESTROY); }
void cwayland_source_destroy(struct wl_proxy *source) { cwayland_destroy(source, ZWLR_DATA_CONTROL_SOURCE_V1_DESTROY); }
void cwayland_offer_destroy(struct wl_proxy *offer) { cwayland_destroy(offer, ZWLR_DATA_CONTROL_OFFER_V1_DESTROY); }
