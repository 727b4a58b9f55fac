#ifndef CCURL_SHIMS_H
#define CCURL_SHIMS_H
#include <curl/curl.h>
#endif
