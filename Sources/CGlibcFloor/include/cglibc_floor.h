// CGlibcFloor: paste's own definitions of the few glibc functions newer than glibc 2.34, so the
// binary loads on every glibc distribution of the last four years (RHEL 9 and Ubuntu 22.04 have
// 2.34 and 2.35; issue 39).
//
// Why this target exists: the static archives paste links were built on a newer glibc and call
// functions that glibc only exports at a newer symbol version, and a dynamic symbol's version
// is the oldest glibc that can load the binary:
// - `arc4random` (GLIBC_2.36): libstdc++.a's std::random_device (random.o, GCC 12 built on
//   glibc 2.36), reached from libstdc++'s own cow-string-inst.o in static C++ links;
// - `arc4random_buf` (GLIBC_2.36): libexpat.a (its hash table salt, xmlparse.c), linked for
//   fontconfig (libXdmcp.a's Key.c calls it too, when linked);
// - `hypotf` and `hypot` (GLIBC_2.35: glibc 2.35 gave both a new implementation and a new
//   version): `hypotf` from the Swift Glibc overlay (libswiftGlibc.a), `hypot` from Foundation's
//   CGFloat (libFoundation.a, paste-mock's), both linked by --static-swift-stdlib.
// A definition in an object file on the link line is preferred to a shared library's, so these
// answer those calls, and the binary names no version above GLIBC_2.34. Nothing imports this
// module: the executables only link it (Package.swift). StartupLinkTests fails when any symbol
// version above GLIBC_2.34 comes back.
//
// Not compiled when PASTE_LINK=dynamic: that is a distribution's build, against its own shared
// libraries and glibc, so its floor is that distribution's, and definitions here would only
// interpose on the shared libraries' calls to glibc.
#ifndef CGLIBC_FLOOR_H
#define CGLIBC_FLOOR_H

#include <stddef.h>
#include <stdint.h>

/// glibc's `arc4random` (stdlib.h, glibc >= 2.36): 32 random bits from the kernel
/// (`getrandom(2)`, GLIBC_2.25). Never fails: like glibc's, it aborts when the kernel gives no
/// entropy at all.
uint32_t arc4random(void);

/// glibc's `arc4random_buf` (stdlib.h, glibc >= 2.36): fills `buffer` with `count` random bytes
/// from the kernel, retrying an interrupted or short `getrandom(2)`.
void arc4random_buf(void *buffer, size_t count);

/// C99's `hypotf` (math.h): √(x² + y²) without undue overflow, as glibc 2.35's own computes
/// it: in double precision, where x² + y² of two floats cannot overflow, rounded once to float
/// (`sqrt` is GLIBC_2.2.5; the double `hypot` is GLIBC_2.35 too, so it is not used). ERANGE
/// when the result overflows, as glibc's.
float hypotf(float x, float y);

/// C99's `hypot` (math.h): √(x² + y²) as `hypotf` computes it, one step wider: in long double,
/// rounded once to double (`sqrtl` is GLIBC_2.2.5). ERANGE when the result overflows.
double hypot(double x, double y);

#endif
