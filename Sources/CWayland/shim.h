// libwayland-client, from Debian's libwayland-dev (pkg-config: wayland-client).
#include <wayland-client.h>
