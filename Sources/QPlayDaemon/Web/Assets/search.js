// Search as you type: title contains the text; the first 50 matches at once, then the
// count; "Add all" adds what the same query matches, per row "Add" and "Play next".
import { $, request, send, report, clock, element, button, artistAlbum } from "./net.js";

const SHOWN = 50;
let generation = 0;
let query = null;

function where(text) {
  return [{ property: "title", op: "contains", value: text }];
}

async function run() {
  const text = $("search").value.trim();
  const mine = ++generation;
  if (!text) {
    query = null;
    $("results").replaceChildren();
    $("search-count").textContent = "";
    $("add-all").disabled = true;
    return;
  }
  try {
    const first = await request("search", { where: where(text), limit: SHOWN });
    if (mine !== generation) return;
    query = text;
    $("results").replaceChildren(...first.tracks.map(resultRow));
    $("add-all").disabled = first.tracks.length === 0;
    let count = first.tracks.length;
    if (count === SHOWN) {
      $("search-count").textContent = `${SHOWN}+ matches…`;
      const all = await request("search", { where: where(text) });
      if (mine !== generation) return;
      count = all.tracks.length;
    }
    $("search-count").textContent = count === 0 ? "No matches"
      : count === 1 ? "1 match" : count > SHOWN ? `${count} matches, the first ${SHOWN} shown` : `${count} matches`;
  } catch (error) {
    report(error);
  }
}

function resultRow(track) {
  const item = element("li");
  const text = element("div", "text");
  text.append(element("b", null, track.title), element("span", null, `${artistAlbum(track)} · ${clock(track.duration)}`));
  item.append(text, button("Add", () => send("add", { ids: [track.id] })),
    button("Play next", () => playNext([track.id]).catch(report)));
  return item;
}

// `add` appends; the new entries then move to just after the playing one.
export async function playNext(ids) {
  await request("add", { ids });
  const status = await request("status");
  if (status.index == null) return;
  const start = status.queue_length - ids.length;
  for (let k = 0; k < ids.length; k++) {
    if (start + k !== status.index + 1 + k) await request("move", { from: start + k, to: status.index + 1 + k });
  }
}

export function startSearch() {
  $("search").addEventListener("input", run);
  $("add-all").addEventListener("click", () => {
    if (query) send("add", { where: where(query) });
  });
}

export function searchAgain() {
  if ($("search").value.trim()) run();
}
