// libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev), for reading still pictures' codes.
#include <turbojpeg.h>
