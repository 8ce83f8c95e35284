// Now playing, transport, volume and modes. The position moves between `player` events
// from the last status and the time since it came (docs/PROTOCOL.md: events are not
// sent for a moving position).
import { $, listeners, request, send, report, clock, artistAlbum, reducedMotion } from "./net.js";

export const player = { status: null, at: 0, onChange: [] };

let coverTrack = null;
let draggingPosition = false;
let volumeBusyUntil = 0;
let lastSecond = -1;

function apply(status) {
  player.status = status;
  player.at = performance.now();
  const track = status.track;
  $("title").textContent = track ? track.title : "Nothing playing";
  $("subtitle").textContent = track ? artistAlbum(track) : "";
  document.title = track ? `${track.title} – qplay` : "qplay";
  if ((track ? track.id : null) !== coverTrack) {
    coverTrack = track ? track.id : null;
    const cover = $("cover");
    cover.hidden = true;
    $("cover-none").hidden = false;
    if (track) cover.src = `/art/${track.id}`;
    else cover.removeAttribute("src");
  }
  const playing = status.state === "playing";
  const toggle = $("toggle");
  toggle.setAttribute("aria-label", playing ? "Pause" : "Play");
  $("toggle-icon").setAttribute("d", playing ? "M6 4h4v16H6zM14 4h4v16h-4z" : "M7 4v16l13-8z");
  const position = $("position");
  position.max = String(status.duration || 0);
  position.disabled = !track;
  const repeat = $("repeat");
  repeat.setAttribute("aria-pressed", String(status.repeat !== "off"));
  $("repeat-one").hidden = status.repeat !== "one";
  $("repeat-state").textContent = `repeat ${status.repeat}`;
  $("shuffle").setAttribute("aria-pressed", String(status.shuffle));
  const sleep = $("sleep");
  if (!status.sleep) sleep.value = "off";
  else if (status.sleep.end_of_track) sleep.value = "end";
  lastSecond = -1;
  tick();
  player.onChange.forEach((f) => f(status));
}

// Where the track is now: the status's position plus the time since, at the speed the
// state says (a held button scans at 4×).
function positionNow() {
  const status = player.status;
  if (!status || status.position == null) return 0;
  let speed = status.state === "playing" ? 1 : 0;
  if (status.seeking === "forward") speed = 4;
  else if (status.seeking === "backward") speed = -4;
  const position = status.position + speed * (performance.now() - player.at) / 1000;
  return Math.max(0, Math.min(position, status.duration || 0));
}

function tick() {
  const status = player.status;
  if (!status) return;
  const position = positionNow();
  if (!draggingPosition) $("position").value = String(position);
  // The slider the user is moving is left alone until a moment after the last move;
  // then it shows the daemon's volume again, whatever came in meanwhile.
  const volume = $("volume");
  if (Date.now() >= volumeBusyUntil && volume.value !== String(status.volume)) volume.value = String(status.volume);
  const second = Math.floor(position);
  if (second !== lastSecond) {
    lastSecond = second;
    const duration = status.duration || 0;
    $("elapsed").textContent = clock(position);
    $("remaining").textContent = "-" + clock(duration - position);
    $("position").setAttribute("aria-valuetext", `${clock(position)} of ${clock(duration)}`);
    if (status.sleep) {
      $("sleep-left").textContent = status.sleep.end_of_track ? "Sleeps at the end of this track"
        : `Sleeps in ${clock(status.sleep.remaining - (performance.now() - player.at) / 1000)}`;
    } else {
      $("sleep-left").textContent = "";
    }
  }
}

function animate() {
  tick();
  if (reducedMotion.matches) setTimeout(animate, 1000);
  else requestAnimationFrame(animate);
}

export const refreshStatus = async () => { apply(await request("status")); };

// ---- Previous and Next: press on the way down, release on the way up --------------

const held = new Map(); // button name -> how it was pressed ("pointer" or a key)

function press(name, how) {
  if (held.has(name)) return;
  held.set(name, how);
  send("press", { button: name });
}

function release(name, how) {
  if (held.get(name) !== how) return;
  held.delete(name);
  send("release", { button: name });
}

