#!/usr/bin/env bash
# Installs avcapture as a tool: the release binary in PREFIX/bin, the live view's page in
# PREFIX/share/avcapture, the manual page in PREFIX/share/man/man1, and completions for bash, zsh
# and fish where those shells look for them. PREFIX is /usr/local unless given.
#
#   bash scripts/install.sh [PREFIX]              build (release) and install
#   AVCAPTURE_BUILT=DIR bash scripts/install.sh [PREFIX]
#                                                 install the release avcapture built elsewhere (CI's
#                                                 fresh machine) in DIR, its resource bundle beside it
#   bash scripts/install.sh --uninstall [PREFIX]  remove exactly what an install put there
#
# Each file is written beside its place and renamed into it, so an interrupted install or a full
# disk leaves the old file or none, never half of one.
set -euo pipefail
cd "$(dirname "$0")/.."
uninstall="" prefix=""
for argument in "$@"; do
  case $argument in
    --uninstall) uninstall=1 ;;
    -*) echo "usage: $0 [--uninstall] [PREFIX]" >&2; exit 2 ;;
    *) [ -z "$prefix" ] || { echo "usage: $0 [--uninstall] [PREFIX]" >&2; exit 2; }; prefix=$argument ;;
  esac
done
prefix=${prefix:-/usr/local}
bin="$prefix/bin/avcapture"
page="$prefix/share/avcapture/Page"
manual="$prefix/share/man/man1/avcapture.1"
bash_completion="$prefix/share/bash-completion/completions/avcapture"
zsh_completion="$prefix/share/zsh/site-functions/_avcapture"
fish_completion="$prefix/share/fish/vendor_completions.d/avcapture.fish"

if [ -n "$uninstall" ]; then
  rm -f "$bin" "$manual" "$bash_completion" "$zsh_completion" "$fish_completion"
  rm -rf "$page"
  rmdir "$prefix/share/avcapture" 2>/dev/null || true
  echo "install.sh: avcapture removed from $prefix"
  exit 0
fi

# put SOURCE DESTINATION MODE: copies beside the destination, then renames into place; a copy
# left by a failure is removed on the way out.
partials=()
put() {
  mkdir -p "$(dirname "$2")"
  local partial
  partial="$(dirname "$2")/.$(basename "$2").partial"
  partials+=("$partial")
  rm -rf "$partial"
  if [ -d "$1" ]; then cp -R "$1" "$partial"; else install -m "$3" "$1" "$partial"; fi
  rm -rf "$2"
  mv "$partial" "$2"
}

source scripts/build-flags.sh
bash scripts/install-deps.sh
built=.build/release
if [ -n "${AVCAPTURE_BUILT:-}" ]; then
  [ -x "$AVCAPTURE_BUILT/avcapture" ] && [ -d "$AVCAPTURE_BUILT/LinuxAVFoundation_LiveView.resources" ] \
    || { echo "install.sh: $AVCAPTURE_BUILT holds no release avcapture with its resource bundle" >&2; exit 1; }
  built=$AVCAPTURE_BUILT
else
  swift build -c release --product avcapture "${release_flags[@]}"
fi
# The manual page is written by swift-argument-parser's generate-manual from the binary's own
# description of its commands and options, so it is always the binary's. The tool runs once, so
# it is built in debug: after the project's own debug build, only its few files.
swift build --product generate-manual "${debug_flags[@]}"
generate_manual=$(swift build --show-bin-path)/generate-manual
work=$(mktemp -d)
trap 'rm -rf "$work" "${partials[@]}"' EXIT
date=$(git log -1 --format=%cs 2>/dev/null || date +%F)
"$generate_manual" "$built/avcapture" --date "$date" --output-directory "$work"
"$built/avcapture" --generate-completion-script bash >"$work/avcapture.bash"
"$built/avcapture" --generate-completion-script zsh >"$work/_avcapture"
"$built/avcapture" --generate-completion-script fish >"$work/avcapture.fish"

put "$built/avcapture" "$bin" 755
put "$built/LinuxAVFoundation_LiveView.resources/Page" "$page" 755
put "$work/avcapture.1" "$manual" 644
put "$work/avcapture.bash" "$bash_completion" 644
put "$work/_avcapture" "$zsh_completion" 644
put "$work/avcapture.fish" "$fish_completion" 644
echo "install.sh: avcapture $("$bin" --version) installed in $prefix (binary, live view page, manual page, bash, zsh and fish completions)"
