#!/usr/bin/python3
"""The live view's benchmark: what a viewer sees, and what serving costs next to ustreamer.

  bench_preview.py AVCAPTURE browser [--seconds N] [--device ID]
      `avcapture preview` at 1280x720 30 fps (the virtual camera unless --device), watched by a
      headless Chromium: frames drawn a second, capture-to-canvas latency as the page measures
      it (the capture time travels with each frame), whether it creeps (the median of the first
      and last tenth), and the server's CPU per frame from /proc.

  bench_preview.py AVCAPTURE player [--seconds N]
      `avcapture play MOVIE --preview` of a 1280x720 30 fps H.264 movie, watched by a headless
      Chromium (frames drawn a second, due-to-canvas latency, the server's CPU per frame), then
      the same movie turned into JPEG frames in real time by `ffmpeg -re ... -f mpjpeg` (decoding
      and JPEG encoding, the same work without the page) read by one client: CPU per frame, each
      process measured from outside, and the ratio.

  bench_preview.py AVCAPTURE peer --v4l2 /dev/videoN [--avdevice ID] [--seconds N]
      The same V4L2 camera at 1280x720 (30 fps, or the most the camera gives up to that) served by ustreamer (MJPEG over HTTP, one client
      reading /stream) and by `avcapture preview` (JPEG over a WebSocket, one client
      acknowledging each frame as the page does), one after the other: CPU per frame served,
      each process measured from outside, and the ratio.
"""
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User plus system CPU of a process so far, in seconds."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def resident_megabytes(pid):
    """A process's resident memory now, in MB."""
    with open(f"/proc/{pid}/status") as status:
        kilobytes = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return kilobytes / 1024


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# The token the live views here are started with; the page's address carries it.
TOKEN = "benchmark-token-0123456789"


def api(url, path):
    """An address of the live view's API, with its token."""
    return url.split("?")[0].rstrip("/") + path + "?token=" + TOKEN


def start_preview(avcapture, arguments, rate=30, command=None):
    command = (command or [avcapture, "preview", "--port", "0", "--no-audio", "--quality", "80",
                           "--format", f"1280x720@{rate}", "--size", "1280x720"] + arguments) + ["--token", TOKEN]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said = []
    for line in process.stdout:
        said.append(line)
        match = re.search(r"Open (http://\S+)", line)
        if match:
            threading.Thread(target=process.stdout.read, daemon=True).start()
            return process, match.group(1)
    process.wait()
    raise RuntimeError("avcapture preview printed no address:\n" + "".join(said))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else float("nan")


