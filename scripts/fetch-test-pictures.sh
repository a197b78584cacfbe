#!/usr/bin/env bash
# Puts the pictures tests read into .build/test-pictures, each set only when it is not there:
# - scikit-image's sample pictures from Debian's python3-skimage package (astronaut.png, a NASA
#   portrait in the public domain; camera.png), for the face detection tests, taken out of the
#   package without installing it;
# - pillow-heif's test pictures pug.heic (a portrait-mode HEIC with a depth image) and
#   pug_depth.png (that depth image as the pillow-heif project decoded it), for Image I/O's
#   auxiliary data tests, taken out of its source distribution on PyPI (BSD-3-Clause).
set -euo pipefail
cd "$(dirname "$0")/.."
target=.build/test-pictures
mkdir -p "$target"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! [ -f "$target/astronaut.png" ] || ! [ -f "$target/camera.png" ]; then
  (cd "$work" && apt-get download python3-skimage >/dev/null 2>&1) \
    || { apt-get update -qq >/dev/null 2>&1 && (cd "$work" && apt-get download python3-skimage >/dev/null); }
  dpkg-deb -x "$work"/python3-skimage_*.deb "$work/x"
  for name in astronaut.png camera.png; do
    cp "$work/x/usr/lib/python3/dist-packages/skimage/data/$name" "$target/$name"
  done
fi
if ! [ -f "$target/pug.heic" ] || ! [ -f "$target/pug_depth.png" ]; then
  version=1.8.1
  python3 -m pip download --quiet --no-deps --no-binary :all: --dest "$work" "pillow-heif==$version"
  tar -xzf "$work/pillow_heif-$version.tar.gz" -C "$work" "pillow_heif-$version/tests/images/heif_other/pug.heic" \
    "pillow_heif-$version/tests/images/non_heif/pug_depth.png"
  cp "$work/pillow_heif-$version/tests/images/heif_other/pug.heic" "$work/pillow_heif-$version/tests/images/non_heif/pug_depth.png" "$target/"
fi
