#!/usr/bin/env bash
# Installs avcapture into a temporary prefix with scripts/install.sh and checks what a user gets:
# the installed binary runs away from the build tree (its version is CHANGELOG.md's newest, its
# live view serves the page; LiveViewServerTests checks that it is the installed one), the manual
# page describes every subcommand and renders, bash completes the subcommands and their options,
# the zsh and fish scripts name them; then `--uninstall` leaves no file behind.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "install-check.sh: $*" >&2; exit 1; }

bash scripts/install.sh "$prefix"
bin="$prefix/bin/avcapture"

# The version: the binary's and the changelog's newest release are the same.
changelog=$(sed -n 's/^## \([0-9][0-9.]*\).*/\1/p' CHANGELOG.md | head -1)
[ -n "$changelog" ] || fail "CHANGELOG.md names no release (a '## X.Y.Z' heading)"
version=$("$bin" --version)
[ "$version" = "$changelog" ] || fail "avcapture --version says $version, CHANGELOG.md's newest release is $changelog"

# libcurl is not loaded at start: Foundation's URL loading loads it on its first call
# (Sources/CCurlOnDemand), so no command pays for it and its 25 libraries.
if LD_TRACE_LOADED_OBJECTS=1 "$bin" | grep -q libcurl; then fail "the installed avcapture loads libcurl at start"; fi

# The binary away from the build tree: it lists the devices, and its live view serves the page
# (from PREFIX/share/avcapture: the build's resource bundle is not beside it).
"$bin" devices | grep -q "Virtual Camera" || fail "the installed avcapture lists no virtual camera"
subcommands=$("$bin" --help | sed -n '/^SUBCOMMANDS:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')
[ "$(echo "$subcommands" | wc -l)" -ge 10 ] || fail "avcapture --help lists too few subcommands: $subcommands"
log="$prefix/preview.log"
"$bin" preview --port 0 --seconds 20 >"$log" 2>&1 &
server=$!
address=""
for _ in $(seq 1 400); do
  address=$(grep -o 'http://127\.0\.0\.1:[0-9]*/[^ ]*' "$log" | head -1 || true)
  [ -n "$address" ] || ! kill -0 "$server" 2>/dev/null || { sleep 0.05; continue; }
  break
done
[ -n "$address" ] || { cat "$log" >&2; fail "the installed avcapture's live view printed no address"; }
page=$(curl -s --max-time 10 "$address")
kill -INT "$server" 2>/dev/null || true
wait "$server" || true
echo "$page" | grep -q "<title>avcapture live view</title>" || fail "the installed live view served no page: $(echo "$page" | head -3)"

# The manual page: one entry per subcommand, and it renders when man is here.
manual="$prefix/share/man/man1/avcapture.1"
grep -q '^\.Dt AVCAPTURE 1' "$manual" || fail "the manual page is not avcapture(1)"
for subcommand in $subcommands; do
  grep -q "^\.It Em $subcommand\$" "$manual" || fail "the manual page has no entry for avcapture $subcommand"
done
if command -v man >/dev/null; then
  rendered=$(MANWIDTH=100 man -l "$manual" 2>/dev/null)
  echo "$rendered" | grep -q "avcapture" || fail "man -l renders nothing"
  echo "$rendered" | grep -q -- "--seconds" || fail "the rendered manual page names no options"
else
  echo "install-check.sh: man is not installed, so the page was checked but not rendered"
fi

# bash completes the subcommands, and a subcommand's options.
complete_words() {
  bash -c '
    source "$1"; shift
    function=$(complete -p avcapture | sed -n "s/.*-F \([^ ]*\).*/\1/p")
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    "$function" avcapture "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$prefix/share/bash-completion/completions/avcapture" "$@"
}
words=$(complete_words avcapture "")
for subcommand in $subcommands; do
  echo "$words" | grep -qx "$subcommand" || fail "bash does not complete 'avcapture $subcommand': $words"
done
complete_words avcapture rec | grep -qx record || fail "bash does not complete 'avcapture rec' to record"
complete_words avcapture record --sec | grep -qx -- --seconds || fail "bash does not complete 'avcapture record --sec' to --seconds"
grep -q '^#compdef avcapture' "$prefix/share/zsh/site-functions/_avcapture" || fail "the zsh completion is not a #compdef avcapture script"
for subcommand in $subcommands; do
  grep -q "$subcommand" "$prefix/share/zsh/site-functions/_avcapture" || fail "the zsh completion does not name $subcommand"
  grep -q "$subcommand" "$prefix/share/fish/vendor_completions.d/avcapture.fish" || fail "the fish completion does not name $subcommand"
done
if command -v zsh >/dev/null; then zsh -n "$prefix/share/zsh/site-functions/_avcapture" || fail "zsh cannot parse its completion"; fi
if command -v fish >/dev/null; then fish -n "$prefix/share/fish/vendor_completions.d/avcapture.fish" || fail "fish cannot parse its completion"; fi

# Uninstalling removes every file the install put there.
rm -f "$log"
bash scripts/install.sh --uninstall "$prefix"
left=$(find "$prefix" -type f)
[ -z "$left" ] || fail "--uninstall left files behind: $left"
echo "install-check.sh: avcapture $version installed and uninstalled in a temporary prefix:" \
  "$(echo "$subcommands" | wc -l) subcommands in the manual page and the completions, the installed live view served its page"
