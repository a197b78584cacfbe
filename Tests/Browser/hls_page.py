#!/usr/bin/python3
"""Plays `avcapture stream --hls` in a real headless Chromium while the folder grows, and prints what it saw as JSON.

Usage: hls_page.py AVCAPTURE [--seconds N]

Runs `avcapture stream --hls FOLDER` on the virtual devices for N + 8 seconds with 1 s segments;
once the playlist lists three segments (it appears with them), serves the folder with Python's http.server on a free
loopback port and opens a page whose <video> plays index.m3u8 (Chromium plays fragmented MPEG-4
HLS natively); reads its state twice while the stream goes on, then after it ends. The caller
checks the results.
"""
import functools
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_view_page import headless_chromium  # noqa: E402

PAGE = b"<!doctype html><video id='video' src='index.m3u8' muted autoplay playsinline></video>"


def video_state(driver):
    return driver.execute_script(
        "const v = document.getElementById('video');"
        "return {readyState: v.readyState, currentTime: v.currentTime, width: v.videoWidth, height: v.videoHeight,"
        " error: v.error ? v.error.code : null, errorMessage: v.error ? v.error.message : null, paused: v.paused};")


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
    stream = subprocess.Popen([avcapture, "stream", "--hls", folder, "--seconds", str(seconds + 8), "--segment-seconds", "1",
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
        time.sleep(2)
        results["early"] = video_state(driver)
        time.sleep(seconds)
        results["later"] = video_state(driver)
        if results["early"]["error"] is not None or results["later"]["error"] is not None:
            results["folderAtError"] = folder_state(folder)
        results["streamRunningWhilePlaying"] = stream.poll() is None
    finally:
        driver.quit()
        stream.wait(timeout=60)
        server.shutdown()
    results["streamStatus"] = stream.returncode
    results["ended"] = open(playlist).read().rstrip().endswith("#EXT-X-ENDLIST")
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
