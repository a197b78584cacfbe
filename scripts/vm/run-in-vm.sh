#!/usr/bin/env bash
# Runs one command against real kernel drivers: Debian's stock kernel under qemu, with the
# vivid V4L2 test camera and the snd-aloop ALSA loopback card loaded. The host's root is
# mounted read-only over 9p and the command runs chrooted into it, so binaries built on the
# host (the test bundle, avcapture) run as they are; the project folder is writable.
#
# usage: scripts/vm/run-in-vm.sh COMMAND...
# exit status: COMMAND's; 124 when the VM timed out, 125 when it reported nothing.
# env: VM_CACHE (default /tmp/linuxavfoundation-vm), VM_TIMEOUT seconds (default 1200),
#      VM_MEMORY MiB (default 3072), VM_CPUS (default: nproc).
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 COMMAND..." >&2; exit 2; }
project=$(cd "$(dirname "$0")/../.." && pwd)
cache=${VM_CACHE:-/tmp/linuxavfoundation-vm}
say() { echo "[vm] $*" >&2; }

# Tools on the host (the guest uses the host's through the chroot).
missing=()
for pair in qemu-system-x86_64:qemu-system-x86 busybox:busybox-static cpio:cpio depmod:kmod v4l2-ctl:v4l-utils arecord:alsa-utils xz:xz-utils; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
mkdir -p "$cache"

