#!/usr/bin/env bash
# Builds the AVFoundation module's documentation (its DocC catalog and every public symbol's doc
# comment) with the toolchain's docc, treating warnings as errors, into .build/docs.
# usage: scripts/docs.sh [--preview]   (--preview serves it at http://localhost:8080)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-flags.sh
swift build --target AVFoundation "${debug_flags[@]}"
built=$(swift build --show-bin-path)
graphs=.build/docs/symbol-graphs
rm -rf "$graphs" && mkdir -p "$graphs"
# The module's C dependencies, as the compiler found them: SwiftPM's generated module maps and
# the shims' own, and the headers of the system libraries they include.
args=()
while IFS= read -r map; do args+=(-Xcc "-fmodule-map-file=$map"); done < <(find "$built/" -maxdepth 2 -name module.modulemap; ls Sources/C*/module.modulemap)
for include in Sources/C*/include; do args+=(-Xcc "-I$include"); done
for package in libpipewire-0.3 cairo; do
  for flag in $(pkg-config --cflags-only-I "$package"); do args+=(-Xcc "$flag"); done
done
swift symbolgraph-extract -module-name AVFoundation -I "$built/Modules" -target "$(uname -m)-unknown-linux-gnu" \
  -minimum-access-level public -output-dir "$graphs" "${args[@]}"
mode=convert
[ "${1:-}" = --preview ] && mode=preview
docc "$mode" Sources/AVFoundation/AVFoundation.docc --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name AVFoundation --fallback-bundle-identifier org.linuxavfoundation.AVFoundation \
  --output-path .build/docs/AVFoundation.doccarchive --warnings-as-errors
echo "docs.sh: .build/docs/AVFoundation.doccarchive"
