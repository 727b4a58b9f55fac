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

struct wl_proxy *cwayland_display_get_registry(struct wl_display *display) {
    return (struct wl_proxy *)wl_display_get_registry(display);
}

struct wl_proxy *cwayland_display_sync(struct wl_display *display) {
    return (struct wl_proxy *)wl_display_sync(display);
}

struct wl_proxy *cwayland_registry_bind(
    struct wl_proxy *registry, uint32_t name, const struct wl_interface *interface, uint32_t version) {
    return (struct wl_proxy *)wl_registry_bind((struct wl_registry *)registry, name, interface, version);
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
    return wl_proxy_marshal_flags(
        manager, ZWLR_DATA_CONTROL_MANAGER_V1_CREATE_DATA_SOURCE, protocol->source, wl_proxy_get_version(manager), 0,
        NULL);
}

struct wl_proxy *cwayland_manager_get_device(
    struct wl_proxy *manager, const struct cwayland_data_control_protocol *protocol, struct wl_proxy *seat) {
    return wl_proxy_marshal_flags(
        manager, ZWLR_DATA_CONTROL_MANAGER_V1_GET_DATA_DEVICE, protocol->device, wl_proxy_get_version(manager), 0,
        NULL, seat);
}

void cwayland_device_set_selection(struct wl_proxy *device, struct wl_proxy *source, bool primary) {
    uint32_t opcode =
        primary ? ZWLR_DATA_CONTROL_DEVICE_V1_SET_PRIMARY_SELECTION : ZWLR_DATA_CONTROL_DEVICE_V1_SET_SELECTION;
    wl_proxy_marshal_flags(device, opcode, NULL, wl_proxy_get_version(device), 0, source);
}

void cwayland_source_offer(struct wl_proxy *source, const char *mime_type) {
    wl_proxy_marshal_flags(
        source, ZWLR_DATA_CONTROL_SOURCE_V1_OFFER, NULL, wl_proxy_get_version(source), 0, mime_type);
}

void cwayland_offer_receive(struct wl_proxy *offer, const char *mime_type, int32_t fd) {
    wl_proxy_marshal_flags(
        offer, ZWLR_DATA_CONTROL_OFFER_V1_RECEIVE, NULL, wl_proxy_get_version(offer), 0, mime_type, fd);
}

void cwayland_manager_destroy(struct wl_proxy *manager) {
    wl_proxy_marshal_flags(
        manager, ZWLR_DATA_CONTROL_MANAGER_V1_DESTROY, NULL, wl_proxy_get_version(manager), WL_MARSHAL_FLAG_DESTROY);
}
void cwayland_device_destroy(struct wl_proxy *device) {
    wl_proxy_marshal_flags(
        device, ZWLR_DATA_CONTROL_DEVICE_V1_DESTROY, NULL, wl_proxy_get_version(device), WL_MARSHAL_FLAG_DESTROY);
}
void cwayland_source_destroy(struct wl_proxy *source) {
    wl_proxy_marshal_flags(
        source, ZWLR_DATA_CONTROL_SOURCE_V1_DESTROY, NULL, wl_proxy_get_version(source), WL_MARSHAL_FLAG_DESTROY);
}
void cwayland_offer_destroy(struct wl_proxy *offer) {
    wl_proxy_marshal_flags(
        offer, ZWLR_DATA_CONTROL_OFFER_V1_DESTROY, NULL, wl_proxy_get_version(offer), WL_MARSHAL_FLAG_DESTROY);
}
