#!/usr/bin/python3
"""Plays `avcapture stream --hls` in a real headless Chromium while the folder grows, and prints what it saw as JSON.

Usage: hls_page.py AVCAPTURE [--seconds N]

Runs `avcapture stream --hls FOLDER` on the virtual devices with 1 s segments; once the playlist
lists three segments (it appears with them), serves the folder with Python's http.server on a free
loopback port and opens a page whose <video> plays index.m3u8 (Chromium plays fragmented MPEG-4
HLS natively); reads its state twice, N seconds apart, while the stream goes on, then stops the
stream with SIGINT, as a user does, and reads whether the playlist ended. The caller checks the results.

Every media error is kept with what the element held then (its buffered and seekable ranges).
Chromium's native HLS engine reports its own live-playback decisions (a resume past what the
playlist holds, a loaded range it will not seek to) as DEMUXER_ERROR_COULD_NOT_PARSE with no
detail, while content its MP4 parser rejects is CHUNK_DEMUXER_ERROR_APPEND_FAILED with the
parser's reason. The page reloads once after the engine's error, as players do, and the
measurement starts again after it; the caller accepts at most that one, never a parser's error.
"""
import functools
import http.server
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_view_page import headless_chromium  # noqa: E402

PAGE = b"""<!doctype html><video id='video' src='index.m3u8' muted autoplay playsinline></video><script>
const video = document.getElementById('video'), opened = performance.now();
const ranges = r => Array.from({length: r.length}, (_, i) => [r.start(i), r.end(i)]);
window.mediaErrors = [];
video.addEventListener('error', () => {
  const message = video.error.message || '';
  window.mediaErrors.push({message, code: video.error.code, at: (performance.now() - opened) / 1000,
                           buffered: ranges(video.buffered), seekable: ranges(video.seekable)});
  if (window.mediaErrors.length === 1 && message.startsWith('PipelineStatus::DEMUXER_ERROR_COULD_NOT_PARSE')) {
    video.load();
    video.play().catch(() => {});
  }
});
</script>"""


def video_state(driver):
    return driver.execute_script(
        "const v = document.getElementById('video');"
        "return {readyState: v.readyState, currentTime: v.currentTime, width: v.videoWidth, height: v.videoHeight,"
        " error: v.error ? v.error.code : null, errorMessage: v.error ? v.error.message : null, paused: v.paused,"
        " errorCount: window.mediaErrors.length};")


def folder_state(folder):
    """The playlist and each file's size, so that a media error can be laid beside what was served."""
    files = {name: os.path.getsize(os.path.join(folder, name)) for name in sorted(os.listdir(folder))}
    playlist = os.path.join(folder, "index.m3u8")
    return {"files": files, "playlist": open(playlist).read() if os.path.exists(playlist) else None}


def main():
    avcapture = sys.argv[1]
    seconds = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 3
    folder = os.path.join(tempfile.mkdtemp(prefix="hls-browser-"), "live")
    playlist = os.path.join(folder, "index.m3u8")
    environment = dict(os.environ, LINUXAVFOUNDATION_DEVICES="virtual")
    # Long enough for two measurements; stopped by SIGINT once measured.
    stream = subprocess.Popen([avcapture, "stream", "--hls", folder, "--seconds", str(2 * seconds + 30), "--segment-seconds", "1",
                               "--format", "640x480@30"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
    deadline = time.time() + 30
    # The playlist appears once its segments last three target durations (three 1 s segments).
    while time.time() < deadline and not (os.path.exists(playlist) and open(playlist).read().count("#EXTINF") >= 3):
        time.sleep(0.1)

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):
            if self.path in ("/", "/index.html"):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(PAGE)))
                self.end_headers()
                self.wfile.write(PAGE)
                return
            super().do_GET()

        def log_message(self, *arguments):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    driver = headless_chromium("800,600")
    results = {}
    try:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/")
        results["streamRunningAtStart"] = stream.poll() is None
        for _ in range(2):
            time.sleep(2)
            results["early"] = video_state(driver)
            time.sleep(seconds)
            results["later"] = video_state(driver)
            # Measured again only when the page reloaded after the engine's error while it was measured.
            if results["later"]["errorCount"] == results["early"]["errorCount"] or results["later"]["errorCount"] > 1:
                break
        results["mediaErrors"] = driver.execute_script("return window.mediaErrors")
        if results["mediaErrors"]:
            results["folderAtError"] = folder_state(folder)
        results["streamRunningWhilePlaying"] = stream.poll() is None
    finally:
        driver.quit()
        if stream.poll() is None:
            stream.send_signal(signal.SIGINT)
        stream.wait(timeout=60)
        server.shutdown()
    results["streamStatus"] = stream.returncode
    results["ended"] = open(playlist).read().rstrip().endswith("#EXT-X-ENDLIST")
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
