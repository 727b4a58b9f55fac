// glibc's allocator tuning (mallopt), which Swift's Glibc module does not bring in.
#include <malloc.h>
