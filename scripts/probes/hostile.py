#!/usr/bin/env python3
"""Probes the release avcapture as an attacker and a careless user would, on loopback only:
clients racing the live view's controls, crowds of connections, heads its parser rejects, links
planted in an HLS folder, pictures and movies that cost more than their size, damaged movies
(and every movie the fuzzing kept) through export, thumbnail and play, and closed or broken
standard streams. Each probe passes or fails with what it saw; the last line counts them.

usage: hostile.py AVCAPTURE
"""
import collections, concurrent.futures, json, os, random, re, shutil, signal, socket, struct, subprocess, sys, tempfile, threading, time, urllib.request, zlib

AVCAPTURE = os.path.abspath(sys.argv[1])
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORK = tempfile.mkdtemp(prefix="avcapture-probes-")
ENV = dict(os.environ, LINUXAVFOUNDATION_DEVICES="virtual")
# A crash prints its backtrace: the statically linked binary is told where Swift's backtracer is.
if shutil.which("swift"):
    BACKTRACER = os.path.join(os.path.dirname(os.path.realpath(shutil.which("swift"))), "..", "libexec", "swift", "linux", "swift-backtrace-static")
    if os.path.exists(BACKTRACER):
        ENV["SWIFT_BACKTRACE"] = f"enable=yes,interactive=no,swift-backtrace={os.path.realpath(BACKTRACER)}"
results = []


def probe(name):
    def wrap(function):
        started = time.time()
        try:
            detail = function()
            results.append((name, True, detail or ""))
            print(f"ok   {name} ({time.time() - started:.1f} s) {detail or ''}", flush=True)
        except Exception as error:  # a failed probe says what it saw and the rest go on
            results.append((name, False, str(error)))
            print(f"FAIL {name} ({time.time() - started:.1f} s): {error}", flush=True)
        return function
    return wrap


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def run(arguments, timeout=120):
    """Runs avcapture; its exit status (negative for a signal) and output."""
    process = subprocess.run([AVCAPTURE] + arguments, capture_output=True, text=True, timeout=timeout, env=ENV)
    return process.returncode, process.stdout + process.stderr


def measured(arguments, timeout=120):
    """Runs avcapture in a process of its own that reports the child's peak memory (MB) and time (s)."""
    code = (
        "import resource,subprocess,sys,time,json;t=time.time();"
        "p=subprocess.run(sys.argv[1:],capture_output=True,text=True);"
        "print(json.dumps([p.returncode,p.stdout+p.stderr,resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss/1024,time.time()-t]))"
    )
    out = subprocess.run([sys.executable, "-c", code, AVCAPTURE] + arguments, capture_output=True, text=True, timeout=timeout, env=ENV)
    return json.loads(out.stdout)


def ffprobe_packets(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets",
                          "-of", "csv=p=0", path], capture_output=True, text=True)
    # A movie with a display matrix (a mirrored camera's) has its side data printed after the count.
    first = out.stdout.strip().split("\n")[0].split(",")[0] if out.returncode == 0 else ""
    return int(first) if first.isdigit() else 0


