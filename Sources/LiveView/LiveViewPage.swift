/// The live view's pages: one HTML document each, with its script, served at `/`.
///
/// Both pages draw each frame message (see `FrameMessage`) on a canvas the size of the layer's
/// bounds, placing it as the layer's gravity does (the picture centred for aspect fit). They decode
/// one frame at a time and skip to the newest, so a slow browser never builds a backlog; they
/// acknowledge every frame, drawn or skipped, and the server sends no more than two ahead.
/// `window.liveView` holds what the page measured (frames drawn, latencies from capture, or from
/// the moment a player's picture was due, to the canvas, in milliseconds) for tests and benchmarks.
enum LiveViewPage {
    /// The camera's page: its controls, and a click focusing and exposing at that point.
    static let camera = document(title: "avcapture live view", bar: cameraBar, script: cameraScript)

    /// The player's page: play and pause (a click on the picture too), position, rate, time-pitch
    /// algorithm, volume and gravity.
    static let player = document(title: "avcapture player", bar: playerBar, script: playerScript)

    /// Where the server writes its token into a page.
    private static let tokenPlaceholder = "{{live-view-token}}"

    /// A page with the token its script sends with every request; the token holds only
    /// letters, digits and `-._~`, so it needs no escaping in HTML.
    static func withToken(_ token: String, in page: String) -> String {
        page.replacingOccurrences(of: tokenPlaceholder, with: token)
    }

