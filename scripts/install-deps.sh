#!/usr/bin/env bash
# Installs the Debian packages LinuxAVFoundation builds on; does nothing when they are present.
set -euo pipefail
packages=(libyuv-dev libavcodec-dev libavformat-dev libavutil-dev libswresample-dev ffmpeg libasound2-dev libpulse-dev libpipewire-0.3-dev libturbojpeg0-dev libheif-dev libexif-dev libpng-dev pkg-config)
if [ "${1:-}" = "--with-servers" ] || [ -n "${CI:-}" ]; then
  # Real servers for the tests: a private PulseAudio daemon, sox for tones, exiftool and heif-info
  # to read the photos back, and a private
  # PipeWire stack (scripts/servers/pipewire.sh) with its session manager and session bus.
  packages+=(pulseaudio pulseaudio-utils sox pipewire pipewire-bin pipewire-pulse wireplumber dbus libimage-exiftool-perl libheif-examples)
fi
if [ "${1:-}" = "--with-peers" ]; then
  # Peers the benchmarks compare against, in the same run.
  packages+=(gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-pipewire libjpeg-turbo-progs libheif-examples)
fi
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  echo "Installing ${#missing[@]} Debian packages: ${missing[*]}"
  log=$(mktemp)
  if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq "${missing[@]}"; } >"$log" 2>&1; then
    tail -30 "$log" >&2
    rm -f "$log"
    echo "install-deps: apt-get failed (above)" >&2
    exit 1
  fi
  rm -f "$log"
fi