function bindHold(id, name) {
  const node = $(id);
  node.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    node.focus();
    press(name, "pointer");
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
    node.addEventListener(type, () => release(name, "pointer"));
  }
  node.addEventListener("contextmenu", (event) => event.preventDefault());
  node.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    event.stopPropagation();
    if (!event.repeat) press(name, "key:" + event.key);
  });
  node.addEventListener("keyup", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    event.stopPropagation();
    release(name, "key:" + event.key);
  });
  // A keyboard "click" comes from the keys above; nothing else to do on click.
  node.addEventListener("click", (event) => event.preventDefault());
}

// Space toggles and ←/→ are previous/next anywhere but in a field (where they edit)
// or on a control of their own.
function ownsKeys(target) {
  return target instanceof HTMLElement && (target.isContentEditable
    || ["INPUT", "SELECT", "TEXTAREA", "BUTTON", "A"].includes(target.tagName));
}

function bindKeys() {
  const arrows = { ArrowLeft: "previous", ArrowRight: "next" };
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const name = arrows[event.key];
    if (name && !(event.target instanceof HTMLInputElement) && !(event.target instanceof HTMLSelectElement)) {
      event.preventDefault();
      if (!event.repeat) press(name, "key:" + event.key);
    } else if (event.key === " " && !ownsKeys(event.target)) {
      event.preventDefault();
      if (!event.repeat) send("toggle");
    }
  });
  document.addEventListener("keyup", (event) => {
    const name = arrows[event.key];
    if (name) release(name, "key:" + event.key);
  });
  window.addEventListener("blur", releaseAll);
}

function releaseAll() {
  for (const [name, how] of [...held]) release(name, how);
}

// ---- The rest of the controls -------------------------------------------------------

function bindControls() {
  $("toggle").addEventListener("click", () => send("toggle"));
  bindHold("previous", "previous");
  bindHold("next", "next");

  const position = $("position");
  position.addEventListener("pointerdown", () => { draggingPosition = true; });
  position.addEventListener("input", () => { draggingPosition = true; });
  position.addEventListener("change", () => {
    draggingPosition = false;
    send("seek", { position: Number(position.value) }).then((status) => status && apply(status));
  });
  position.addEventListener("blur", () => { draggingPosition = false; });

  const volume = $("volume");
  let volumeTimer = 0;
  const sendVolume = () => { volumeTimer = 0; send("volume", { set: Number(volume.value) }); };
  volume.addEventListener("input", () => {
    volumeBusyUntil = Date.now() + 1500;
    if (!volumeTimer) volumeTimer = setTimeout(sendVolume, 80);
  });
  volume.addEventListener("change", () => {
    volumeBusyUntil = Date.now() + 1500;
    clearTimeout(volumeTimer);
    sendVolume();
  });

  const cycle = { off: "all", all: "one", one: "off" };
  $("repeat").addEventListener("click", () => {
    if (player.status) send("mode", { repeat: cycle[player.status.repeat] || "off" });
  });
  $("shuffle").addEventListener("click", () => {
    if (player.status) send("mode", { shuffle: !player.status.shuffle });
  });
  $("sleep").addEventListener("change", (event) => {
    const value = event.target.value;
    const args = value === "off" ? { cancel: true } : value === "end" ? { end_of_track: true } : { after: Number(value) };
    request("sleep", args).then(apply, report);
  });

  // "Listen here" (shown when the daemon has http_stream): this device plays the
  // daemon's live stream; pressed again, it stops and lets the connection go.
  const listen = $("listen");
  let audio = null;
  listen.addEventListener("click", () => {
    if (audio) {
      audio.pause();
      audio.removeAttribute("src");
      audio.load();
      audio.remove();
      audio = null;
      listen.setAttribute("aria-pressed", "false");
      return;
    }
    audio = document.createElement("audio");
    audio.src = "/stream";
    document.body.append(audio);
    listen.setAttribute("aria-pressed", "true");
    audio.play().catch(report);
  });

  const cover = $("cover");
  cover.addEventListener("load", () => { cover.hidden = false; $("cover-none").hidden = true; });
  cover.addEventListener("error", () => { cover.hidden = true; $("cover-none").hidden = false; });
}

export function startPlayer() {
  bindControls();
  bindKeys();
  listeners.close.push(releaseAll);
  listeners.event.push((kind, data) => { if (kind === "player") apply(data); });
  animate();
}
