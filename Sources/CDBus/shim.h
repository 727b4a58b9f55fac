// The libdbus headers, from Debian's libdbus-1-dev (pkg-config: dbus-1). Their folders are not on
// the default include path (/usr/include/dbus-1.0 and the architecture's dbus-1.0/include, for
// dbus-arch-deps.h): Package.swift passes both, as `pkg-config --cflags dbus-1` names them.
#include <dbus/dbus.h>
