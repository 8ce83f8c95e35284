// The media picker (Artists → Albums → Tracks, several chosen at any level, "Add
// selected") and the stored and smart playlists. The protocol has no artist or album
// listing: the picker reads every track once (`search` with no condition, in the
// library's order) when it is first opened, and again after a scan.
import { $, conn, listeners, request, send, report, coalesced, clock, element, button } from "./net.js";

const UNKNOWN_ARTIST = "Unknown artist";
const UNKNOWN_ALBUM = "Unknown album";
let tracks = null;
let level = { artist: null, album: null };
const chosen = new Set();

const artistOf = (track) => track.album_artist || track.artist || UNKNOWN_ARTIST;
const albumOf = (track) => track.album || UNKNOWN_ALBUM;
const keyOf = (...parts) => parts.join("\u0000");

const loadTracks = coalesced(async () => {
  tracks = (await request("search", { where: [] })).tracks;
  draw();
});

function unique(values) {
  return [...new Set(values)];
}

function draw() {
  if (!tracks) return;
  const crumbs = [button("Artists", () => open(null, null))];
  if (level.artist !== null) crumbs.push(button(level.artist, () => open(level.artist, null)));
  if (level.album !== null) crumbs.push(element("span", "muted", level.album));
  $("crumbs").replaceChildren(...crumbs);
  let rows;
  if (level.artist === null) {
    rows = unique(tracks.map(artistOf)).map((artist) =>
      pickRow(keyOf("artist", artist), artist, `${tracks.filter((t) => artistOf(t) === artist).length} tracks`,
        () => open(artist, null)));
  } else if (level.album === null) {
    const mine = tracks.filter((t) => artistOf(t) === level.artist);
    rows = unique(mine.map(albumOf)).map((album) =>
      pickRow(keyOf("album", level.artist, album), album, `${mine.filter((t) => albumOf(t) === album).length} tracks`,
        () => open(level.artist, album)));
  } else {
    rows = tracks.filter((t) => artistOf(t) === level.artist && albumOf(t) === level.album)
      .map((t) => pickRow(keyOf("track", t.id), t.title, clock(t.duration), null));
  }
  $("picker").replaceChildren(...rows);
  $("add-selected").disabled = chosen.size === 0;
}

function pickRow(key, name, detail, onOpen) {
  const item = element("li");
  const label = element("label", "text");
  const box = element("input");
  box.type = "checkbox";
  box.checked = chosen.has(key);
  box.addEventListener("change", () => {
    if (box.checked) chosen.add(key); else chosen.delete(key);
    $("add-selected").disabled = chosen.size === 0;
  });
  const words = element("span");
  words.append(element("b", null, name), element("span", null, detail));
  label.append(box, words);
  item.append(label);
  if (onOpen) {
    const go = button("›", onOpen);
    go.setAttribute("aria-label", `Open ${name}`);
    item.append(go);
  }
  return item;
}

function open(artist, album) {
  level = { artist, album };
  if (tracks) draw(); else loadTracks();
}

// What is chosen, as track ids in the library's order.
function chosenIds() {
  return tracks.filter((t) => chosen.has(keyOf("track", t.id)) || chosen.has(keyOf("artist", artistOf(t)))
    || chosen.has(keyOf("album", artistOf(t), albumOf(t)))).map((t) => t.id);
}

async function addSelected() {
  const ids = chosenIds();
  // A request is at most 64 KiB: thousands of ids go in several.
  for (let start = 0; start < ids.length; start += 4000) {
    await request("add", { ids: ids.slice(start, start + 4000) });
  }
  chosen.clear();
  draw();
}

const readPlaylists = coalesced(async () => {
  const { playlists } = await request("playlist_list");
  $("playlists").replaceChildren(...playlists.map((p) => {
    const item = element("li");
    const text = element("div", "text");
    const detail = `${p.smart ? "smart, " : ""}${p.tracks} tracks`;
    text.append(element("b", null, p.name), element("span", null, detail));
    const load = button("Load", () => send("playlist_load", { name: p.name }));
    load.setAttribute("aria-label", `Load ${p.name}`);
    item.append(text, load);
    return item;
  }));
});

export function startLibrary() {
  $("browse").addEventListener("click", () => open(null, null));
  $("add-selected").addEventListener("click", () => addSelected().catch(report));
  listeners.open.push(() => {
    readPlaylists();
    if (tracks) loadTracks();
  });
  // Loaded after the page connected, it reads now what it would have read then.
  if (conn.ready) readPlaylists();
  listeners.event.push((kind, data) => {
    if (kind === "playlists") readPlaylists();
    else if (kind === "scan" && data.done && tracks) loadTracks();
  });
}
