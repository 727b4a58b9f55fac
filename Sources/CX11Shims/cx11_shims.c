#include "cx11_shims.h"
