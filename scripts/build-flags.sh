# Sourced by the scripts that build the package: the compiler flags its own builds use, given on
# the command line because SwiftPM refuses flags in Package.swift (unsafeFlags) to every app that
# depends on the package by version.
#   debug_flags    the C++ shims (dlib's face detector, the picture filters) optimised in debug
#                  builds too: unoptimised, dlib's detector is over ten times slower and the face
#                  tests take minutes
#   release_flags  avcapture linked with the Swift runtime inside it, so it runs without the toolchain
debug_flags=(-Xcxx -O2)
release_flags=(--static-swift-stdlib)
