#!/usr/bin/env bash
# Builds the documentation of every Apple-named module the package offers: each module's DocC
# catalog (Sources/MODULE/MODULE.docc) with every public symbol's doc comment, through the
# toolchain's docc, warnings as errors, into .build/docs/MODULE.doccarchive; then combines them
# into one site, .build/docs/LinuxAVFoundation.doccarchive; and checks that no underscored plumbing is
# public (scripts/underscored-names.py).
# usage: scripts/docs.sh [--preview [MODULE]]   (--preview serves one module's catalog, AVFoundation
# unless named, at http://localhost:8080)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-flags.sh
modules=()
for catalog in Sources/*/*.docc; do
  module=$(basename "$catalog" .docc)
  [ "$catalog" = "Sources/$module/$module.docc" ] && modules+=("$module")
done
preview=""
if [ "${1:-}" = --preview ]; then
  preview=${2:-AVFoundation}
  modules=("$preview")
fi
# One build of every module (nothing to do after the tests' build), or of the one previewed.
if [ -n "$preview" ]; then swift build --target "$preview" "${debug_flags[@]}"; else swift build "${debug_flags[@]}"; fi
built=$(swift build --show-bin-path)
# The modules' C dependencies, as the compiler found them: SwiftPM's generated module maps and
# the shims' own, and the headers of the system libraries they include.
args=()
while IFS= read -r map; do args+=(-Xcc "-fmodule-map-file=$map"); done < <(find "$built/" -maxdepth 2 -name module.modulemap; ls Sources/C*/module.modulemap)
for include in Sources/C*/include; do args+=(-Xcc "-I$include"); done
for package in libpipewire-0.3 cairo; do
  for flag in $(pkg-config --cflags-only-I "$package"); do args+=(-Xcc "$flag"); done
done
mode=convert
[ -n "$preview" ] && mode=preview
# One module's symbol graph and catalog, into its archive.
document() {
  local module=$1 graphs=.build/docs/symbol-graphs/$1
  rm -rf "$graphs" && mkdir -p "$graphs" .build/docs/api
  swift symbolgraph-extract -module-name "$module" -I "$built/Modules" -target "$(uname -m)-unknown-linux-gnu" \
    -minimum-access-level public -output-dir "$graphs" "${args[@]}"
  swift-api-digester -dump-sdk -module "$module" -I "$built/Modules" -target "$(uname -m)-unknown-linux-gnu" \
    "${args[@]}" -o ".build/docs/api/$module.json"
  rm -rf ".build/docs/$module.doccarchive"
  docc "$mode" "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.linuxavfoundation.$module" \
    --output-path ".build/docs/$module.doccarchive" --warnings-as-errors
}
archives=()
for module in "${modules[@]}"; do archives+=(".build/docs/$module.doccarchive"); done
if [ -n "$preview" ]; then
  document "$preview"
  exit 0
fi
# The modules a few at a time (the tools wait on the disk about as long as they compute), each
# one's output kept and printed in order; any failure fails the whole.
mkdir -p .build/docs/logs
failed=()
for ((first = 0; first < ${#modules[@]}; first += 3)); do
  pids=()
  for module in "${modules[@]:first:3}"; do
    document "$module" >".build/docs/logs/$module.log" 2>&1 &
    pids+=($!)
  done
  for index in "${!pids[@]}"; do
    module=${modules[first + index]}
    wait "${pids[index]}" || failed+=("$module")
    cat ".build/docs/logs/$module.log"
  done
done
[ ${#failed[@]} -eq 0 ] || { echo "docs.sh: the documentation of ${failed[*]} failed (above)" >&2; exit 1; }
# No underscored plumbing in the public API but what has to be there (each with its reason).
dumps=()
for module in "${modules[@]}"; do dumps+=(".build/docs/api/$module.json"); done
python3 scripts/underscored-names.py "${dumps[@]}"
rm -rf .build/docs/LinuxAVFoundation.doccarchive
docc merge "${archives[@]}" --synthesized-landing-page-name LinuxAVFoundation \
  --output-path .build/docs/LinuxAVFoundation.doccarchive
echo "docs.sh: ${#modules[@]} modules documented (${modules[*]}), combined in .build/docs/LinuxAVFoundation.doccarchive"
