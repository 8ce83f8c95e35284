// The queue list: every entry, only the rows in view in the page (a queue of 100,000
// entries keeps about 30 rows), the playing one marked; a tap plays an entry, the handle
// drags it (`move`), Alt+↑/↓ moves it from the keyboard, "Remove" removes it.
import { $, listeners, request, send, coalesced, clock, element, button } from "./net.js";
import { player } from "./player.js";

const ROW = 56;        // px, as .queue li in app.css
const OVERSCAN = 6;
const list = () => $("queue");
let entries = [];
let drawn = { first: -1, last: -1, key: "" };
let drag = null;

export const readQueue = coalesced(async () => {
  const answer = await request("queue");
  entries = answer.entries;
  $("queue-count").textContent = `(${entries.length})`;
  $("queue-empty").hidden = entries.length > 0;
  list().style.height = `${entries.length * ROW}px`;
  redraw(true);
});

function redraw(force) {
  // While a row is dragged its handle stays in the page (it has the pointer); the list
  // is drawn again when the drag ends.
  if (drag) { placeDrag(); return; }
  const rect = list().getBoundingClientRect();
  const top = Math.max(0, -rect.top);
  const bottom = Math.max(0, window.innerHeight - rect.top);
  const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
  const last = Math.min(entries.length, Math.ceil(bottom / ROW) + OVERSCAN);
  const status = player.status;
  const key = status ? `${status.entry}/${status.state}` : "";
  if (!force && first === drawn.first && last === drawn.last && key === drawn.key) return;
  drawn = { first, last, key };
  // The rows are made anew, so the control that has the focus is found again in its
  // entry's new row (after a move, where the entry went; after a remove, the row now in
  // its place), drawn even out of view: else Tab from a row that scrolled the list would
  // fall back to the page's start, and Alt+↓ would move an entry once.
  const focus = focused();
  const rows = [];
  if (focus && focus.index < first) rows.push(row(entries[focus.index], focus.index, status));
  for (let index = first; index < last; index++) rows.push(row(entries[index], index, status));
  if (focus && focus.index >= last) rows.push(row(entries[focus.index], focus.index, status));
  list().replaceChildren(...rows);
  if (focus) list().querySelector(`li[data-index="${focus.index}"] > .${focus.part}`)?.focus({ preventScroll: true });
}

// The queue's control that has the focus: its entry's index now, and which of the row's buttons.
function focused() {
  const control = document.activeElement;
  const item = control && control.parentElement;
  if (!item || item.parentElement !== list()) return null;
  const was = Number(item.dataset.index);
  const entry = Number(item.dataset.entry);
  let index = entries[was] && entries[was].entry === entry ? was : entries.findIndex((e) => e.entry === entry);
  if (index < 0) index = Math.min(was, entries.length - 1);
  if (index < 0) return null;
  return { index, part: control.classList.contains("remove") ? "remove" : "entry" };
}

function row(entry, index, status) {
  const track = entry.track;
  const item = element("li");
  item.dataset.index = String(index);
  item.dataset.entry = String(entry.entry);
  item.style.top = `${index * ROW}px`;
  item.setAttribute("aria-posinset", String(index + 1));
  item.setAttribute("aria-setsize", String(entries.length));
  const playing = status && status.entry === entry.entry;
  if (playing) item.setAttribute("aria-current", "true");

  const handle = element("span", "handle", "⠿");
  handle.setAttribute("aria-hidden", "true");
  handle.addEventListener("pointerdown", (event) => startDrag(event, index, item));

  const main = button("", () => send("jump", { entry: entry.entry }), "entry");
  const mark = element("span", "mark", playing ? (status.state === "playing" ? "▶" : "⏸") : "");
  if (playing) mark.setAttribute("aria-label", status.state === "playing" ? "playing" : "paused");
  main.append(mark, element("span", "t", track.title), element("span", "a", track.artist || ""),
    element("span", "len", clock(track.duration)));
  main.addEventListener("keydown", (event) => {
    if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    event.preventDefault();
    const to = index + (event.key === "ArrowUp" ? -1 : 1);
    if (to >= 0 && to < entries.length) send("move", { from: index, to });
  });

  const remove = button("✕", () => send("remove", { entry: entry.entry }), "remove");
  remove.setAttribute("aria-label", "Remove");
  item.append(handle, main, remove);
  return item;
}

// ---- Dragging -------------------------------------------------------------------------

function startDrag(event, index, item) {
  if (event.button !== 0) return;
  event.preventDefault();
  drag = { from: index, to: index, startY: event.clientY + window.scrollY, y: event.clientY + window.scrollY };
  item.classList.add("dragging");
  const move = (e) => {
    drag.y = e.clientY + window.scrollY;
    // Near the window's edges the page scrolls, so a long queue can be crossed.
    if (e.clientY < 48) window.scrollBy(0, -ROW / 2);
    else if (e.clientY > window.innerHeight - 48) window.scrollBy(0, ROW / 2);
    const rect = list().getBoundingClientRect();
    drag.to = Math.max(0, Math.min(entries.length - 1, Math.floor((e.clientY - rect.top) / ROW)));
    placeDrag();
  };
  const end = (e) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", end);
    window.removeEventListener("pointercancel", end);
    const { from, to } = drag;
    drag = null;
    if (e.type === "pointerup" && to !== from) send("move", { from, to });
    redraw(true);
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
}

function placeDrag() {
  for (const item of list().children) {
    const index = Number(item.dataset.index);
    item.classList.toggle("drop-before", index === drag.to && drag.to < drag.from);
    item.classList.toggle("drop-after", index === drag.to && drag.to > drag.from);
    if (index === drag.from) {
      item.classList.add("dragging");
      item.style.transform = `translateY(${drag.y - drag.startY}px)`;
    }
  }
}

export function startQueue() {
  let frame = 0;
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(() => { frame = 0; redraw(false); });
  };
  window.addEventListener("scroll", schedule, { passive: true });
  window.addEventListener("resize", schedule);
  player.onChange.push(schedule);
  listeners.event.push((kind) => { if (kind === "queue") readQueue(); });
}
