// SPDX-License-Identifier: GPL-2.0
// lafcam: a V4L2 capture node with the camera-class controls USB (UVC) cameras expose
// (focus, exposure, white balance, zoom), for testing how LinuxAVFoundation maps them.
// It streams nothing; vivid and v4l2loopback cover streaming. Built for the test VM's kernel.
#include <linux/module.h>
#include <linux/mutex.h>
#include <media/v4l2-device.h>
#include <media/v4l2-dev.h>
#include <media/v4l2-ioctl.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-fh.h>
#include <media/v4l2-event.h>

static struct v4l2_device lafcam_v4l2;
static struct video_device lafcam_video;
static struct v4l2_ctrl_handler lafcam_controls;
static DEFINE_MUTEX(lafcam_lock);

static int lafcam_s_ctrl(struct v4l2_ctrl *ctrl) { return 0; }  // values are kept by the control framework
static const struct v4l2_ctrl_ops lafcam_ctrl_ops = { .s_ctrl = lafcam_s_ctrl };

static void lafcam_format(struct v4l2_pix_format *pix)
{
	pix->width = 640;
	pix->height = 480;
	pix->pixelformat = V4L2_PIX_FMT_YUYV;
	pix->field = V4L2_FIELD_NONE;
	pix->bytesperline = 1280;
	pix->sizeimage = 1280 * 480;
	pix->colorspace = V4L2_COLORSPACE_SRGB;
}

static int lafcam_querycap(struct file *file, void *fh, struct v4l2_capability *cap)
{
	strscpy(cap->driver, "lafcam", sizeof(cap->driver));
	strscpy(cap->card, "Controls Camera", sizeof(cap->card));
	strscpy(cap->bus_info, "platform:lafcam", sizeof(cap->bus_info));
	return 0;
}

static int lafcam_enum_fmt(struct file *file, void *fh, struct v4l2_fmtdesc *f)
{
	if (f->index > 0)
		return -EINVAL;
	f->pixelformat = V4L2_PIX_FMT_YUYV;
	return 0;
}

static int lafcam_fmt(struct file *file, void *fh, struct v4l2_format *f)
{
	lafcam_format(&f->fmt.pix);
	return 0;
}

static int lafcam_enum_framesizes(struct file *file, void *fh, struct v4l2_frmsizeenum *fsize)
{
	if (fsize->index > 0 || fsize->pixel_format != V4L2_PIX_FMT_YUYV)
		return -EINVAL;
	fsize->type = V4L2_FRMSIZE_TYPE_DISCRETE;
	fsize->discrete.width = 640;
	fsize->discrete.height = 480;
	return 0;
}

static int lafcam_enum_frameintervals(struct file *file, void *fh, struct v4l2_frmivalenum *fival)
{
	if (fival->index > 0 || fival->pixel_format != V4L2_PIX_FMT_YUYV || fival->width != 640 || fival->height != 480)
		return -EINVAL;
	fival->type = V4L2_FRMIVAL_TYPE_DISCRETE;
	fival->discrete.numerator = 1;
	fival->discrete.denominator = 30;
	return 0;
}

static int lafcam_enum_input(struct file *file, void *fh, struct v4l2_input *input)
{
	if (input->index > 0)
		return -EINVAL;
	input->type = V4L2_INPUT_TYPE_CAMERA;
	strscpy(input->name, "Camera", sizeof(input->name));
	return 0;
}

static int lafcam_g_input(struct file *file, void *fh, unsigned int *index) { *index = 0; return 0; }
static int lafcam_s_input(struct file *file, void *fh, unsigned int index) { return index ? -EINVAL : 0; }

static const struct v4l2_ioctl_ops lafcam_ioctl_ops = {
	.vidioc_querycap = lafcam_querycap,
	.vidioc_enum_fmt_vid_cap = lafcam_enum_fmt,
	.vidioc_g_fmt_vid_cap = lafcam_fmt,
	.vidioc_s_fmt_vid_cap = lafcam_fmt,
	.vidioc_try_fmt_vid_cap = lafcam_fmt,
	.vidioc_enum_framesizes = lafcam_enum_framesizes,
	.vidioc_enum_frameintervals = lafcam_enum_frameintervals,
	.vidioc_enum_input = lafcam_enum_input,
	.vidioc_g_input = lafcam_g_input,
	.vidioc_s_input = lafcam_s_input,
	.vidioc_subscribe_event = v4l2_ctrl_subscribe_event,
	.vidioc_unsubscribe_event = v4l2_event_unsubscribe,
};