    private static func document(title: String, bar: String, script: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="live-view-token" content="\(tokenPlaceholder)">
        <title>\(title)</title>
        <style>
        \(style)</style>
        </head>
        <body>
        <div id="bar">
        \(bar)  <span id="error"></span>
          <span id="stats">connecting…</span>
        </div>
        <div id="stage"><canvas id="view" width="1280" height="720"></canvas></div>
        <script>
        "use strict";
        \(common)
        \(script)
        fetch("/api/state" + query).then((r) => r.json()).then(applyState).catch(() => {});
        connect();
        </script>
        </body>
        </html>
        """
    }

    private static let style = #"""
          body { margin: 0; background: #111; color: #ddd; font: 14px system-ui, sans-serif; }
          #bar { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; padding: 8px; background: #222; }
          #stage { display: flex; justify-content: center; padding: 8px; }
          canvas { background: #000; max-width: 100%; max-height: calc(100vh - 80px); cursor: crosshair; }
          button, select { background: #333; color: #ddd; border: 1px solid #555; border-radius: 4px; padding: 4px 8px; }
          button.on { background: #a22; }
          #stats { margin-left: auto; font-variant-numeric: tabular-nums; }
          #error { color: #f77; }
        """#

    /// What both pages do: controls, drawing frames, the socket, the figures shown. Each page
    /// defines `applyState(state)`.
    private static let common = #"""
        // The server's secret, which only this page's own origin can read: sent with every request.
        const token = document.querySelector('meta[name="live-view-token"]').content;
        const query = "?token=" + encodeURIComponent(token);
        const canvas = document.getElementById("view");
        const context = canvas.getContext("2d");
        const $ = (id) => document.getElementById(id);
        const live = window.liveView = { frames: 0, latencies: [], lastNumber: 0, state: null, focus: null, errors: [], objects: [], answers: [] };
        let pending = null, decoding = false, drawnInSecond = 0, fps = 0, focusMark = null;

        function percentile(values, p) {
          if (values.length === 0) return NaN;
          const sorted = [...values].sort((a, b) => a - b);
          return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
        }

        async function control(name, body) {
          const response = await fetch("/api/" + name + query, {
            method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
          const answer = await response.json().catch(() => ({}));
          $("error").textContent = response.ok ? "" : (answer.error || response.statusText);
          if (!response.ok) live.errors.push(answer.error);
          return answer;
        }

        async function draw(message) {
          const view = new DataView(message);
          const captured = view.getFloat64(0, true), number = view.getUint32(8, true);
          const width = view.getUint16(12, true), height = view.getUint16(14, true);
          const image = await createImageBitmap(new Blob([new Uint8Array(message, 16)], { type: "image/jpeg" }));
          // Aspect fit: the frame is the picture's part of the layer, centred; otherwise it fills the layer.
          const x = Math.round((canvas.width - width) / 2), y = Math.round((canvas.height - height) / 2);
          if (width < canvas.width || height < canvas.height) context.clearRect(0, 0, canvas.width, canvas.height);
          context.drawImage(image, x, y, width, height);
          image.close();
          // Codes and faces where the metadata output found them, in the layer's coordinates.
          for (const object of live.objects) {
            context.strokeStyle = object.kind === "face" ? "#fc0" : "#3f6"; context.lineWidth = 3;
            context.beginPath();
            object.points.forEach(([px, py], index) => index ? context.lineTo(px, py) : context.moveTo(px, py));
            context.closePath(); context.stroke();
            context.font = "16px sans-serif"; context.fillStyle = context.strokeStyle;
            context.fillText(object.label, object.points[0][0], object.points[0][1] - 6);
          }
          if (focusMark && performance.now() - focusMark.at < 1000) {
            context.strokeStyle = "#fc0"; context.lineWidth = 2;
            context.strokeRect(focusMark.x - 40, focusMark.y - 40, 80, 80);
          }
          const latency = performance.timeOrigin + performance.now() - captured;
          live.latencies.push(latency);
          if (live.latencies.length > 100000) live.latencies.shift();
          live.frames += 1; live.lastNumber = number; drawnInSecond += 1;
        }

        async function pump(socket) {
          if (decoding) return;
          decoding = true;
          while (pending) {
            const message = pending; pending = null;
            try { await draw(message); } catch (error) { live.errors.push(String(error)); }
            // Drawn: the server may send the next frame.
            if (socket.readyState === WebSocket.OPEN) socket.send("drawn");
          }
          decoding = false;
        }

        function connect() {
          const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/frames" + query);
          socket.binaryType = "arraybuffer";
          socket.onmessage = (event) => {
            if (typeof event.data === "string") {
              const message = JSON.parse(event.data);
              if (message.objects) live.objects = message.objects; else applyState(message);
              return;
            }
            if (pending && socket.readyState === WebSocket.OPEN) socket.send("drawn");   // skipped, never drawn: acknowledged all the same
            pending = event.data;   // the newest frame replaces one not yet drawn
            pump(socket);
          };
          socket.onclose = () => { $("stats").textContent = "disconnected; retrying…"; setTimeout(connect, 1000); };
        }

        setInterval(() => {
          fps = drawnInSecond; drawnInSecond = 0;
          const recent = live.latencies.slice(-120);
          $("stats").textContent = fps + " fps · latency " + percentile(recent, 0.5).toFixed(0) + " ms (p95 " +
            percentile(recent, 0.95).toFixed(0) + " ms)" + (live.state ? " · " + live.state.viewers + " viewer(s)" : "");
        }, 1000);

        """#

    private static let cameraBar = #"""
          <select id="camera" title="Camera"></select>
          <select id="gravity" title="Video gravity">
            <option value="resizeAspect">Aspect fit</option>
            <option value="resizeAspectFill">Aspect fill</option>
            <option value="resize">Stretch</option>
          </select>
          <label><input type="checkbox" id="mirror"> Mirror</label>
          <button id="torch">Torch</button>
          <label>Zoom <input type="range" id="zoom" min="1" max="1" step="0.1" value="1"></label>
          <button id="photo">Photo</button>
          <button id="record">Record</button>
          <label>Audio <meter id="level" min="-80" max="0" value="-80"></meter></label>
        """#

    private static let cameraScript = #"""
        function applyState(state) {
          live.state = state;
          if (canvas.width !== state.width || canvas.height !== state.height) { canvas.width = state.width; canvas.height = state.height; }
          $("gravity").value = state.gravity;
          $("mirror").checked = state.mirrored;
          $("torch").disabled = !state.hasTorch;
          $("torch").classList.toggle("on", state.torch);
          $("zoom").min = state.minZoom; $("zoom").max = state.maxZoom;
          if (document.activeElement !== $("zoom")) $("zoom").value = state.zoom;
          $("photo").disabled = !state.canTakePhotos;
          $("record").disabled = !state.canRecord;
          $("record").classList.toggle("on", state.recording);
          $("level").value = state.audioLevel ?? -80;
          const select = $("camera");
          if (select.options.length !== state.cameras.length) {
            select.replaceChildren(...state.cameras.map((c) => new Option(c.name, c.uniqueID)));
          }
          select.value = state.camera;
        }

        canvas.addEventListener("click", async (event) => {
          const rect = canvas.getBoundingClientRect();
          const x = (event.clientX - rect.left) * canvas.width / rect.width;
          const y = (event.clientY - rect.top) * canvas.height / rect.height;
          focusMark = { x, y, at: performance.now() };
          live.focus = await control("focus", { x, y });
        });
        $("gravity").onchange = () => control("gravity", { gravity: $("gravity").value });
        $("mirror").onchange = () => control("mirror", { mirrored: $("mirror").checked });
        $("torch").onclick = () => control("torch", { on: !$("torch").classList.contains("on") });
        $("zoom").onchange = () => control("zoom", { factor: Number($("zoom").value) });
        $("camera").onchange = () => control("camera", { uniqueID: $("camera").value });
        $("photo").onclick = async () => { const answer = await control("photo"); if (answer.file) $("error").textContent = "saved " + answer.file; };
        $("record").onclick = () => control("record", { recording: !$("record").classList.contains("on") });
        """#

    private static let playerBar = #"""
          <button id="play">Play</button>
          <input type="range" id="position" min="0" max="0" step="0.01" value="0" title="Position">
          <span id="time">0:00.0 / 0:00.0</span>
          <label>Rate <select id="rate">
            <option value="-2">−2×</option><option value="-1">−1×</option><option value="-0.5">−0.5×</option>
            <option value="0.25">0.25×</option><option value="0.5">0.5×</option><option value="1">1×</option>
            <option value="1.5">1.5×</option><option value="2">2×</option><option value="4">4×</option>
          </select></label>
          <label>Pitch <select id="pitch">
            <option value="spectral">Spectral</option><option value="timeDomain">Time domain</option>
            <option value="varispeed">Varispeed</option><option value="lowQualityZeroLatency">Low quality</option>
          </select></label>
          <label>Volume <input type="range" id="volume" min="0" max="1" step="0.05" value="1"></label>
          <label><input type="checkbox" id="muted"> Mute</label>
          <select id="gravity" title="Video gravity">
            <option value="resizeAspect">Aspect fit</option>
            <option value="resizeAspectFill">Aspect fill</option>
            <option value="resize">Stretch</option>
          </select>
          <span id="title"></span>
        """#

    private static let playerScript = #"""
        function clock(seconds) {
          if (!isFinite(seconds)) return "–";
          const minutes = Math.floor(seconds / 60);
          return minutes + ":" + (seconds - minutes * 60).toFixed(1).padStart(4, "0");
        }

        function applyState(state) {
          live.state = state;
          if (canvas.width !== state.width || canvas.height !== state.height) { canvas.width = state.width; canvas.height = state.height; }
          $("title").textContent = state.title + (state.error ? " — " + state.error : "");
          $("play").textContent = state.playing ? "Pause" : "Play";
          $("play").classList.toggle("on", state.playing);
          $("position").max = state.duration;
          if (document.activeElement !== $("position")) $("position").value = state.time;
          $("time").textContent = clock(state.time) + " / " + clock(state.duration);
          if (document.activeElement !== $("rate")) $("rate").value = String(state.defaultRate);
          $("pitch").value = state.pitch;
          if (document.activeElement !== $("volume")) $("volume").value = state.volume;
          $("muted").checked = state.muted;
          $("gravity").value = state.gravity;
        }

        // Each control answers; the page then shows the player's state as it is now.
        async function act(name, body) {
          const answer = await control(name, body);
          live.answers.push({ name, answer });
          fetch("/api/state" + query).then((r) => r.json()).then(applyState).catch(() => {});
          return answer;
        }

        const toggle = () => act(live.state && live.state.playing ? "pause" : "play");
        canvas.addEventListener("click", toggle);
        $("play").onclick = toggle;
        $("position").onchange = () => act("seek", { time: Number($("position").value) });
        $("rate").onchange = () => act("rate", { rate: Number($("rate").value) });
        $("pitch").onchange = () => act("pitch", { algorithm: $("pitch").value });
        $("volume").onchange = () => act("volume", { volume: Number($("volume").value) });
        $("muted").onchange = () => act("mute", { muted: $("muted").checked });
        $("gravity").onchange = () => act("gravity", { gravity: $("gravity").value });
        // Paused, no frames come with the state: ask for it.
        setInterval(() => { if (!live.state || !live.state.playing) fetch("/api/state" + query).then((r) => r.json()).then(applyState).catch(() => {}); }, 1000);
        """#
}
