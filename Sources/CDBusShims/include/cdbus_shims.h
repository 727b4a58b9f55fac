// CDBusShims holds no wrappers: every libdbus call paste makes is a plain C function Swift calls
// directly (DBusInterop). The target exists to carry how libdbus is linked (Package.swift:
// Debian's static libdbus-1.a by default) and, for that archive, the two libsystemd entry points
// it names (cdbus_trimmed.c). This header only gives the target a public include folder.
#ifndef CDBUS_SHIMS_H
#define CDBUS_SHIMS_H

#endif
