// OpenSSL's libcrypto digests, from Debian's libssl-dev (pkg-config: libcrypto). libcurl already
// loads libcrypto, so using it costs no start-up time; its SHA-256 uses the CPU's SHA
// instructions (about 1.8 GB/s here, against about 0.5 GB/s for PasteCore's portable one).
#include <openssl/evp.h>
