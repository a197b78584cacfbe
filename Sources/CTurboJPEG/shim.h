// libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev), for the MJPEG frames USB cameras send.
#include <turbojpeg.h>
