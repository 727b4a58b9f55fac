// X11Interop: see README.md for this module's role.
