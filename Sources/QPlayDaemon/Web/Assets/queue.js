// The queue list: only the rows in view are in the page, and only a window of entries
// around them is read (`queue` with `start` and `count`: a queue of 100,000 entries is
// read ~330 entries at a time, never its 44 MB whole); the playing one marked; a tap
// plays an entry, the handle drags it (`move`), Alt+↑/↓ moves it from the keyboard,
// "Remove" removes it.
import { $, listeners, request, send, coalesced, clock, element, button } from "./net.js";
import { player } from "./player.js";

const ROW = 56;        // px, as .queue li in app.css
const OVERSCAN = 6;
const MARGIN = 150;    // entries read beyond the rows in view, on each side
const list = () => $("queue");
let total = 0;
let loaded = { start: 0, entries: [] };
let drawn = { first: -1, last: -1, key: "" };
let drag = null;

// The entry at a queue index, if the window read holds it.
function at(index) {
  const offset = index - loaded.start;
  return offset >= 0 && offset < loaded.entries.length ? loaded.entries[offset] : undefined;
}

// The indexes of the rows in view, with a few more on each side.
function inView() {
  const rect = list().getBoundingClientRect();
  const top = Math.max(0, -rect.top);
  const bottom = Math.max(0, window.innerHeight - rect.top);
  return { first: Math.max(0, Math.floor(top / ROW) - OVERSCAN), last: Math.ceil(bottom / ROW) + OVERSCAN };
}

// Reads the window around the rows in view, and with it the queue's length.
export const readQueue = coalesced(async () => {
  const { first, last } = inView();
  const start = Math.max(0, first - MARGIN);
  const answer = await request("queue", { start, count: last + MARGIN - start });
  total = answer.total;
  loaded = { start: answer.start, entries: answer.entries };
  $("queue-count").textContent = `(${total})`;
  $("queue-empty").hidden = total > 0;
  list().style.height = `${total * ROW}px`;
  redraw(true);
});

// Whether the rows in view run past the window read, or near an edge of it that is not
// the queue's: scrolling then reads the next window before its rows are needed.
function wantsWindow(first, last) {
  const end = loaded.start + loaded.entries.length;
  const near = MARGIN / 3;
  return (loaded.start > 0 && first - loaded.start < near) || (end < total && end - last < near);
}

function redraw(force) {
  // While a row is dragged its handle stays in the page (it has the pointer); the list
  // is drawn again when the drag ends.
  if (drag) { placeDrag(); return; }
  const view = inView();
  const first = view.first;
  const last = Math.min(total, view.last);
  if (wantsWindow(first, last)) readQueue();
  const status = player.status;
  const key = status ? `${status.entry}/${status.state}` : "";
  if (!force && first === drawn.first && last === drawn.last && key === drawn.key) return;
  drawn = { first, last, key };
  // The rows are made anew, so the control that has the focus is found again in its
  // entry's new row (after a move, where the entry went; after a remove, the row now in
  // its place), drawn even out of view: else Tab from a row that scrolled the list would
  // fall back to the page's start, and Alt+↓ would move an entry once. A row whose entry
  // is not read yet is left out until its window comes.
  const focus = focused();
  const rows = [];
  const add = (index) => { const entry = at(index); if (entry) rows.push(row(entry, index, status)); };
  if (focus && focus.index < first) add(focus.index);
  for (let index = first; index < last; index++) add(index);
  if (focus && focus.index >= last) add(focus.index);
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
  const found = loaded.entries.findIndex((e) => e.entry === entry);
  let index = at(was) && at(was).entry === entry ? was : found >= 0 ? loaded.start + found : -1;
  if (index < 0) index = Math.min(was, total - 1);
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
  item.setAttribute("aria-setsize", String(total));
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
    if (to >= 0 && to < total) send("move", { from: index, to });
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
    drag.to = Math.max(0, Math.min(total - 1, Math.floor((e.clientY - rect.top) / ROW)));
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
