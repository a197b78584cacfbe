// See CV4L2.h.
#include "CV4L2.h"
#include <errno.h>
#include <sys/ioctl.h>

int cv4l2_ioctl(int fd, unsigned long request, void *argument) {
    int result;
    do { result = ioctl(fd, request, argument); } while (result == -1 && errno == EINTR);
    return result == -1 ? -errno : 0;
}
