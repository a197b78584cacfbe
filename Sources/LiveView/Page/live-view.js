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

