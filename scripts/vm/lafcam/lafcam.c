// SPDX-License-Identifier: GPL-2.0
// lafcam: a V4L2 capture node with the camera-class controls USB (UVC) cameras expose
// (focus, exposure, white balance, zoom) and the flash-class controls of a camera with an LED
// flash, for testing how LinuxAVFoundation maps them. It streams 640x480 YUYV at 30 fps: a
// flat grey picture, brighter while the torch is lit and brightest while the flash is, so a
// test can see in the frames when the light was on. Built for the test VM's kernel.
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/jiffies.h>
#include <media/v4l2-device.h>
#include <media/v4l2-dev.h>
#include <media/v4l2-ioctl.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-fh.h>
#include <media/v4l2-event.h>
#include <media/videobuf2-v4l2.h>
#include <media/videobuf2-vmalloc.h>

static struct v4l2_device lafcam_v4l2;
static struct video_device lafcam_video;
static struct v4l2_ctrl_handler lafcam_controls;
static struct vb2_queue lafcam_queue;
static DEFINE_MUTEX(lafcam_lock);

// The picture's luma (Y'): the room (a test may dim it), with the torch, with the flash.
static int room = 60;
module_param(room, int, 0644);
MODULE_PARM_DESC(room, "the luma of the unlit room, 16-235");
#define LAFCAM_TORCH 150
#define LAFCAM_FLASH 235

// How many times the flash has been strobed, for tests: /sys/module/lafcam/parameters/strobes.
static int strobes;
module_param(strobes, int, 0444);
MODULE_PARM_DESC(strobes, "how many times the flash was strobed");

static struct v4l2_ctrl *lafcam_led_mode;
static struct v4l2_ctrl *lafcam_flash_timeout;
static DEFINE_SPINLOCK(lafcam_flash_lock);
static unsigned long lafcam_flash_until;  // jiffies; the flash is lit before it
static bool lafcam_flash_lit;

static int lafcam_s_ctrl(struct v4l2_ctrl *ctrl)
{
	unsigned long flags;

	// Other values are kept by the control framework.
	switch (ctrl->id) {
	case V4L2_CID_FLASH_STROBE:
		if (lafcam_led_mode->val != V4L2_FLASH_LED_MODE_FLASH)
			return -EBUSY;  // as flash drivers do: strobing needs flash mode
		spin_lock_irqsave(&lafcam_flash_lock, flags);
		lafcam_flash_lit = true;
		lafcam_flash_until = jiffies + usecs_to_jiffies(lafcam_flash_timeout->val);
		spin_unlock_irqrestore(&lafcam_flash_lock, flags);
		strobes++;
		break;
	case V4L2_CID_FLASH_STROBE_STOP:
	case V4L2_CID_FLASH_LED_MODE:
		spin_lock_irqsave(&lafcam_flash_lock, flags);
		lafcam_flash_lit = false;
		spin_unlock_irqrestore(&lafcam_flash_lock, flags);
		break;
	}
	return 0;
}
static const struct v4l2_ctrl_ops lafcam_ctrl_ops = { .s_ctrl = lafcam_s_ctrl };

// The luma of the next frame: lit by the flash while it is strobed, by the torch in torch mode.
static u8 lafcam_luma(void)
{
	unsigned long flags;
	u8 luma = clamp(READ_ONCE(room), 16, 235);
	bool lit = false;

	spin_lock_irqsave(&lafcam_flash_lock, flags);
	if (lafcam_flash_lit && time_before(jiffies, lafcam_flash_until))
		lit = true, luma = LAFCAM_FLASH;
	spin_unlock_irqrestore(&lafcam_flash_lock, flags);
	if (!lit && READ_ONCE(lafcam_led_mode->cur.val) == V4L2_FLASH_LED_MODE_TORCH)
		luma = LAFCAM_TORCH;
	return luma;
}

// Streaming: buffers the client queued wait in a list; a delayed work fills one every 33 ms.
struct lafcam_buffer {
	struct vb2_v4l2_buffer vb;
	struct list_head list;
};
static LIST_HEAD(lafcam_queued);
static DEFINE_SPINLOCK(lafcam_queued_lock);
static struct delayed_work lafcam_frame_work;
static u32 lafcam_sequence;

static void lafcam_produce(struct work_struct *work)
{
	struct lafcam_buffer *buf = NULL;
	unsigned long flags;

	spin_lock_irqsave(&lafcam_queued_lock, flags);
	if (!list_empty(&lafcam_queued)) {
		buf = list_first_entry(&lafcam_queued, struct lafcam_buffer, list);
		list_del(&buf->list);
	}
	spin_unlock_irqrestore(&lafcam_queued_lock, flags);
	if (buf) {
		u16 *pixels = vb2_plane_vaddr(&buf->vb.vb2_buf, 0);
		u16 pair = lafcam_luma() | (128 << 8);  // Y' then a neutral Cb or Cr
		size_t i;

		for (i = 0; i < 640 * 480; i++)
			pixels[i] = pair;
		vb2_set_plane_payload(&buf->vb.vb2_buf, 0, 640 * 480 * 2);
		buf->vb.vb2_buf.timestamp = ktime_get_ns();
		buf->vb.sequence = lafcam_sequence++;
		buf->vb.field = V4L2_FIELD_NONE;
		vb2_buffer_done(&buf->vb.vb2_buf, VB2_BUF_STATE_DONE);
	} else {
		lafcam_sequence++;  // a frame lost: the client held every buffer
	}
	schedule_delayed_work(&lafcam_frame_work, msecs_to_jiffies(33));
}

static int lafcam_queue_setup(struct vb2_queue *q, unsigned int *nbuffers, unsigned int *nplanes,
			      unsigned int sizes[], struct device *alloc_devs[])
{
	if (*nplanes)
		return sizes[0] < 640 * 480 * 2 ? -EINVAL : 0;
	*nplanes = 1;
	sizes[0] = 640 * 480 * 2;
	return 0;
}

