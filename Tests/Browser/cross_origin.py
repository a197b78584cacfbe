#!/usr/bin/python3
"""Attacks `avcapture preview`'s live view from other origins in a real headless Chromium and
prints what got through as JSON.

Usage: cross_origin.py AVCAPTURE [--seconds N]

Starts `avcapture preview` on its defaults (loopback, no --token: the page carries a generated
one) on a free port, saving into an empty folder. Then, as an attacker would:
- a page on another origin (another port of 127.0.0.1) opens the frames WebSocket, with no token
  and with a guessed one, and counts what arrives; reads the live view's page with fetch to steal
  its token; and sends the cross-site requests that need no preflight (text/plain POSTs to take a
  photo, start a recording and turn the torch on, and a form POST);
- a page served under a rebinding name (Chromium resolves rebind.test to 127.0.0.1, as DNS
  rebinding makes a name do) loads the live view through that name;
and finally the live view's own page, at its own address, must still show frames. The caller
checks the results, and that the save folder stayed empty.
"""
import http.server
import json
import os
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_view_page import headless_chromium, start_server, stop, wait_for  # noqa: E402

ATTACK = """<!doctype html><html><body><script>
const target = "127.0.0.1:%(port)d";
const attack = window.attack = { frames: 0, opened: 0, stolen: null, done: false };
function socket(query) {
  return new Promise((resolve) => {
    const ws = new WebSocket("ws://" + target + "/frames" + query);
    ws.binaryType = "arraybuffer";
    ws.onopen = () => { attack.opened += 1; };
    ws.onmessage = (event) => { attack.frames += 1; ws.send("drawn"); };
    ws.onerror = () => resolve();
    setTimeout(() => { ws.close(); resolve(); }, 2500);
  });
}
async function run() {
  const simple = (path, body) => fetch("http://" + target + path, {
    method: "POST", mode: "no-cors", headers: { "Content-Type": "text/plain" }, body }).catch(() => {});
  await simple("/api/photo", "{}");
  await simple("/api/record", '{"recording":true}');
  await simple("/api/torch", '{"on":true}');
  try {
    const page = await fetch("http://" + target + "/", { mode: "cors" });
    attack.stolen = (await page.text()).match(/live-view-token" content="([^"]*)/)[1];
  } catch (error) { attack.stolen = null; }
  await Promise.all([socket(""), socket("?token=" + "0".repeat(32))]);
  const form = document.createElement("form");
  form.method = "POST"; form.action = "http://" + target + "/api/photo"; form.enctype = "text/plain"; form.target = "sink";
  const field = document.createElement("input"); field.name = '{"a":"'; field.value = '"}'; form.appendChild(field);
  const sink = document.createElement("iframe"); sink.name = "sink"; document.body.appendChild(sink);
  document.body.appendChild(form); form.submit();
  setTimeout(() => { attack.done = true; }, 1000);
}
run();
</script></body></html>"""


def serve_attacker(port):
    """An HTTP server on another port of loopback serving the attack page; returns its port."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = (ATTACK % {"port": port}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *arguments):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    avcapture = sys.argv[1]
    saves = tempfile.mkdtemp(prefix="liveview-attack-")
    server, url = start_server([avcapture, "preview", "--port", "0", "--save-to", saves, "--no-audio", "--seconds", "120"])
    if url is None:
        print(json.dumps({"error": "avcapture preview printed no address"}))
        return 1
    port = int(url.rstrip("/").rsplit(":", 1)[1].split("/")[0])
    attacker = serve_attacker(port)
    driver = headless_chromium("800,600", ["--host-resolver-rules=MAP rebind.test 127.0.0.1"])
    results = {}
    try:
        driver.set_script_timeout(20)
        driver.get(f"http://127.0.0.1:{attacker.server_address[1]}/")
        wait_for(driver, "window.attack && window.attack.done")
        attack = driver.execute_script("return window.attack")
        results["foreignFrames"] = attack["frames"]
        results["foreignSocketsOpened"] = attack["opened"]
        results["tokenStolen"] = attack["stolen"]
        # DNS rebinding: the page through a name that resolves to loopback.
        driver.get(f"http://rebind.test:{port}/")
        results["rebindingPage"] = driver.find_element("tag name", "body").text[:200]
        # The live view's own page still works.
        driver.get(url)
        wait_for(driver, "window.liveView && window.liveView.frames >= 10")
        results["ownPageFrames"] = driver.execute_script("return window.liveView.frames")
        results["torch"] = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/api/state' + query).then(r => r.json()).then(s => done(s.torch)).catch(e => done(String(e)));")
        results["ownPageErrors"] = driver.execute_script("return window.liveView.errors")
        results["saved"] = sorted(os.listdir(saves))
    finally:
        stop(driver, server)
        attacker.shutdown()
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
