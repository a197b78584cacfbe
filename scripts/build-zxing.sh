#!/usr/bin/env bash
# Builds ZXing-C++ 3.1.1, the barcode reader and writer the metadata output uses, from its source
# distribution on PyPI (the complete C++ library with its C API), and installs it into /usr/local.
# Debian's libzxing-dev is 1.4.0: built with assertions on, its multi-code read aborts the whole
# process on ordinary 1D codes, and it misses small Aztec and Data Matrix codes away from the
# centre. Does nothing when ZXing 3 is already installed.
set -euo pipefail
version=3.1.1
sha256=1051a521b21a9fe206702ad4186aeb195154e3e1badcd99576d030723f36382b
if [ "$(pkg-config --modversion zxing 2>/dev/null)" = "$version" ] && [ -f /usr/local/include/ZXing/ZXingC.h ]; then
  exit 0
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "Building ZXing-C++ $version from PyPI's source distribution (about a minute)"
# pip fetches the source distribution (never a wheel) and checks its hash.
echo "zxing-cpp==$version --hash=sha256:$sha256" >"$work/requirement.txt"
python3 -m pip download -q --disable-pip-version-check --no-deps --no-binary zxing-cpp --require-hashes \
  -r "$work/requirement.txt" --dest "$work" >"$work/log" 2>&1 \
  || { tail -20 "$work/log" >&2; echo "build-zxing: pip could not download zxing-cpp $version's source distribution (above)" >&2; exit 1; }
tar -xzf "$work/zxing_cpp-$version.tar.gz" -C "$work"
# The reader, the writer with its bundled libzint, and the C API; shared, with Debian's compilers.
cmake -S "$work/zxing_cpp-$version/core" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr/local \
  -DBUILD_SHARED_LIBS=ON -DZXING_READERS=ON -DZXING_WRITERS=NEW -DZXING_USE_BUNDLED_ZINT=ON -DZXING_C_API=ON \
  -DZXING_EXPERIMENTAL_API=ON >"$work/log" 2>&1 \
  && make -C "$work/build" -j"$(nproc)" >>"$work/log" 2>&1 \
  && $sudo make -C "$work/build" install >>"$work/log" 2>&1 \
  || { tail -30 "$work/log" >&2; echo "build-zxing: ZXing-C++ could not be built (above)" >&2; exit 1; }
$sudo ldconfig