static void lafcam_buf_queue(struct vb2_buffer *vb)
{
	struct lafcam_buffer *buf = container_of(to_vb2_v4l2_buffer(vb), struct lafcam_buffer, vb);
	unsigned long flags;

	spin_lock_irqsave(&lafcam_queued_lock, flags);
	list_add_tail(&buf->list, &lafcam_queued);
	spin_unlock_irqrestore(&lafcam_queued_lock, flags);
}

static void lafcam_return_all(enum vb2_buffer_state state)
{
	struct lafcam_buffer *buf, *next;
	unsigned long flags;

	spin_lock_irqsave(&lafcam_queued_lock, flags);
	list_for_each_entry_safe(buf, next, &lafcam_queued, list) {
		list_del(&buf->list);
		vb2_buffer_done(&buf->vb.vb2_buf, state);
	}
	spin_unlock_irqrestore(&lafcam_queued_lock, flags);
}

static int lafcam_start_streaming(struct vb2_queue *q, unsigned int count)
{
	lafcam_sequence = 0;
	schedule_delayed_work(&lafcam_frame_work, msecs_to_jiffies(33));
	return 0;
}

static void lafcam_stop_streaming(struct vb2_queue *q)
{
	cancel_delayed_work_sync(&lafcam_frame_work);
	lafcam_return_all(VB2_BUF_STATE_ERROR);
}

static const struct vb2_ops lafcam_vb2_ops = {
	.queue_setup = lafcam_queue_setup,
	.buf_queue = lafcam_buf_queue,
	.start_streaming = lafcam_start_streaming,
	.stop_streaming = lafcam_stop_streaming,
	.wait_prepare = vb2_ops_wait_prepare,
	.wait_finish = vb2_ops_wait_finish,
};

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
	.vidioc_reqbufs = vb2_ioctl_reqbufs,
	.vidioc_create_bufs = vb2_ioctl_create_bufs,
	.vidioc_querybuf = vb2_ioctl_querybuf,
	.vidioc_qbuf = vb2_ioctl_qbuf,
	.vidioc_dqbuf = vb2_ioctl_dqbuf,
	.vidioc_expbuf = vb2_ioctl_expbuf,
	.vidioc_streamon = vb2_ioctl_streamon,
	.vidioc_streamoff = vb2_ioctl_streamoff,
	.vidioc_subscribe_event = v4l2_ctrl_subscribe_event,
	.vidioc_unsubscribe_event = v4l2_event_unsubscribe,
};

static const struct v4l2_file_operations lafcam_fops = {
	.owner = THIS_MODULE,
	.open = v4l2_fh_open,
	.release = vb2_fop_release,
	.unlocked_ioctl = video_ioctl2,
	.mmap = vb2_fop_mmap,
	.poll = vb2_fop_poll,
};

static int __init lafcam_init(void)
{
	struct v4l2_ctrl_handler *h = &lafcam_controls;
	int ret;

	strscpy(lafcam_v4l2.name, "lafcam", sizeof(lafcam_v4l2.name));
	ret = v4l2_device_register(NULL, &lafcam_v4l2);
	if (ret)
		return ret;
	v4l2_ctrl_handler_init(h, 14);
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
	// As an LED flash driver (v4l2-flash-led-class): off, flash or torch; a software strobe
	// that lights the flash until its timeout or a stop; the torch's intensity.
	lafcam_led_mode = v4l2_ctrl_new_std_menu(h, &lafcam_ctrl_ops, V4L2_CID_FLASH_LED_MODE, V4L2_FLASH_LED_MODE_TORCH, 0,
						 V4L2_FLASH_LED_MODE_NONE);
	v4l2_ctrl_new_std_menu(h, &lafcam_ctrl_ops, V4L2_CID_FLASH_STROBE_SOURCE, V4L2_FLASH_STROBE_SOURCE_SOFTWARE,
			       ~(1 << V4L2_FLASH_STROBE_SOURCE_SOFTWARE), V4L2_FLASH_STROBE_SOURCE_SOFTWARE);
	v4l2_ctrl_new_std(h, &lafcam_ctrl_ops, V4L2_CID_FLASH_STROBE, 0, 0, 0, 0);
	v4l2_ctrl_new_std(h, &lafcam_ctrl_ops, V4L2_CID_FLASH_STROBE_STOP, 0, 0, 0, 0);
	lafcam_flash_timeout = v4l2_ctrl_new_std(h, &lafcam_ctrl_ops, V4L2_CID_FLASH_TIMEOUT, 1000, 1000000, 1000, 1000000);
	v4l2_ctrl_new_std(h, &lafcam_ctrl_ops, V4L2_CID_FLASH_TORCH_INTENSITY, 0, 100, 1, 100);
	if (h->error) {
		ret = h->error;
		goto fail;
	}
	INIT_DELAYED_WORK(&lafcam_frame_work, lafcam_produce);
	lafcam_queue.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	lafcam_queue.io_modes = VB2_MMAP;
	lafcam_queue.buf_struct_size = sizeof(struct lafcam_buffer);
	lafcam_queue.ops = &lafcam_vb2_ops;
	lafcam_queue.mem_ops = &vb2_vmalloc_memops;
	lafcam_queue.timestamp_flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
	lafcam_queue.lock = &lafcam_lock;
	ret = vb2_queue_init(&lafcam_queue);
	if (ret)
		goto fail;
	lafcam_video.queue = &lafcam_queue;
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
MODULE_DESCRIPTION("A V4L2 camera with a UVC camera's controls and an LED flash, for tests");
MODULE_LICENSE("GPL");