static const struct v4l2_file_operations lafcam_fops = {
	.owner = THIS_MODULE,
	.open = v4l2_fh_open,
	.release = v4l2_fh_release,
	.unlocked_ioctl = video_ioctl2,
};

static int __init lafcam_init(void)
{
	struct v4l2_ctrl_handler *h = &lafcam_controls;
	int ret;

	strscpy(lafcam_v4l2.name, "lafcam", sizeof(lafcam_v4l2.name));
	ret = v4l2_device_register(NULL, &lafcam_v4l2);
	if (ret)
		return ret;
	v4l2_ctrl_handler_init(h, 8);
	// As a typical UVC camera: continuous autofocus or a manual lens position; exposure in
	// aperture-priority (auto) or manual mode with an absolute time in 100 us units; automatic
	// or fixed white balance with a temperature; an optical zoom.
	v4l2_ctrl_new_std(h, &lafcam_ctrl_ops, V4L2_CID_FOCUS_AUTO, 0, 1, 1, 1);
	v4l2_ctrl_new_std(h, &lafcam_ctrl_ops, V4L2_CID_FOCUS_ABSOLUTE, 0, 250, 5, 0);
	v4l2_ctrl_new_std_menu(h, &lafcam_ctrl_ops, V4L2_CID_EXPOSURE_AUTO, V4L2_EXPOSURE_APERTURE_PRIORITY,
			       ~((1 << V4L2_EXPOSURE_MANUAL) | (1 << V4L2_EXPOSURE_APERTURE_PRIORITY)), V4L2_EXPOSURE_APERTURE_PRIORITY);
	v4l2_ctrl_new_std(h, &lafcam_ctrl_ops, V4L2_CID_EXPOSURE_ABSOLUTE, 3, 2047, 1, 250);
	v4l2_ctrl_new_std(h, &lafcam_ctrl_ops, V4L2_CID_AUTO_WHITE_BALANCE, 0, 1, 1, 1);
	v4l2_ctrl_new_std(h, &lafcam_ctrl_ops, V4L2_CID_WHITE_BALANCE_TEMPERATURE, 2800, 6500, 10, 4600);
	v4l2_ctrl_new_std(h, &lafcam_ctrl_ops, V4L2_CID_ZOOM_ABSOLUTE, 100, 500, 1, 100);
	if (h->error) {
		ret = h->error;
		goto fail;
	}
	lafcam_video.v4l2_dev = &lafcam_v4l2;
	lafcam_video.fops = &lafcam_fops;
	lafcam_video.ioctl_ops = &lafcam_ioctl_ops;
	lafcam_video.ctrl_handler = h;
	lafcam_video.lock = &lafcam_lock;
	lafcam_video.release = video_device_release_empty;
	lafcam_video.vfl_dir = VFL_DIR_RX;
	lafcam_video.device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
	strscpy(lafcam_video.name, "Controls Camera", sizeof(lafcam_video.name));
	ret = video_register_device(&lafcam_video, VFL_TYPE_VIDEO, 30);
	if (ret)
		goto fail;
	return 0;
fail:
	v4l2_ctrl_handler_free(h);
	v4l2_device_unregister(&lafcam_v4l2);
	return ret;
}

static void __exit lafcam_exit(void)
{
	video_unregister_device(&lafcam_video);
	v4l2_ctrl_handler_free(&lafcam_controls);
	v4l2_device_unregister(&lafcam_v4l2);
}

module_init(lafcam_init);
module_exit(lafcam_exit);
MODULE_DESCRIPTION("A V4L2 node with a UVC camera's controls, for tests");
MODULE_LICENSE("GPL");
