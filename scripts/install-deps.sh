#!/usr/bin/env bash
# Installs the Debian packages LinuxAVFoundation builds on; does nothing when they are present.
set -euo pipefail
lean=() servers="" peers=""
for argument in "$@"; do
  case $argument in
    --with-servers) servers=1 ;;
    --with-peers) peers=1 ;;
    *) echo "usage: $0 [--with-servers] [--with-peers]" >&2; exit 2 ;;
  esac
done
packages=(libyuv-dev libavcodec-dev libavformat-dev libavutil-dev libswresample-dev libswscale-dev libavfilter-dev ffmpeg libasound2-dev libpulse-dev libpipewire-0.3-dev libturbojpeg0-dev libjpeg62-turbo-dev libheif-dev libexif-dev libpng-dev libid3tag0-dev librubberband-dev libsoundtouch-dev libcairo2-dev pkg-config
  libxcb1-dev libxcb-shm0-dev libxcb-xfixes0-dev libcurl4-openssl-dev
  cmake g++ make python3-pip ca-certificates libdlib-dev libblas-dev liblapack-dev libwebrtc-audio-processing-dev)
# libvips, Core Image's renderer: the library only (its shim declares the functions it calls, so
# none of the -dev packages libvips-dev brings), without its recommendations.
lean+=(libvips42)
# espeak-ng and its voices, AVSpeechSynthesizer's speech: the library only (its shim declares the
# functions it calls).
lean+=(libespeak-ng1)
# SDL 2, the desktop windows' drawing (LinuxVideoWindow, `avcapture play`): the library only (its
# shim declares the functions it calls); FFmpeg's player brings it too.
lean+=(libsdl2-2.0-0)
if [ -n "$servers" ] || [ -n "${CI:-}" ]; then
  # Real servers for the tests: a private PulseAudio daemon, sox for tones, exiftool and heif-info
  # to read the photos back, and a private
  # PipeWire stack (scripts/servers/pipewire.sh) with its session manager and session bus.
  packages+=(pulseaudio pulseaudio-utils sox pipewire pipewire-bin pipewire-pulse wireplumber dbus libimage-exiftool-perl libheif-examples)
  # dlib's 68-point landmark model, for faces' roll and yaw; zint, for codes ZXing-C++ does not draw.
  packages+=(libdlib-data zint)
  # Streaming servers the live stream output publishes to: nginx's RTMP module and an SRT
  # listener (the tests start them on loopback; no init system means none starts on its own).
  lean+=(nginx-light libnginx-mod-rtmp srt-tools)
  # An X server with no screen, and xsetroot and xdotool to paint it and move its pointer, for the screen capture tests.
  packages+=(xvfb x11-xserver-utils xdotool)
  # A Wayland compositor for the windows' Wayland tests: weston, nested in Xvfb or headless.
  lean+=(weston)
  # GTK 4, the toolkit of the app the paintable tests play (an app brings its own GTK).
  lean+=(libgtk-4-1)
  # A real browser for the live view's page: Debian's Chromium, driven by chromium-driver through
  # python3-selenium; installed without its recommendations (printing, desktop portals).
  lean+=(chromium chromium-driver python3-selenium)
fi
if [ -n "$peers" ]; then
  # Peers the benchmarks compare against, in the same run.
  packages+=(time gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-ugly gstreamer1.0-pipewire gstreamer1.0-plugins-base-apps libjpeg-turbo-progs libheif-examples zbar-tools ffmpegthumbnailer)
  # mpv, the window benchmark's other player (ffplay comes with ffmpeg); without its recommendations.
  lean+=(mpv)
  # Time stretching's peers: Rubber Band's and SoundTouch's own commands.
  packages+=(rubberband-cli soundstretch)
  # The live view's peer, Debian's MJPEG streamer, and a WebSocket client to watch ours the same way.
  lean+=(ustreamer python3-websocket)
  # Core Image's peers: libvips's own command and Pillow.
  lean+=(libvips-tools python3-pil)
  # The release link's function order (scripts/link/make-symbol-order.sh): callgrind, and objcopy.
  lean+=(valgrind binutils)
fi
missing=() missing_lean=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
for package in "${lean[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing_lean+=("$package")
done
if [ $(( ${#missing[@]} + ${#missing_lean[@]} )) -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  echo "Installing $(( ${#missing[@]} + ${#missing_lean[@]} )) Debian packages: ${missing[*]} ${missing_lean[*]}"
  log=$(mktemp)
  if ! { $sudo apt-get update -qq &&
         { [ ${#missing[@]} -eq 0 ] || $sudo apt-get install -y -qq "${missing[@]}"; } &&
         { [ ${#missing_lean[@]} -eq 0 ] || $sudo apt-get install -y -qq --no-install-recommends "${missing_lean[@]}"; }; } >"$log" 2>&1; then
    tail -30 "$log" >&2
    rm -f "$log"
    echo "install-deps: apt-get failed (above)" >&2
    exit 1
  fi
  rm -f "$log"
fi
# ZXing-C++ 3, which Debian does not package, from its source distribution.
bash "$(dirname "$0")/build-zxing.sh"
# A libheif with image sequences (Debian's is older), from PyPI's pillow-heif wheel.
bash "$(dirname "$0")/install-libheif-sequences.sh"
# Photographs of faces for the face detection tests.
if [ -n "$servers" ] || [ -n "${CI:-}" ]; then bash "$(dirname "$0")/fetch-test-pictures.sh"; fi
