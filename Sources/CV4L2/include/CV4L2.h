// The V4L2 ioctls the camera backend uses, as C functions Swift can call
// (the request numbers are macros Swift cannot import). Kernel UAPI: linux/videodev2.h.
#ifndef CV4L2_H
#define CV4L2_H
#include <linux/videodev2.h>
#include <stdint.h>

/// Calls ioctl, retrying when interrupted; returns 0 or -errno.
int cv4l2_ioctl(int fd, unsigned long request, void *argument);

static inline unsigned long cv4l2_querycap(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long cv4l2_enum_fmt(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long cv4l2_enum_framesizes(void) { return VIDIOC_ENUM_FRAMESIZES; }
static inline unsigned long cv4l2_enum_frameintervals(void) { return VIDIOC_ENUM_FRAMEINTERVALS; }
static inline unsigned long cv4l2_g_fmt(void) { return VIDIOC_G_FMT; }
static inline unsigned long cv4l2_s_fmt(void) { return VIDIOC_S_FMT; }
static inline unsigned long cv4l2_g_parm(void) { return VIDIOC_G_PARM; }
static inline unsigned long cv4l2_s_parm(void) { return VIDIOC_S_PARM; }
static inline unsigned long cv4l2_reqbufs(void) { return VIDIOC_REQBUFS; }
static inline unsigned long cv4l2_querybuf(void) { return VIDIOC_QUERYBUF; }
static inline unsigned long cv4l2_qbuf(void) { return VIDIOC_QBUF; }
static inline unsigned long cv4l2_dqbuf(void) { return VIDIOC_DQBUF; }
static inline unsigned long cv4l2_streamon(void) { return VIDIOC_STREAMON; }
static inline unsigned long cv4l2_streamoff(void) { return VIDIOC_STREAMOFF; }
static inline unsigned long cv4l2_query_ext_ctrl(void) { return VIDIOC_QUERY_EXT_CTRL; }
static inline unsigned long cv4l2_querymenu(void) { return VIDIOC_QUERYMENU; }
static inline unsigned long cv4l2_g_ctrl(void) { return VIDIOC_G_CTRL; }
static inline unsigned long cv4l2_s_ctrl(void) { return VIDIOC_S_CTRL; }

/// The control ID flag that asks for the next control.
static inline uint32_t cv4l2_ctrl_flag_next(void) { return V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND; }

/// A four-character pixel format code, as V4L2 builds them.
static inline uint32_t cv4l2_fourcc(char a, char b, char c, char d) { return v4l2_fourcc(a, b, c, d); }
#endif
