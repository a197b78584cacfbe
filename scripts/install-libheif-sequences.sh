#!/usr/bin/env bash
# Installs a libheif that reads and writes HEIF image sequences (HEICS) into
# /usr/local/lib/linuxavfoundation/libheif, for Image I/O's `public.heics`: Debian 12's libheif is
# 1.15, and sequences came with 1.20 (decoding a sequence's frames once past its edit list with
# 1.21). PyPI's pillow-heif 1.8.1 wheel carries libheif 1.23 with its own x265 and libde265, built
# for manylinux (glibc 2.28 and newer); its libraries are taken out of the wheel, checked against
# their hash, and loaded at run time in a namespace of their own (Sources/CPhotoCodecs/heif_sequence.c),
# never linked. Does nothing when they are there.
set -euo pipefail
version=1.8.1
folder=/usr/local/lib/linuxavfoundation/libheif
case $(uname -m) in
  x86_64) platform=manylinux_2_28_x86_64 sha256=a94f02ccb61042820e9fc60b2a427d85377c6017d27b7594d33f26b1c78918e5 ;;
  aarch64) platform=manylinux_2_28_aarch64 sha256=446b58aae154e4a084124d383317fed1cc869ae402d1acea91c377ad18da0a6b ;;
  *) echo "install-libheif-sequences: no pillow-heif wheel for $(uname -m); HEIF image sequences stay unavailable" >&2; exit 0 ;;
esac
if compgen -G "$folder/libheif*.so*" >/dev/null; then
  exit 0
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "pillow-heif==$version --hash=sha256:$sha256" >"$work/requirement.txt"
python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary :all: --platform "$platform" --python-version 3.11 \
  --require-hashes -r "$work/requirement.txt" --dest "$work" >"$work/log" 2>&1 \
  || { tail -20 "$work/log" >&2; echo "install-libheif-sequences: pip could not download pillow-heif $version's wheel (above)" >&2; exit 1; }
python3 -m zipfile -e "$work"/pillow_heif-"$version"-*.whl "$work/wheel"
$sudo install -d "$folder"
$sudo install -m 0644 "$work"/wheel/pillow_heif.libs/*.so* "$folder/"
echo "Installed libheif $(basename "$folder"/libheif*.so* | sed 's/.*\.so\.//') for HEIF image sequences in $folder"
