// The libqrencode header, from Debian's libqrencode-dev: its types only. paste does not link
// libqrencode (Debian ships it only as a shared library, which every start would load for an
// option few runs use); QRInterop opens libqrencode.so.4 with dlopen when --qr asks for a code.
#include <qrencode.h>
