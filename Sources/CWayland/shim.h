// libwayland-client's headers, from Debian's libwayland-dev (pkg-config: wayland-client). The
// library is not linked: CWaylandProtocols opens libwayland-client.so.0 with dlopen when a
// display is first connected (cwayland_library.c), so runs that never speak Wayland load neither
// it nor libffi.
#include <wayland-client.h>
