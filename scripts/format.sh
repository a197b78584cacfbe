#!/usr/bin/env bash
# Formats the Swift sources with the toolchain's swift-format and the checked-in .swift-format
# configuration; with --check, changes nothing and fails when anything is not formatted (CI).
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Benchmarks Examples/Sources Package.swift Examples/Package.swift)
if [ "${1:-}" = --check ]; then
  swift format lint --strict --configuration .swift-format --recursive "${paths[@]}"
  echo "format.sh: formatted as .swift-format says"
else
  swift format format --configuration .swift-format --in-place --recursive "${paths[@]}"
fi
