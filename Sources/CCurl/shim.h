// The libcurl headers, from Debian's libcurl4-openssl-dev (pkg-config: libcurl).
#include <curl/curl.h>