# The kernel, unpacked from Debian's package (not installed on the host).
if [ ! -f "$cache/kernel/ready" ]; then
  say "fetching Debian's kernel package"
  rm -rf "$cache/kernel" "$cache/download"; mkdir -p "$cache/kernel" "$cache/download"
  image=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/.*Depends: \(linux-image-[0-9][^ ]*\).*/\1/p' | head -1)
  if [ -z "$image" ]; then apt-get -o DPkg::Lock::Timeout=600 update -qq; image=$(apt-cache depends linux-image-amd64 | sed -n 's/.*Depends: \(linux-image-[0-9][^ ]*\).*/\1/p' | head -1); fi
  (cd "$cache/download" && apt-get -o DPkg::Lock::Timeout=600 download "$image" >/dev/null 2>&1)
  dpkg-deb -x "$cache"/download/*.deb "$cache/kernel"
  depmod -b "$cache/kernel" "$(ls "$cache/kernel/lib/modules")"
  rm -rf "$cache/download"
  touch "$cache/kernel/ready"
fi
release=$(ls "$cache/kernel/lib/modules")
modules="$cache/kernel/lib/modules/$release"

# Kernel headers for that release, to build modules for the guest; without them the VM runs
# with the kernel's own drivers only.
headers() {
  [ -d "/lib/modules/$release/build" ] && return 0
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "linux-headers-$release" make gcc >/dev/null 2>&1 \
    || { apt-get -o DPkg::Lock::Timeout=600 update -qq && apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "linux-headers-$release" make gcc >/dev/null; }
}

# v4l2loopback, built from Debian's source package: a V4L2 camera fed by a program, for what
# vivid does not offer (MJPEG).
if [ ! -f "$cache/v4l2loopback.ko" ] && [ ! -f "$cache/v4l2loopback.failed" ]; then
  say "building v4l2loopback for $release"
  (
    set -e
    headers
    work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
    (cd "$work" && apt-get -o DPkg::Lock::Timeout=600 download v4l2loopback-dkms >/dev/null 2>&1 && dpkg-deb -x v4l2loopback-dkms*.deb x)
    source=$(echo "$work"/x/usr/src/v4l2loopback-*)
    make -s -C "/lib/modules/$release/build" M="$source" modules >/dev/null 2>&1
    cp "$source/v4l2loopback.ko" "$cache/v4l2loopback.ko"
  ) || { say "v4l2loopback could not be built; the VM has vivid only"; touch "$cache/v4l2loopback.failed"; }
fi

# The project's own test modules (scripts/vm/*/), built into .build/vm-modules, where the
# guest's command can insmod them.
if headers; then
  for source in "$project"/scripts/vm/*/Makefile; do
    [ -f "$source" ] || continue
    name=$(basename "$(dirname "$source")")
    build="$project/.build/vm-modules/$name"
    mkdir -p "$build" && cp "$(dirname "$source")"/* "$build/"
    make -s -C "/lib/modules/$release/build" M="$build" modules >/dev/null 2>&1 || say "the test module $name could not be built"
  done
else
  say "no kernel headers for $release: the project's test modules are not built"
fi

# A small initramfs: busybox, the modules in dependency order, and an init that chroots.
if [ ! -f "$cache/initramfs-4.gz" ]; then
  say "building the initramfs for $release"
  root="$cache/initramfs"; rm -rf "$root"
  mkdir -p "$root"/{bin,dev,proc,sys,tmp,host,modules}
  cp "$(command -v busybox)" "$root/bin/busybox"
  for applet in sh mount umount insmod chroot poweroff mkdir cat sleep sync echo ifconfig; do ln -sf busybox "$root/bin/$applet"; done
  : > "$root/modules/order"
  declare -A added=()
  include() {  # a module after its dependencies, as modules.dep lists them
    local entry file dependency
    entry=$(grep -E "(^|/)$1\.ko(\.[a-z]+)?:" "$modules/modules.dep") || { echo "no module $1" >&2; exit 1; }
    file=${entry%%:*}
    for dependency in $(echo "${entry#*:}" | tr ' ' '\n' | tac); do
      [ -n "$dependency" ] && [ -z "${added[$dependency]:-}" ] && { added[$dependency]=1; unpack "$dependency"; }
    done
    [ -z "${added[$file]:-}" ] && { added[$file]=1; unpack "$file"; }
    return 0
  }
  unpack() {
    local name; name=$(basename "$1"); name=${name%.xz}; name=${name%.zst}
    case $1 in
      *.xz) xz -dc "$modules/$1" > "$root/modules/$name" ;;
      *.zst) zstd -qdc "$modules/$1" > "$root/modules/$name" ;;
      *) cp "$modules/$1" "$root/modules/$name" ;;
    esac
    echo "/modules/$name" >> "$root/modules/order"
  }
  for module in virtio_pci 9pnet_virtio 9p vivid snd-aloop; do include "$module"; done
  if [ -f "$cache/v4l2loopback.ko" ]; then
    # After vivid (and so after videodev, which it needs), as /dev/video20.
    cp "$cache/v4l2loopback.ko" "$root/modules/v4l2loopback.ko"
    echo "/modules/v4l2loopback.ko video_nr=20 card_label=Loopback_Camera exclusive_caps=0" >> "$root/modules/order"
  fi
  cat > "$root/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
while read -r module; do insmod $module || echo "[vm] insmod $module failed"; done < /modules/order  # a file, then its parameters
ifconfig lo 127.0.0.1 up  # Foundation's run loop talks to itself over loopback
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,ro,cache=loose,multidevs=remap hostroot /host
mount -t proc proc /host/proc; mount -t sysfs sysfs /host/sys; mount -o bind /dev /host/dev
mount -t devpts devpts /host/dev/pts 2>/dev/null
mount -t tmpfs tmpfs /host/tmp; mount -t tmpfs tmpfs /host/run
project=$(cat /project-path)
mkdir -p "/host$project" 2>/dev/null  # a project under /tmp needs its mount point on the fresh tmpfs
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 project "/host$project" || echo "[vm] the project folder is read-only"
chroot /host /bin/sh -c "cd '$project' && . ./.vm-env && sh ./.vm-command"
echo "[vm] exit status $?"
sync; poweroff -f
INIT
  chmod +x "$root/init"
  (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$cache/initramfs-4.gz"
fi

# The project's path, as a second archive appended to the initramfs; the command and its
# environment reach the guest through the project folder.
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
mkdir -p "$run/extra"
echo "$project" > "$run/extra/project-path"
printf 'export PATH=%q HOME=/tmp TMPDIR=/tmp LANG=C.UTF-8\n' "$PATH" > "$project/.vm-env"
printf '%s\n' "$*" > "$project/.vm-command"
(cd "$run/extra" && echo project-path | cpio -o -H newc --quiet | gzip -1) > "$run/extra.gz"
cat "$cache/initramfs-4.gz" "$run/extra.gz" > "$run/initrd"

say "booting $release under qemu (software emulation)"
set +e
timeout -k 10 "${VM_TIMEOUT:-1200}" qemu-system-x86_64 -accel tcg,thread=multi -cpu max -smp "${VM_CPUS:-$(nproc)}" -m "${VM_MEMORY:-3072}" \
  -machine q35 -nodefaults -no-reboot -display none -serial stdio -net none \
  -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap,id=hostroot" \
  -virtfs "local,path=$project,mount_tag=project,security_model=none,id=project" \
  -kernel "$cache/kernel/boot/vmlinuz-$release" -initrd "$run/initrd" \
  -append "console=ttyS0 panic=-1 quiet loglevel=3" </dev/null 2>&1 | tr -d '\r' | tee "$run/console"
qemu=${PIPESTATUS[0]}
set -e
rm -f "$project/.vm-env" "$project/.vm-command"
status=$(sed -n 's/^\[vm\] exit status \([0-9]*\)$/\1/p' "$run/console" | tail -1)
if [ -z "$status" ]; then [ "$qemu" = 124 ] && status=124 || status=125; fi
say "command exit status $status"
exit "$status"
