#!/usr/bin/env bash
# Proves the README's two commands on a new machine: builds a minimal Debian bookworm root with
# debootstrap, gives it the Swift toolchain (and this machine's Swift package mirror, when git is
# set to use one), clones the repository's committed state into it, and runs the two commands of
# the README's first code block there, exactly as written, as root, in a clean environment (with
# CI, when it is set).
#
#   scripts/fresh-machine.sh [--keep] [--root DIR] [--only main|tests] [--export-release DIR]
#
# --export-release copies the release avcapture the main command built, with its resource bundle,
# into DIR once that command passed, so that CI probes and installs the very binary a new machine
# builds instead of building it again (scripts/install.sh and scripts/probe.sh take it as AVCAPTURE_BUILT).
#
# Exit status: 0 when both commands succeed; otherwise that of the first that failed. Needs root
# and about 3 GB of disk; takes a few minutes (the root itself about 30 s).
set -euo pipefail
project=$(cd "$(dirname "$0")/.." && pwd)
keep=0; root=""; only=""; export_release=""
while [ $# -gt 0 ]; do
  case $1 in
    --keep) keep=1 ;;
    --root) root=$2; shift ;;
    --only) only=$2; shift ;;
    --export-release) export_release=$2; shift ;;
    *) echo "usage: $0 [--keep] [--root DIR] [--only main|tests] [--export-release DIR]" >&2; exit 2 ;;
  esac
  shift
done
[ "$(id -u)" -eq 0 ] || { echo "fresh-machine: needs root (debootstrap, chroot, mounts)" >&2; exit 2; }

# The README's commands: the first fenced block, one command a line, comments dropped.
mapfile -t commands < <(awk '/^```/ { if (inside) exit; inside = 1; next } inside' "$project/README.md" | sed 's/[[:space:]]*#.*$//' | grep -v '^[[:space:]]*$')
[ ${#commands[@]} -eq 2 ] || { echo "fresh-machine: expected two commands at the top of README.md, found ${#commands[@]}" >&2; exit 2; }
say() { printf '[fresh-machine %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

if ! command -v debootstrap >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$mirror" ] || mirror=$(awk '/^deb / { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
toolchain=$(dirname "$(dirname "$swift_bin")")
[ -n "$root" ] || root=$(mktemp -d /var/tmp/fresh-machine.XXXXXX)

mounts=()
mount_bind() { # SOURCE TARGET [ro]
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounts+=("$2")
  if [ "${3:-}" = ro ]; then mount -o remount,ro,bind "$2"; fi
}
finish() {
  local status=$?
  # Servers the tests started inside the root keep its mounts busy: end every process living there.
  for proc in /proc/[0-9]*; do
    [ "$(readlink "$proc/root" 2>/dev/null)" = "$root" ] && kill -9 "${proc#/proc/}" 2>/dev/null
  done
  sleep 0.5
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[$i]}" 2>/dev/null || umount -l "${mounts[$i]}" 2>/dev/null || true
  done
  if grep -q " $root/" /proc/mounts; then
    echo "fresh-machine: $root still has mounts; left in place" >&2
  elif [ $keep = 0 ]; then
    rm -rf --one-file-system "$root"
  fi
  exit $status
}
trap finish EXIT

started=$SECONDS
if [ ! -x "$root/bin/bash" ]; then
  say "debootstrap bookworm (minbase) from $mirror into $root"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 || { tail -20 "$root.log" >&2; exit 1; }
  rm -f "$root.log"
fi
mount -t proc proc "$root/proc"; mounts+=("$root/proc")
mount_bind /dev "$root/dev"
mount_bind /dev/pts "$root/dev/pts"
mount_bind /sys "$root/sys"
mount_bind "$toolchain" "$root$toolchain" ro
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# A debootstrapped root has no /etc/hosts, which every installed Debian machine (and container)
# has: without it "localhost" does not resolve (chromium-driver's clients connect to it by name).
[ -e "$root/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"

# A machine on this network trusts the certificate authorities its administrator installed (a
# network that inspects TLS has its own): so does the new root, for PyPI over HTTPS. Installing
# ca-certificates below adds them to the root's bundle.
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi

# What Swift's own installation guide lists for Debian 12 (with libncurses6, which its driver
# needs), and git, which cloning and package resolution need. Nothing of the project's.
say "installing Swift's prerequisites"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive /bin/bash -c \
  'apt-get update -qq && apt-get install -y -qq --no-install-recommends git ca-certificates binutils libc6-dev libcurl4-openssl-dev libedit2 libgcc-12-dev libncurses6 libpython3-dev libsqlite3-0 libstdc++-12-dev libxml2-dev libz3-dev pkg-config tzdata zlib1g-dev gnupg2 >/dev/null'

# Package URLs are rewritten to a local mirror on these machines: the same inside.
while read -r key target; do
  folder=${key#url.}; folder=${folder%.insteadof}
  if [ -d "$folder" ]; then
    [ -d "$root$folder" ] && mountpoint -q "$root$folder" || mount_bind "$folder" "$root$folder" ro
    chroot "$root" git config --system --add "url.$folder.insteadof" "$target"
  fi
done < <(git config --get-regexp '^url\..*\.insteadof$' 2>/dev/null || true)

rm -rf "$root/root/project"
git clone -q "$project" "$root/root/project"
say "the root is ready after $((SECONDS - started)) s; the README's commands follow"

# CI, when set here, is set there too, as CI machines set it: tests that need a real server then
# fail rather than skip when it is missing.
run_in_root() {
  chroot "$root" /usr/bin/env -i ${CI:+CI="$CI"} HOME=/root TERM=dumb LANG=C.UTF-8 PATH="$swift_bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    /bin/bash -c "cd /root/project && $1"
}
status=0
for index in 0 1; do
  command=${commands[$index]}
  name=$([ $index = 0 ] && echo main || echo tests)
  [ -n "$only" ] && [ "$only" != "$name" ] && continue
  say "$name: $command"
  begun=$SECONDS
  if run_in_root "$command"; then
    say "$name: passed in $((SECONDS - begun)) s"
    if [ $name = main ] && [ -n "$export_release" ]; then
      built="$root/root/project/.build/release"
      mkdir -p "$export_release"
      cp -L "$built/avcapture" "$export_release/"
      cp -RL "$built/LinuxAVFoundation_LiveView.resources" "$export_release/"
      say "the release avcapture is copied to $export_release"
    fi
  else
    status=$?
    say "$name: FAILED with status $status after $((SECONDS - begun)) s"
    break
  fi
done
say "done in $((SECONDS - started)) s"
exit $status