class Preview:
    """avcapture preview on a free port, its address and token read from what it prints."""
    def __init__(self, *extra):
        self.folder = tempfile.mkdtemp(dir=WORK, prefix="saves-")
        self.process = subprocess.Popen([AVCAPTURE, "preview", "--port", "0", "--seconds", "300", "--format", "640x480@10", "--save-to", self.folder,
                                         "--detect", "none", *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
        self.port = self.token = None
        deadline = time.time() + 60
        while time.time() < deadline and (self.port is None or self.token is None):
            line = self.process.stdout.readline()
            if not line:
                break
            if m := re.search(r"http://[^:]+:(\d+)/", line):
                self.port = int(m.group(1))
            if m := re.search(r"token: ([0-9a-f]+)", line):
                self.token = m.group(1)
        check(self.port and self.token, "the preview printed its address and token")
        # The last lines it printed are kept, to be shown should it die.
        self.output = collections.deque(maxlen=200)
        threading.Thread(target=lambda: self.output.extend(self.process.stdout), daemon=True).start()

    def alive(self):
        """Checks that the preview still runs; if it died, what it last printed (a crash's backtrace) is shown."""
        if self.process.poll() is None:
            return
        time.sleep(1)  # the backtracer's last lines
        print("".join(self.output), flush=True)
        raise AssertionError(f"the preview died: {self.process.returncode}")

    def post(self, control, body, timeout=30):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/{control}?token={self.token}", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def stop(self, how=signal.SIGTERM, within=20):
        self.process.send_signal(how)
        try:
            return self.process.wait(timeout=within)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError(f"the preview did not stop within {within} s of {how.name}")


def exchange(port, data, seconds=10):
    """Sends raw bytes; the answer until the server closes, and when its first byte came (s)."""
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as connection:
        started = time.time()
        connection.sendall(data)
        answer, first = b"", None
        try:
            while time.time() - started < seconds:
                piece = connection.recv(4096)
                if not piece:
                    break
                first = first or time.time() - started
                answer += piece
        except socket.timeout:
            pass
        return answer.decode("latin-1"), first


# MARK: The live view under concurrent requests

@probe("record on and off from eight clients: every start answered 200 ends in a playable movie, and SIGTERM stops the server")
def _():
    preview = Preview()
    starts, lock = [], threading.Lock()
    def client(index):
        end = time.time() + 8
        on = index % 2 == 0
        while time.time() < end:
            status, body = preview.post("record", {"recording": on})
            check(status in (200, 409, 503), f"record answered {status} {body}")
            if on and status == 200:
                with lock:
                    starts.append(body["file"])
            on = not on
    threads = [threading.Thread(target=client, args=(i,)) for i in range(8)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    check(preview.stop() == 0, "the preview exits 0")
    unplayable = [f for f in starts if ffprobe_packets(f) == 0]
    hidden = [n for n in os.listdir(preview.folder) if n.startswith(".")]
    check(starts, "some starts won")
    check(not unplayable, f"{len(unplayable)} of {len(starts)} started movies do not play: {unplayable[:3]}")
    check(not hidden, f"half-written files left: {hidden}")
    return f"{len(starts)} recordings, all playable"


@probe("photos while the camera is switched, from six clients: no crash, no 409 from a name taken twice")
def _():
    preview = Preview()
    cameras = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{preview.port}/api/state?token={preview.token}").read())["cameras"]
    statuses, lock = [], threading.Lock()
    def switcher():
        end, index = time.time() + 8, 0
        while time.time() < end:
            status, _ = preview.post("camera", {"uniqueID": cameras[index % len(cameras)]["uniqueID"]})
            index += 1
    def shooter():
        end = time.time() + 8
        while time.time() < end:
            status, body = preview.post("photo", {})
            with lock:
                statuses.append((status, body.get("error", "")))
    threads = [threading.Thread(target=switcher) for _ in range(3)] + [threading.Thread(target=shooter) for _ in range(3)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    preview.alive()
    taken = [s for s, _ in statuses if s == 200]
    name_clashes = [e for s, e in statuses if s == 409 and "exists" in e]
    check(not name_clashes, f"names taken twice: {name_clashes[:2]}")
    check(preview.stop() == 0, "the preview exits 0")
    photos = [n for n in os.listdir(preview.folder) if n.endswith(".jpg")]
    check(len(photos) == len(taken), f"{len(taken)} photos answered 200, {len(photos)} files")
    return f"{len(taken)} photos, {len(statuses) - len(taken)} refused while switching"


@probe("every control from twelve clients at once, the camera switched meanwhile: no crash, every movie plays")
def _():
    preview = Preview()
    cameras = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{preview.port}/api/state?token={preview.token}").read())["cameras"]
    unexpected, lock = [], threading.Lock()
    def client(seed):
        pick, end = random.Random(seed), time.time() + 10
        while time.time() < end:
            control, body = pick.choice([
                ("camera", {"uniqueID": pick.choice(cameras)["uniqueID"]}), ("photo", {}), ("record", {"recording": pick.random() < 0.5}),
                ("zoom", {"factor": pick.uniform(1, 20)}), ("torch", {"on": pick.random() < 0.5}), ("focus", {"x": pick.random(), "y": pick.random()}),
                ("mirror", {"mirrored": pick.random() < 0.5}), ("gravity", {"gravity": pick.choice(["resizeAspect", "resize", "resizeAspectFill"])})])
            status, answer = preview.post(control, body)
            if status not in (200, 409, 422, 503):
                with lock:
                    unexpected.append((control, status, answer))
    threads = [threading.Thread(target=client, args=(i,)) for i in range(12)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    preview.alive()
    check(not unexpected, f"unexpected answers: {unexpected[:3]}")
    check(preview.stop() == 0, "the preview exits 0")
    movies = [os.path.join(preview.folder, n) for n in os.listdir(preview.folder) if n.endswith(".mov")]
    unplayable = [m for m in movies if ffprobe_packets(m) == 0]
    hidden = [n for n in os.listdir(preview.folder) if n.startswith(".")]
    check(not unplayable, f"{len(unplayable)} of {len(movies)} movies do not play")
    check(not hidden, f"half-written files left: {hidden}")
    return f"{len(movies)} movies, all playable"


@probe("a stuck recording ended by --seconds leaves a complete movie and nothing hidden")
def _():
    folder = tempfile.mkdtemp(dir=WORK)
    process = subprocess.Popen([AVCAPTURE, "preview", "--port", "0", "--seconds", "4", "--format", "640x480@10", "--save-to", folder, "--detect", "none"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
    port = token = None
    while port is None or token is None:
        line = process.stdout.readline()
        if m := re.search(r"http://[^:]+:(\d+)/", line): port = int(m.group(1))
        if m := re.search(r"token: ([0-9a-f]+)", line): token = m.group(1)
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/record?token={token}", data=b'{"recording":true}', headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=20).read()
    check(process.wait(timeout=40) == 0, "the preview exits 0 at --seconds")
    names = os.listdir(folder)
    movies = [n for n in names if n.endswith(".mov")]
    check(len(movies) == 1 and ffprobe_packets(os.path.join(folder, movies[0])) > 0, f"one playable movie: {names}")
    check(not [n for n in names if n.startswith(".")], f"nothing hidden: {names}")


@probe("a crowd: 60 silent sockets and 40 clients without the token leave the owner answered at once")
def _():
    preview = Preview()
    silent = [socket.create_connection(("127.0.0.1", preview.port)) for _ in range(60)]
    anonymous = []
    for _ in range(40):
        s = socket.create_connection(("127.0.0.1", preview.port))
        s.sendall(f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{preview.port}\r\n\r\n".encode())
        anonymous.append(s)
    started = time.time()
    answer, first = exchange(preview.port, f"GET /api/state?token={preview.token} HTTP/1.1\r\nHost: 127.0.0.1:{preview.port}\r\nConnection: close\r\n\r\n".encode())
    waited = time.time() - started
    for s in silent + anonymous:
        s.close()
    check(answer.startswith("HTTP/1.1 200"), f"the owner's request: {answer[:60]!r}")
    check(waited < 3, f"answered after {waited:.1f} s")
    check(preview.stop() == 0, "the preview exits 0")
    return f"owner answered in {waited * 1000:.0f} ms"


@probe("heads the parser rejects are answered 400 at once, and SIGTERM is not held up by them")
def _():
    preview = Preview()
    for head in [b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n", b"GARBAGE\r\n\r\n",
                 b"POST /api/zoom HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n"]:
        answer, first = exchange(preview.port, head, seconds=20)
        check(answer.startswith("HTTP/1.1 400") and (first or 99) < 2, f"{head[:30]!r}: {answer[:40]!r} after {first}")
    held = socket.create_connection(("127.0.0.1", preview.port))
    held.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n")
    started = time.time()
    check(preview.stop(within=10) == 0, "the preview exits 0")
    return f"stopped {time.time() - started:.1f} s after SIGTERM"


@probe("the frames socket: refusals say why, a plain GET is 426")
def _():
    preview = Preview()
    handshake = "GET /frames{} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    answer, _ = exchange(preview.port, handshake.format("", preview.port).encode(), seconds=5)
    check(answer.startswith("HTTP/1.1 401") and "token" in answer, answer[:200])
    answer, _ = exchange(preview.port, f"GET /frames?token={preview.token} HTTP/1.1\r\nHost: 127.0.0.1:{preview.port}\r\n\r\n".encode(), seconds=5)
    check(answer.startswith("HTTP/1.1 426"), answer[:80])
    preview.stop()


# MARK: Files

@probe("stream --hls writes through no planted link and replaces no file")
def _():
    folder = tempfile.mkdtemp(dir=WORK)
    victim = os.path.join(WORK, "victim.txt")
    open(victim, "w").write("mine")
    for name in [".segment0.m4s.partial", ".init.mp4.partial", ".index.m3u8.partial"]:
        os.symlink(victim, os.path.join(folder, name))
    code, output = run(["stream", "--hls", folder, "--seconds", "4", "--segment-seconds", "1", "--format", "640x480@30", "--no-audio"])
    check(code == 0, output[-300:])
    check(open(victim).read() == "mine", "the victim was overwritten")
    used = tempfile.mkdtemp(dir=WORK)
    open(os.path.join(used, "init.mp4"), "w").write("users")
    code, output = run(["stream", "--hls", used, "--seconds", "2"])
    check(code != 0 and "already holds init.mp4" in output and open(os.path.join(used, "init.mp4")).read() == "users", output[-200:])
    code, output = run(["stream", "--hls", ""])
    check(code != 0 and "needs a folder" in output, output[-200:])


# MARK: Pictures and movies that cost more than their size

def png(width, height, grey):
    row = b"\x00" + bytes([grey]) * width
    data = zlib.compress(row * height, 9)
    chunk = lambda kind, body: struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


@probe("a 10000x10000 grey PNG of ~100 KB: bounded memory and time, four at once in one budget")
def _():
    path = os.path.join(WORK, "huge.png")
    open(path, "wb").write(png(10000, 10000, 200))
    # Exit status 4 is zbarimg's "no code found", which scan follows: the picture is blank.
    code, output, peak, seconds = measured(["scan", "--image", path])
    check(code in (0, 4) and peak < 700 and "scanned 0 barcode symbols" in output, f"exit {code}, {peak:.0f} MB, {seconds:.1f} s: {output[-200:]}")
    code4, _, peak4, seconds4 = measured(["scan", "--image", path, path, path, path])
    check(code4 in (0, 4) and peak4 < 800, f"four at once: exit {code4}, {peak4:.0f} MB")
    return f"one: {peak:.0f} MB in {seconds:.1f} s (was 1.4 GB, 14 s); four: {peak4:.0f} MB in {seconds4:.1f} s (was 1.85 GB, 51 s)"


@probe("a progressive JPEG of 3,000 scans is refused quickly")
def _():
    jpeg = bytes([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x00]) + bytes([1] * 64)
    jpeg += bytes([0xFF, 0xC2, 0x00, 0x0B, 0x08, 0x02, 0x00, 0x02, 0x00, 0x01, 0x01, 0x11, 0x00])
    for table in (0x00, 0x10):
        jpeg += bytes([0xFF, 0xC4, 0x00, 0x14, table, 0x01] + [0] * 15 + [0x00])
    jpeg += bytes([0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00]) + bytes([0x00] * 8192)
    for _ in range(3000):
        jpeg += bytes([0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x3F, 0x00]) + bytes([0x7F])
    jpeg += bytes([0xFF, 0xD9])
    path = os.path.join(WORK, "scans.jpg")
    open(path, "wb").write(jpeg)
    code, output, peak, seconds = measured(["scan", "--image", path])
    check("more than 100 scans" in output and seconds < 10, f"{seconds:.1f} s: {output[-200:]}")
    return f"refused in {seconds:.2f} s"


def movie(name, *arguments):
    path = os.path.join(WORK, name)
    subprocess.run(["ffmpeg", "-v", "error", "-y", *arguments, path], check=True)
    return path


@probe("a movie of more pixels than a picture may have is refused before decoding; a 100-picture sheet stays small")
def _():
    # 10240x10240 H.264 of one grey picture: 300 KB that decodes to 157 MB a frame.
    huge = movie("huge.mp4", "-f", "lavfi", "-i", "color=gray:s=10240x10240:d=0.1:r=10", "-frames:v", "1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p")
    code, output, peak, seconds = measured(["thumbnail", huge, os.path.join(WORK, "huge.jpg")])
    check(code != 0 and "megapixels" in output and peak < 250, f"exit {code}, {peak:.0f} MB: {output[-200:]}")
    clip = movie("clip-1080.mp4", "-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=30:d=10", "-c:v", "libx264", "-preset", "ultrafast", "-g", "30")
    sheet = os.path.join(WORK, "sheet.jpg")
    code, output, peak2, seconds2 = measured(["thumbnail", clip, sheet, "--sheet", "--count", "100"], timeout=300)
    check(code == 0 and peak2 < 600, f"sheet: exit {code}, {peak2:.0f} MB, {seconds2:.1f} s: {output[-200:]}")
    return f"10240x10240: refused at {peak:.0f} MB; 1080p sheet of 100: {peak2:.0f} MB in {seconds2:.1f} s"


# MARK: Damaged movies

def damaged_movies():
    source = movie("source.mov", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=frequency=440", "-t", "2",
                   "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest")
    data = open(source, "rb").read()
    moov, mdhd = data.find(b"moov"), data.find(b"mdhd")
    at = mdhd + 4 + 4 + (16 if data[mdhd + 4] == 1 else 8)
    cases = {"cut-in-moov.mov": data[:moov + 200]}
    for name, value in (("0", 0), ("1", 1), ("max", 0xFFFFFFFF)):
        changed = bytearray(data)
        struct.pack_into(">I", changed, at, value)
        cases[f"timescale-{name}.mov"] = bytes(changed)
    paths = []
    for name, content in cases.items():
        path = os.path.join(WORK, name)
        open(path, "wb").write(content)
        paths.append(path)
    return paths


def survive(path, label):
    out = os.path.join(WORK, "out-" + os.path.basename(path))
    for arguments in (["export", path, out + ".mp4"], ["export", path, out + "-low.mp4", "--preset", "low"],
                      ["thumbnail", path, out + ".jpg"], ["play", path, "--seconds", "1"]):
        try:
            code, output = run(arguments, timeout=60)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{label} {arguments[0]}: still running after 60 s")
        check(code >= 0 and "Fatal error" not in output, f"{label} {' '.join(arguments[:1] + arguments[3:])}: exit {code}: {output[-300:]}")
        check(code == 0 or output.strip(), f"{label} {arguments[0]}: failed without a word")


def survive_all(paths):
    """`survive` for each of `paths`, four at a time (play waits out its second): the first failure is raised."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        for future in [pool.submit(survive, path, os.path.basename(path)) for path in paths]:
            future.result()


@probe("damaged movies through export, thumbnail and play: an error with a message, never a crash")
def _():
    survive_all(damaged_movies())


@probe("every movie the fuzzing kept through export, thumbnail and play")
def _():
    corpus = os.path.join(ROOT, "Fuzz", "corpus", "movie-reader")
    names = sorted(os.listdir(corpus))
    survive_all([os.path.join(corpus, name) for name in names])
    return f"{len(names)} movies"


# MARK: Standard streams

@probe("record | head -1 and closed streams: the movie is whole, no SIGPIPE, no trap")
def _():
    path = os.path.join(WORK, "piped.mov")
    pipeline = subprocess.run(["/bin/sh", "-c", f'"$0" record "$1" --seconds 2 --preset low --no-audio | head -1', AVCAPTURE, path],
                              capture_output=True, text=True, env=ENV, timeout=60)
    check(ffprobe_packets(path) > 20, f"the movie behind the pipe: {ffprobe_packets(path)} pictures")

    def closed(case):
        # Each case in a process of its own, with its own status file and HLS folder: three at a time.
        index, (arguments, redirect) = case
        status_file = os.path.join(WORK, f"status-{index}")
        arguments = [argument.replace("closed-hls", f"closed-hls-{index}") for argument in arguments]
        subprocess.run(["/bin/sh", "-c", f'"$0" "$@" {redirect}; echo "exit $?" > "{status_file}"', AVCAPTURE, *arguments],
                       env=ENV, timeout=60, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        status = open(status_file).read().strip()
        check(status == "exit 0", f"{arguments[0]} {redirect}: {status}")
        if arguments[0] == "stream":
            subprocess.run(["rm", "-rf", os.path.join(WORK, f"closed-hls-{index}")])

    cases = [(arguments, redirect)
             for arguments in (["preview", "--port", "0", "--seconds", "1"], ["scan", "--seconds", "1"],
                               ["stream", "--hls", os.path.join(WORK, "closed-hls"), "--seconds", "2"])
             for redirect in (">&-", "2>&-", ">&- 2>&-")]
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        for future in [pool.submit(closed, case) for case in enumerate(cases)]:
            future.result()


passed = sum(1 for _, ok, _ in results if ok)
print(f"{passed} passed, {len(results) - passed} failed")
sys.exit(0 if passed == len(results) else 1)
