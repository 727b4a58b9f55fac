// giflib 5.2, from Debian's libgif-dev, for the thumbnail of an uploaded GIF (its first frame).
// Its low-level reading API (DGifGetRecordType, DGifGetImageDesc, DGifGetLine) returns error
// codes and reads through a callback (DGifOpen's InputFunc), so the file is read from memory and
// only the first frame is decoded, after its size is checked (DGifSlurp would hold every frame).
// libgif.a is linked (`imageLinking` in Package.swift).
#include <gif_lib.h>
