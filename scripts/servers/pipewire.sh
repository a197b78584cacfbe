#!/usr/bin/env bash
# A private, headless PipeWire stack for the tests and benchmarks: a session bus, pipewire,
# wireplumber and pipewire-pulse, with a test camera and a test microphone. Runs as any user,
# needs no sound card, camera or systemd, and touches nothing outside its folder.
#
#   scripts/servers/pipewire.sh start DIR         starts it; prints `export` lines for clients
#   scripts/servers/pipewire.sh stop DIR          stops it
#   scripts/servers/pipewire.sh crash DIR         kills the server as a crash does, then stops the rest
#   scripts/servers/pipewire.sh add-camera DIR NAME      hot-plugs another camera
#   scripts/servers/pipewire.sh remove-camera DIR NAME   unplugs a camera
#
# Nodes: test-camera (Video/Source: PipeWire's videotestsrc; RGB or UYVY, any size and rate),
# test-tone (Audio/Source, a 440 Hz sine), test-sink (a null sink), and test-mic (Audio/Source:
# what is played into the sink test-mic-input comes out of it).
set -euo pipefail
command=${1:?usage: pipewire.sh start|stop|crash|add-camera|remove-camera DIR [NAME]}
dir=${2:?a folder for the stack}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
runtime=$dir/runtime
say() { echo "pipewire.sh: $*" >&2; }
client_env() { env -u PIPEWIRE_REMOTE XDG_RUNTIME_DIR="$runtime" PIPEWIRE_RUNTIME_DIR="$runtime" "$@"; }

stop_stack() {
  # The server's signal: TERM shuts it down (it removes its nodes before its clients' connections
  # close), KILL is a crash (the connections close with the nodes still there).
  local server_signal=${1:-TERM}
  # The server first, as when it crashes: its clients see it go, not their session manager.
  for name in pipewire pipewire-pulse wireplumber dbus-daemon; do
    pid=$(cat "$dir/$name.pid" 2>/dev/null) || continue
    rm -f "$dir/$name.pid"
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ] || continue
    if [ "$name" = pipewire ]; then kill -s "$server_signal" "$pid" 2>/dev/null || true; else kill "$pid" 2>/dev/null || true; fi
    for _ in $(seq 50); do
      state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) || break
      [ "$state" = Z ] && break
      sleep 0.1
    done
  done
}

node_id() {
  client_env pw-cli ls Node | awk -v name="$1" '/^[[:space:]]*id [0-9]+,/ {id=$2} $0 ~ "node.name = \"" name "\"" {gsub(",", "", id); print id}'
}

case $command in
stop) stop_stack; exit 0 ;;
crash) stop_stack KILL; exit 0 ;;
add-camera)
  name=${3:?camera name}
  client_env pw-cli create-node spa-node-factory \
    "{ factory.name=videotestsrc node.name=$name node.description=\"$name\" media.class=Video/Source media.role=Camera object.linger=true }" >/dev/null
  exit 0 ;;
remove-camera)
  name=${3:?camera name}
  id=$(node_id "$name")
  [ -n "$id" ] || { say "no node $name"; exit 1; }
  client_env pw-cli destroy "$id" >/dev/null
  exit 0 ;;
start) ;;
*) say "unknown command $command"; exit 2 ;;
esac

for tool in pipewire wireplumber pipewire-pulse pw-cli pw-metadata dbus-daemon pactl; do
  command -v "$tool" >/dev/null || { say "$tool is missing: run scripts/install-deps.sh --with-servers"; exit 3; }
done
stop_stack
rm -rf "$runtime" "$dir/state"
mkdir -p "$runtime" "$dir/home" "$dir/state" "$dir/config/pipewire/pipewire.conf.d"
chmod 700 "$runtime"

cat > "$dir/config/pipewire/pipewire.conf.d/90-linuxavfoundation-tests.conf" <<'CONF'
context.spa-libs = {
    videotestsrc = videotestsrc/libspa-videotestsrc
    audiotestsrc = audiotestsrc/libspa-audiotestsrc
}
context.objects = [
    { factory = spa-node-factory
      args = { factory.name = videotestsrc node.name = test-camera node.description = "Test Camera"
               media.class = Video/Source media.role = Camera } }
    { factory = adapter
      args = { factory.name = audiotestsrc node.name = test-tone node.description = "Test Tone" media.class = Audio/Source } }
    { factory = adapter
      args = { factory.name = support.null-audio-sink node.name = test-sink node.description = "Test Sink"
               media.class = Audio/Sink audio.position = [ FL FR ] } }
]
context.modules = [
    { name = libpipewire-module-loopback
      args = { node.description = "Test Mic" audio.position = [ MONO ]
               capture.props = { node.name = test-mic-input media.class = Audio/Sink }
               playback.props = { node.name = test-mic media.class = Audio/Source } } }
]
CONF

# The daemons see only this folder: no session of the caller's leaks in, and none leaks out.
export HOME=$dir/home XDG_RUNTIME_DIR=$runtime PIPEWIRE_RUNTIME_DIR=$runtime XDG_CONFIG_HOME=$dir/config \
       XDG_STATE_HOME=$dir/state XDG_DATA_HOME=$dir/home/.local/share PULSE_COOKIE=$dir/pulse-cookie
unset PIPEWIRE_REMOTE PULSE_SERVER DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS
started=$(date +%s%N)
trap 'say "failed; logs in $dir"; stop_stack' ERR

dbus-daemon --session --fork --nopidfile --address="unix:path=$runtime/bus" --print-pid=1 </dev/null >"$dir/dbus-daemon.pid"
export DBUS_SESSION_BUS_ADDRESS=unix:path=$runtime/bus
pipewire </dev/null >"$dir/pipewire.log" 2>&1 &
echo $! >"$dir/pipewire.pid"
for _ in $(seq 200); do pw-cli info 0 >/dev/null 2>&1 && break; sleep 0.05; done
wireplumber </dev/null >"$dir/wireplumber.log" 2>&1 &
echo $! >"$dir/wireplumber.pid"
pipewire-pulse </dev/null >"$dir/pipewire-pulse.log" 2>&1 &
echo $! >"$dir/pipewire-pulse.pid"

# Ready once the session manager has picked the defaults and pipewire-pulse answers.
ready=
for _ in $(seq 300); do
  if timeout 2 pw-metadata -n default 0 default.video.source 2>/dev/null | grep -q test-camera &&
     pactl info 2>/dev/null | grep -q '^Default Sink: test-sink'; then ready=1; break; fi
  sleep 0.05
done
[ -n "$ready" ] || { say "not ready after 15 s"; false; }
trap - ERR
say "ready in $(( ($(date +%s%N) - started) / 1000000 )) ms; logs in $dir"
echo "export PIPEWIRE_RUNTIME_DIR=$runtime"
echo "export PULSE_SERVER=unix:$runtime/pulse/native"
echo "export PULSE_COOKIE=$dir/pulse-cookie"
