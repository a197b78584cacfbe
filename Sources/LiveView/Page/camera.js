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
