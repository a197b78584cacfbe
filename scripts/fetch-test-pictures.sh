#!/usr/bin/env bash
# Puts the photographs the face detection tests use into .build/test-pictures: scikit-image's
# sample pictures from Debian's python3-skimage package (astronaut.png, a NASA portrait in the
# public domain; camera.png), taken out of the package without installing it. Does nothing when
# they are there.
set -euo pipefail
cd "$(dirname "$0")/.."
target=.build/test-pictures
[ -f "$target/astronaut.png" ] && [ -f "$target/camera.png" ] && exit 0
mkdir -p "$target"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download python3-skimage >/dev/null 2>&1) \
  || { apt-get update -qq >/dev/null 2>&1 && (cd "$work" && apt-get download python3-skimage >/dev/null); }
dpkg-deb -x "$work"/python3-skimage_*.deb "$work/x"
for name in astronaut.png camera.png; do
  cp "$work/x/usr/lib/python3/dist-packages/skimage/data/$name" "$target/$name"
done
