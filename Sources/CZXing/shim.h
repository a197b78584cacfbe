// ZXing-C++ 3's C API: barcode reading and writing (built by scripts/build-zxing.sh).
#include <ZXing/ZXingC.h>
#include <ZXing/Version.h>
#if ZXING_VERSION_MAJOR < 3
#error "LinuxAVFoundation needs ZXing-C++ 3 (scripts/build-zxing.sh builds it); Debian's 1.4 aborts on multi-code reads"
#endif
