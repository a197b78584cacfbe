#!/usr/bin/python3
"""Drives `avcapture preview`'s page in a real headless Chromium and prints what it saw as JSON.

Usage: live_view_page.py AVCAPTURE [--seconds N]

Starts `avcapture preview` on a free port with a token, a square 800x800 preview and aspect
fill; opens the page with Debian's chromium and chromium-driver (through python3-selenium);
takes two screenshots; reads the virtual scene's frame counter off the canvas a few times;
measures frames drawn per second and capture-to-canvas latency as the page measures it; clicks
at the layer point (200, 400); turns the torch on with the page's button; and opens the page with
a wrong token. The caller checks the results.
"""
import json
import re
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By


def wait_for(driver, script, timeout=20):
    """Polls a JavaScript expression until it is truthy; returns its value."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = driver.execute_script("return " + script)
        if value:
            return value
        time.sleep(0.1)
    raise TimeoutError("timed out waiting for: " + script)


# Segments a to g of a seven-segment digit, as the virtual scene draws them (bit 0 is a).
DIGITS = {0x3F: 0, 0x06: 1, 0x5B: 2, 0x4F: 3, 0x66: 4, 0x6D: 5, 0x7D: 6, 0x07: 7, 0x7F: 8, 0x6F: 9}


def counter_probes(sensor_width, sensor_height, layer_width, layer_height):
    """Where the last two digits of the scene's frame counter land on an aspect-filled canvas:
    for each digit (tens, units), the canvas point at the middle of each segment a to g."""
    h = max(10, sensor_height // 14)
    w, stroke = max(6, h // 2), max(2, h // 9)
    gap, margin = max(2, w // 3), max(4, sensor_height // 40)
    scale = max(layer_width / sensor_width, layer_height / sensor_height)
    crop_x = (sensor_width * scale - layer_width) / 2
    crop_y = (sensor_height * scale - layer_height) / 2
    digits = []
    for place in (8, 9):
        x, y = margin + place * (w + gap), margin
        middles = [(x + w / 2, y + stroke / 2), (x + w - stroke / 2, y + h / 4), (x + w - stroke / 2, y + 3 * h / 4),
                   (x + w / 2, y + h - stroke / 2), (x + stroke / 2, y + 3 * h / 4), (x + stroke / 2, y + h / 4),
                   (x + w / 2, y + h / 2)]
        digits.append([[round(px * scale - crop_x), round(py * scale - crop_y)] for px, py in middles])
    return digits


def read_counter(driver, probes):
    """The last two digits of the frame counter as the canvas shows it now, or None."""
    lit = driver.execute_script(
        "const context = document.getElementById('view').getContext('2d');"
        "return arguments[0].map(d => d.map(([x, y]) => {"
        "  const p = context.getImageData(x, y, 1, 1).data; return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2] > 128; }));",
        probes)
    value = 0
    for segments in lit:
        bits = sum(1 << index for index, on in enumerate(segments) if on)
        if bits not in DIGITS:
            return None
        value = value * 10 + DIGITS[bits]
    return value


def state(driver, token):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"fetch('/api/state?token={token}').then(r => r.json()).then(done).catch(e => done(String(e)));")


def start_server(command):
    """Starts an avcapture command that serves a page; returns the process and the address it printed, or None."""
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in server.stdout:
        match = re.search(r"Open (http://\S+)", line)
        if match:
            return server, match.group(1)
    server.kill()
    return server, None


def headless_chromium(window, extra=()):
    """Debian's chromium, headless, through chromium-driver, in a window of `window` ("W,H"),
    with `extra` command-line arguments."""
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={window}",
                     "--disable-gpu", "--mute-audio", *extra]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def screenshots_differ(driver):
    """Whether two screenshots half a second apart differ: the picture moves."""
    first = driver.get_screenshot_as_png()
    time.sleep(0.5)
    return first != driver.get_screenshot_as_png()


def last_checks(driver, url, token):
    """The errors the page met, then whether the page with a wrong token is refused (it leaves the page)."""
    errors = driver.execute_script("return window.liveView.errors")
    driver.get(url.replace(token, "wrong-token"))
    return {"pageErrors": errors, "badTokenRefused": "access token" in driver.find_element(By.TAG_NAME, "body").text}


def stop(driver, server):
    """Quits the browser and stops the server."""
    driver.quit()
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()


def main():
    avcapture = sys.argv[1]
    seconds = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 5
    token = "browser-test-token"
    saves = tempfile.mkdtemp(prefix="liveview-browser-")
    server, url = start_server([avcapture, "preview", "--port", "0", "--size", "800x800", "--gravity", "fill", "--token", token,
                                "--save-to", saves, "--seconds", str(seconds + 60)])
    if url is None:
        print(json.dumps({"error": "avcapture preview printed no address"}))
        return 1
    driver = headless_chromium("1000,1000")
    results = {}
    try:
        driver.set_script_timeout(20)
        driver.get(url)
        wait_for(driver, "window.liveView && window.liveView.frames >= 30")
        results["screenshotsDiffer"] = screenshots_differ(driver)
        # The 1280x720 scene, aspect-filled into the 800x800 layer.
        probes = counter_probes(1280, 720, 800, 800)
        counters = []
        for _ in range(6):
            counters.append(read_counter(driver, probes))
            time.sleep(0.3)
        results["counters"] = counters
        start_frames = driver.execute_script("return window.liveView.frames")
        start_latencies = driver.execute_script("return window.liveView.latencies.length")
        time.sleep(seconds)
        frames = driver.execute_script("return window.liveView.frames")
        latencies = driver.execute_script(f"return window.liveView.latencies.slice({start_latencies})")
        latencies.sort()
        results["fps"] = (frames - start_frames) / seconds
        results["latencyMedian"] = latencies[len(latencies) // 2]
        results["latencyP95"] = latencies[min(len(latencies) - 1, int(len(latencies) * 0.95))]
        results["latencyMax"] = latencies[-1]
        canvas = driver.find_element(By.ID, "view")
        rect = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height];", canvas)
        results["canvasCSS"] = rect
        # Selenium's offsets are from the element's centre, in CSS pixels.
        ActionChains(driver).move_to_element_with_offset(canvas, 200 / 800 * rect[0] - rect[0] / 2,
                                                         400 / 800 * rect[1] - rect[1] / 2).click().perform()
        results["focusAnswer"] = wait_for(driver, "window.liveView.focus")
        results["focusPoint"] = state(driver, token)["focusPoint"]
        driver.find_element(By.ID, "torch").click()
        deadline = time.time() + 5
        while time.time() < deadline and not state(driver, token)["torch"]:
            time.sleep(0.1)
        results["torch"] = state(driver, token)["torch"]
        results.update(last_checks(driver, url, token))
    finally:
        stop(driver, server)
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
