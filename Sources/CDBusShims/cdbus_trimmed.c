// The libdbus that paste links is Debian's own static libdbus-1.a (see Package.swift), chosen over
// sd-bus because Debian ships libsystemd only as a shared library, and loading it brings six more
// (libcap, libgcrypt, libgpg-error, liblzma, libzstd, liblz4) into every start of paste, even
// `paste --version`. Debian's libdbus is built with systemd support, and its archive names two
// libsystemd functions: sd_listen_fds and sd_is_socket, which only a DBusServer listening on a
// "systemd:" address calls (_dbus_listen_systemd_sockets in dbus-sysdeps-unix.c). paste is only
// ever a client of the session bus, so these definitions answer them with "no sockets passed"
// and "not a socket", as libsystemd itself does outside a socket-activated service. The set is
// exactly what the linker reports missing; an archive that names more fails to link (then build
// with PASTE_LINK=dynamic).

#include "cdbus_shims.h"

#ifndef PASTE_LINK_DYNAMIC

int sd_listen_fds(int unset_environment) {
    (void)unset_environment;
    return 0;  // no descriptors were passed (what libsystemd returns without $LISTEN_FDS)
}

int sd_is_socket(int fd, int family, int type, int listening) {
    (void)fd; (void)family; (void)type; (void)listening;
    return 0;  // not a socket of that kind
}

#endif