def browser(avcapture, seconds, device, command=None, what="live view in Chromium, 1280x720 30 fps", start="capture"):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    server, url = start_preview(avcapture, ["--device", device] if device else [], command=command)
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900", "--disable-gpu"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(url)
        deadline = time.time() + 20
        while time.time() < deadline and driver.execute_script("return window.liveView ? window.liveView.frames : 0") < 60:
            time.sleep(0.2)
        drawn0 = driver.execute_script("return window.liveView.frames")
        count0 = driver.execute_script("return window.liveView.latencies.length")
        cpu0, wall0, memory0 = cpu_seconds(server.pid), time.time(), resident_megabytes(server.pid)
        state0 = json.load(urllib.request.urlopen(api(url, "/api/state")))["framesSent"]
        time.sleep(seconds)
        cpu1, wall1, memory1 = cpu_seconds(server.pid), time.time(), resident_megabytes(server.pid)
        state1 = json.load(urllib.request.urlopen(api(url, "/api/state")))["framesSent"]
        drawn1 = driver.execute_script("return window.liveView.frames")
        latencies = driver.execute_script(f"return window.liveView.latencies.slice({count0})")
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=10)
    tenth = max(1, len(latencies) // 10)
    elapsed = wall1 - wall0
    encoded = state1 - state0
    print(f"{what}, {elapsed:.0f} s: {(drawn1 - drawn0) / elapsed:.1f} fps drawn, "
          f"{start} to canvas median {percentile(latencies, 0.5):.1f} ms, p95 {percentile(latencies, 0.95):.1f} ms, "
          f"max {max(latencies):.1f} ms; first tenth median {percentile(latencies[:tenth], 0.5):.1f} ms, "
          f"last tenth {percentile(latencies[-tenth:], 0.5):.1f} ms")
    print(f"  server ({' '.join(os.path.basename(word) for word in (command or ['avcapture', 'preview'])[:2])}, whole process): "
          f"{(cpu1 - cpu0) / max(1, encoded) * 1000:.2f} ms CPU a frame encoded "
          f"({encoded} frames, {(cpu1 - cpu0) / elapsed * 100:.0f}% of a core); resident memory {memory0:.1f} MB "
          f"after warm-up, {memory1:.1f} MB at the end")
    return (cpu1 - cpu0) / max(1, encoded) * 1000


def read_ustreamer(port, seconds, counts):
    """Reads ustreamer's MJPEG stream for `seconds`, counting its parts."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/stream", timeout=10) as stream:
        end = time.time() + seconds
        pending = b""
        while time.time() < end:
            chunk = stream.read1(65536)
            if not chunk:
                break
            pending += chunk
            counts[0] += pending.count(b"Content-Type: image/jpeg")
            pending = pending[-64:]


def read_live_view(url, seconds, counts):
    """Watches the live view's frames for `seconds`, acknowledging each as the page does."""
    import websocket
    connection = websocket.create_connection(api(url, "/frames").replace("http://", "ws://"), timeout=10)
    end = time.time() + seconds
    while time.time() < end:
        opcode, _ = connection.recv_data()
        if opcode == websocket.ABNF.OPCODE_BINARY:
            counts[0] += 1
            connection.send("drawn")
    connection.close()


def measure(process, reader, seconds, warmup=3):
    counts = [0]
    thread = threading.Thread(target=reader, args=(seconds + warmup, counts), daemon=True)
    thread.start()
    time.sleep(warmup)
    frames0, cpu0, wall0 = counts[0], cpu_seconds(process.pid), time.time()
    time.sleep(seconds)
    frames1, cpu1, wall1 = counts[0], cpu_seconds(process.pid), time.time()
    thread.join()
    frames = frames1 - frames0
    return frames / (wall1 - wall0), (cpu1 - cpu0) / max(1, frames) * 1000


def peer(avcapture, seconds, v4l2, avdevice):
    # avcapture names V4L2 cameras by bus and card: --avdevice, or the first V4L2 camera it lists.
    devices = subprocess.run([avcapture, "devices"], capture_output=True, text=True).stdout
    match = re.search(r"\((v4l2:[^)]*)\)", devices)
    avdevice = avdevice or (match.group(1) if match else "v4l2:" + v4l2)
    # The highest of these rates the camera gives at 1280x720 (vivid gives fewer at larger sizes).
    for rate in [30, 25, 20, 15, 10, 5]:
        try:
            # No codes or faces looked for: the work ustreamer does, and no more.
            server, url = start_preview(avcapture, ["--device", avdevice, "--detect", "none"], rate)
            break
        except RuntimeError as refusal:
            if "format" not in str(refusal):
                raise
    else:
        raise RuntimeError(f"{avdevice} has no 1280x720 format")
    try:
        ours = measure(server, lambda s, c: read_live_view(url, s, c), seconds)
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"serving {v4l2} at 1280x720 {rate} fps to one client, {seconds:.0f} s each, whole processes from /proc:")
    print(f"  avcapture preview (JPEG over WebSocket): {ours[0]:5.1f} fps served, {ours[1]:.2f} ms CPU a frame", flush=True)
    port = free_port()
    ustreamer = subprocess.Popen(["ustreamer", "--device", v4l2, "--resolution", "1280x720", "--desired-fps", str(rate),
                                  "--quality", "80", "--port", str(port), "--host", "127.0.0.1"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2)
    try:
        theirs = measure(ustreamer, lambda s, c: read_ustreamer(port, s, c), seconds)
    finally:
        ustreamer.terminate()
        ustreamer.wait(timeout=10)
    print(f"  ustreamer (MJPEG over HTTP):             {theirs[0]:5.1f} fps served, {theirs[1]:.2f} ms CPU a frame")
    print(f"  ratio, ours to ustreamer's CPU a frame: {ours[1] / theirs[1]:.2f}x")


def read_mpjpeg(process, seconds, counts):
    """Reads an MJPEG multipart stream from a process's standard output for `seconds`, counting its parts."""
    end = time.time() + seconds
    pending = b""
    while time.time() < end:
        chunk = process.stdout.read1(65536)
        if not chunk:
            break
        pending += chunk
        counts[0] += pending.count(b"Content-type: image/jpeg")
        pending = pending[-64:]


def player(avcapture, seconds):
    folder = tempfile.mkdtemp(prefix="bench-player-")
    movie = os.path.join(folder, "movie.mp4")
    length = int(seconds) + 40
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=s=1280x720:r=30:d={length}",
                    "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-pix_fmt", "yuv420p", movie], check=True)
    ours = browser(avcapture, seconds, None, command=[avcapture, "play", movie, "--preview", "--port", "0", "--quality", "80"],
                   what="player page in Chromium, 1280x720 30 fps movie", start="due")
    # The peer: decoding and JPEG encoding in real time, the frames read by one client.
    ffmpeg = subprocess.Popen(["ffmpeg", "-v", "error", "-re", "-i", movie, "-an", "-c:v", "mjpeg", "-q:v", "5", "-f", "mpjpeg", "pipe:1"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        fps, theirs = measure(ffmpeg, lambda s, c: read_mpjpeg(ffmpeg, s, c), seconds)
    finally:
        ffmpeg.terminate()
        ffmpeg.wait(timeout=10)
    print(f"  peer (ffmpeg -re ... -c:v mjpeg -q:v 5 -f mpjpeg, whole process): {fps:.1f} fps, {theirs:.2f} ms CPU a frame")
    print(f"  ratio, ours to ffmpeg's CPU a frame: {ours / theirs:.2f}x")


def main():
    avcapture, mode = sys.argv[1], sys.argv[2]
    option = lambda name, default=None: sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default
    seconds = float(option("--seconds", 20))
    if mode == "browser":
        browser(avcapture, seconds, option("--device"))
    elif mode == "player":
        player(avcapture, seconds)
    elif mode == "peer":
        peer(avcapture, seconds, option("--v4l2", "/dev/video0"), option("--avdevice"))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
