#!/usr/bin/env bash
# Builds the tests on the host, then runs the real-device tests, and the avcapture commands
# users run, inside a VM whose kernel has the vivid camera and the snd-aloop sound card.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-deps.sh
swift build --build-tests
bundle=$(swift build --show-bin-path)/LinuxAVFoundationPackageTests.xctest
tool=$(swift build --show-bin-path)/avcapture
command="set -e
# EACCES: the camera's nodes made root-only, the test run as an unprivileged user.
chmod 600 /dev/video*
setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp LINUXAVFOUNDATION_EXPECT_DENIED=1 $bundle AVFoundationTests.V4L2PermissionTests
chmod 660 /dev/video*
$bundle AVFoundationTests.V4L2CameraTests
# A camera with a UVC camera's focus, exposure, white balance and zoom controls and an LED flash (scripts/vm/lafcam).
if [ -f .build/vm-modules/lafcam/lafcam.ko ]; then
  insmod .build/vm-modules/lafcam/lafcam.ko
  $bundle AVFoundationTests.V4L2CameraControlTests
  $bundle AVFoundationTests.V4L2FlashTests
else
  echo 'the lafcam test module was not built: the control mapping tests did not run'; [ -z '${CI:-}' ]
fi
$bundle AVFoundationTests.ALSAMicrophoneTests
# MJPEG: FFmpeg feeds v4l2loopback's /dev/video20 with 4:2:2 JPEGs, as a USB camera sends, at
# 640x480: under emulation (no KVM here) FFmpeg makes 1280x720 JPEGs at 11 fps and a debug build
# decodes them slower still, so the larger size tests the emulator more than the decoder.
if [ -e /dev/video20 ]; then
  ffmpeg -loglevel error -re -f lavfi -i testsrc2=size=640x480:rate=30 -c:v mjpeg -q:v 3 -pix_fmt yuvj422p -f v4l2 /dev/video20 </dev/null &
  feeder=\$!
  sleep 3
  $bundle AVFoundationTests.V4L2MJPEGTests
  kill \$feeder
else
  echo 'no v4l2loopback in the guest: the MJPEG camera test did not run'; [ -z '${CI:-}' ]
fi
$tool devices | head -40
$tool monitor --seconds 3 --format 640x480@25 --no-audio
$tool record /tmp/vm.mov --seconds 3 --format 640x480@25 --no-audio
ffprobe -v error -show_entries stream=codec_name,width,height,nb_frames -of compact /tmp/vm.mov"
for attempt in 1 2; do
  set +e
  bash scripts/vm/run-in-vm.sh "$command"
  status=$?
  set -e
  # A VM that timed out or said nothing is tried once more; a failing test is not.
  [ $status = 124 ] || [ $status = 125 ] || exit $status
  echo "[vm] the VM did not finish (status $status); trying again" >&2
done
exit $status
