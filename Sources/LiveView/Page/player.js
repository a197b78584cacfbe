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
