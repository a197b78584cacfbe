# Sourced by the scripts that build the package: the compiler flags its own builds use, given on
# the command line because SwiftPM refuses flags in Package.swift (unsafeFlags) to every app that
# depends on the package by version.
#   debug_flags    the C++ shims (dlib's face detector, the picture filters) optimised in debug
#                  builds too: unoptimised, dlib's detector is over ten times slower and the face
#                  tests take minutes
#   release_flags  avcapture linked with the Swift runtime inside it, so it runs without the toolchain;
#                  by the toolchain's lld, with its relative relocations packed (DT_RELR, glibc 2.36)
#                  and no symbols exported (scripts/link/executable.map): each start reads and
#                  dirties some 5 MB less; and only the libraries it calls named as needed
#                  (--as-needed, scripts/link/ld.lld-as-needed): libcurl, which Foundation's URL
#                  loading calls, is loaded on its first call (Sources/CCurlOnDemand), not with its
#                  25 libraries at every start; and the functions it runs as it starts placed first
#                  (scripts/link/avcapture.order, made by scripts/link/make-symbol-order.sh), so
#                  that a start maps a few pages of its code rather than some hundred scattered ones
#   bench_flags    avbench built with the same flags but the symbols' (its allocation counters
#                  stand in for malloc), so that the two share one release build rather than each
#                  compiling every module again
debug_flags=(-Xcxx -O2)
link_map="$(cd "$(dirname "${BASH_SOURCE[0]}")/link" && pwd)/executable.map"
release_flags=(--static-swift-stdlib -Xswiftc -ld-path="$(dirname "$link_map")/ld.lld-as-needed" -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --version-script="$link_map"
    -Xlinker --symbol-ordering-file="$(dirname "$link_map")/avcapture.order" -Xlinker --no-warn-symbol-ordering)
bench_flags=(--static-swift-stdlib -Xswiftc -ld-path="$(dirname "$link_map")/ld.lld-as-needed")
