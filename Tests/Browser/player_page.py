#!/usr/bin/python3
"""Drives `avcapture play --preview`'s page in a real headless Chromium and prints what it saw as JSON.

Usage: player_page.py AVCAPTURE [--seconds N]

Makes a 20-second 640x360 30 fps movie with ffmpeg (testsrc2, all blue from 4 s to 6 s); serves
it with `avcapture play --preview` on a free port with a token; opens the page with Debian's
chromium and chromium-driver (through python3-selenium); seeks back to the start and plays (the
movie has played while the browser started); takes two screenshots while it plays;
measures frames drawn per second and due-to-canvas latency as the page measures it; clicks the
picture to pause; moves the position slider to 5 s and reads the colour in the middle of the
canvas; sets the rate to 2 with the page's control and plays again; opens the page with a wrong
token. The caller checks the results.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_view_page import headless_chromium, last_checks, screenshots_differ, start_server, state, stop, wait_for  # noqa: E402


def timed_state(driver, token):
    """The player's time, and the wall times the request that read it was sent and answered."""
    start = time.time()
    time_now = state(driver, token)["time"]
    return time_now, start, time.time()


def rate_bounds(samples):
    """The least and the most a player's rate can be, given (movie time, sent, answered) samples.

    Each movie time was read at some moment between its request's sending and its answer, so the
    movie's advance from the first sample to the last took at least the span between the first
    answer and the last sending, and at most the span between the first sending and the last
    answer, however slow the requests were and however unlike their ways there and back."""
    if len(samples) < 2:
        return 0, 0
    (first, first_sent, first_answered), (last, last_sent, last_answered) = samples[0], samples[-1]
    advance = last - first
    shortest = last_sent - first_answered
    return advance / (last_answered - first_sent), advance / shortest if shortest > 0 else float("inf")


def slope(samples):
    """The least-squares slope of (x, y) samples; 0 with fewer than two."""
    if len(samples) < 2:
        return 0
    mean_x = sum(x for x, _ in samples) / len(samples)
    mean_y = sum(y for _, y in samples) / len(samples)
    spread = sum((x - mean_x) ** 2 for x, _ in samples)
    return sum((x - mean_x) * (y - mean_y) for x, y in samples) / spread if spread > 0 else 0


def seek(driver, seconds):
    """Moves the page's position slider to `seconds` and returns the player's answer."""
    count = driver.execute_script("return window.liveView.answers.filter(a => a.name === 'seek').length")
    driver.execute_script(
        f"const p = document.getElementById('position'); p.value = {seconds}; p.dispatchEvent(new Event('change'));")
    wait_for(driver, f"window.liveView.answers.filter(a => a.name === 'seek').length > {count}")
    return driver.execute_script("return window.liveView.answers.filter(a => a.name === 'seek').pop().answer")


def centre_colour(driver):
    """The red, green and blue of the canvas's middle pixel."""
    return driver.execute_script(
        "const canvas = document.getElementById('view'); const context = canvas.getContext('2d');"
        "return Array.from(context.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data.slice(0, 3));")


def main():
    avcapture = sys.argv[1]
    seconds = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 3
    token = "player-test-token"
    folder = tempfile.mkdtemp(prefix="player-browser-")
    movie = os.path.join(folder, "movie.mp4")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=s=640x360:r=30:d=20,drawbox=x=0:y=0:w=640:h=360:color=blue:t=fill:enable='between(t,4,6)'",
                    "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p", movie], check=True)
    server, url = start_server([avcapture, "play", movie, "--preview", "--port", "0", "--token", token, "--seconds", str(seconds + 60)])
    if url is None:
        print(json.dumps({"error": "avcapture play --preview printed no address"}))
        return 1
    driver = headless_chromium("1000,800")
    results = {}
    try:
        driver.set_script_timeout(20)
        driver.get(url)
        wait_for(driver, "window.liveView && window.liveView.frames >= 15")
        # The movie has played since the server started, while the browser started (seconds on a
        # busy machine, to its end on a very busy one): back to its start, playing, so that each
        # step below has the movie's time it needs whatever the time the browser took.
        seek(driver, 0)
        if not state(driver, token)["playing"]:
            driver.find_element(By.ID, "play").click()
        wait_for(driver, "window.liveView.state && window.liveView.state.playing === true")
        results["screenshotsDiffer"] = screenshots_differ(driver)
        start_frames = driver.execute_script("return window.liveView.frames")
        start_latencies = driver.execute_script("return window.liveView.latencies.length")
        time.sleep(seconds)
        frames = driver.execute_script("return window.liveView.frames")
        latencies = sorted(driver.execute_script(f"return window.liveView.latencies.slice({start_latencies})"))
        results["fps"] = (frames - start_frames) / seconds
        results["latencyMedian"] = latencies[len(latencies) // 2]
        results["latencyP95"] = latencies[min(len(latencies) - 1, int(len(latencies) * 0.95))]
        results["canvas"] = driver.execute_script("const c = document.getElementById('view'); return [c.width, c.height];")

        # A click on the picture pauses; the pictures stop.
        driver.find_element(By.ID, "view").click()
        wait_for(driver, "window.liveView.state && window.liveView.state.playing === false")
        results["pausedState"] = state(driver, token)
        paused_frames = driver.execute_script("return window.liveView.frames")
        time.sleep(1)
        results["framesWhilePaused"] = driver.execute_script("return window.liveView.frames") - paused_frames

        # The position slider seeks: at 5 s the movie is all blue.
        results["seekAnswer"] = seek(driver, 5)
        deadline = time.time() + 5
        while time.time() < deadline:
            results["colourAtFive"] = centre_colour(driver)
            if results["colourAtFive"][2] > 200:
                break
            time.sleep(0.1)
        results["timeAfterSeek"] = state(driver, token)["time"]

        # Rate 2 from the page, then play: the movie's time moves twice as fast as the wall clock.
        Select(driver.find_element(By.ID, "rate")).select_by_value("2")
        wait_for(driver, "window.liveView.answers.some(a => a.name === 'rate')")
        driver.find_element(By.ID, "play").click()
        wait_for(driver, "window.liveView.state && window.liveView.state.playing === true")
        # Measured once the movie's time moves (playing starts a little after the answer), over three
        # seconds of samples (the movie, from 5 s at rate 2, ends after seven): the bounds the
        # requests' own times put on the rate, which hold however long a busy machine takes to
        # answer (a request took 0.75 s once), and the slope through the requests' middles.
        started = state(driver, token)["time"]
        deadline = time.time() + 5
        while time.time() < deadline and state(driver, token)["time"] <= started:
            time.sleep(0.05)
        samples = []
        until = time.time() + 3
        while time.time() < until:
            movie_time, sent, answered = timed_state(driver, token)
            if movie_time >= 19.9:
                break
            samples.append((movie_time, sent, answered))
            time.sleep(0.02)
        results["rateSamples"] = len(samples)
        results["rateMeasured"] = slope([((sent + answered) / 2, movie_time) for movie_time, sent, answered in samples])
        results["rateAtLeast"], results["rateAtMost"] = rate_bounds(samples)
        results["playingState"] = state(driver, token)
        results.update(last_checks(driver, url, token))
    finally:
        stop(driver, server)
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
