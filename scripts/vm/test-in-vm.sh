#!/usr/bin/env bash
# Builds the tests on the host, then runs the real-device tests, and the avcapture commands
# users run, inside a VM whose kernel has the vivid camera and the snd-aloop sound card.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/build-flags.sh
bash scripts/install-deps.sh
swift build --build-tests "${debug_flags[@]}"
bundle=$(swift build --show-bin-path)/LinuxAVFoundationPackageTests.xctest
tool=$(swift build --show-bin-path)/avcapture
command="set -e
# EACCES: the camera's nodes made root-only, the one test of the target that runs as an unprivileged user.
chmod 600 /dev/video*
setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp LINUXAVFOUNDATION_EXPECT_DENIED=1 $bundle KernelDeviceTests.V4L2PermissionTests
chmod 660 /dev/video*
# A camera with a UVC camera's focus, exposure, white balance and zoom controls and an LED flash (scripts/vm/lafcam).
if [ -f .build/vm-modules/lafcam/lafcam.ko ]; then
  insmod .build/vm-modules/lafcam/lafcam.ko
else
  echo 'the lafcam test module was not built: the control mapping tests will skip'; [ -z '${CI:-}' ]
fi
# The kernel device tests, the whole target: vivid's camera, lafcam's controls and flash,
# snd-aloop's card (the permission and MJPEG tests skip here: they run on their own, as another
# user or with a feeder). XCTest selects by class, so the target's classes are listed first.
tests=\$($bundle --list-tests | sed -n 's#^\(KernelDeviceTests\.[A-Za-z0-9_]*\)/.*#\1#p' | sort -u | paste -sd, -)
[ -n \"\$tests\" ]
$bundle \"\$tests\"
# MJPEG: FFmpeg feeds v4l2loopback's /dev/video20 with 4:2:2 JPEGs, as a USB camera sends, at
# 640x480, only while its test runs: under emulation (no KVM here) the feeder takes much of a
# core, and at 1280x720 FFmpeg makes 11 fps, so the larger size tests the emulator more than the decoder.
if [ -e /dev/video20 ]; then
  ffmpeg -loglevel error -re -f lavfi -i testsrc2=size=640x480:rate=30 -c:v mjpeg -q:v 3 -pix_fmt yuvj422p -f v4l2 /dev/video20 </dev/null &
  feeder=\$!
  sleep 3
  env LINUXAVFOUNDATION_MJPEG_FED=1 $bundle KernelDeviceTests.V4L2MJPEGTests
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
