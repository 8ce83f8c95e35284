// The connection to qplayd and small helpers. The page speaks qplay's protocol v1 over the WebSocket at /ws, exactly as
// a client of the Unix socket does (docs/PROTOCOL.md): requests with ids, one response
// each in order, and after `subscribe` the events, on which it reads again what an event
// says changed. No framework, no build step; the Content-Security-Policy allows no inline
// script (but index.html's first one, by its hash) or style attribute, so every handler
// is bound here.

const $ = (id) => document.getElementById(id);
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

// ---- Connection -------------------------------------------------------------------

const conn = { socket: null, ready: false, nextId: 1, pending: new Map(), early: [], backoff: 250, timer: 0, pinger: 0 };
// qplayd closes a WebSocket after 60 s without a message from it, and a connection that
// died without a close (a phone that slept, a network that went) shows only as an
// answer that does not come: a ping every 20 s, and a socket closed when one is not
// answered within 30 s (answers come in order: a queue of 100,000 entries takes
// seconds), reconnects it.
const PING_EVERY = 20000, PING_WAIT = 30000;
const listeners = { open: [], event: [], close: [] };

function connect() {
  clearTimeout(conn.timer);
  // The first time, the socket index.html opened while the modules loaded, if it is
  // still open (or opening): what it read is read again here, and the requests it sent
  // are answered to the first request() for the same command and arguments.
  const boot = window.qplayBoot;
  window.qplayBoot = null;
  const adopt = boot && boot.socket.readyState <= WebSocket.OPEN;
  const socket = adopt ? boot.socket
    : new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  conn.socket = socket;
  socket.onmessage = (message) => receive(socket, message.data);
  socket.onclose = () => lost(socket);
  if (!adopt) return;
  conn.early = boot.sent.map(([id, cmd, args]) => ({ id, key: JSON.stringify([cmd, args]), answer: null }));
  conn.nextId = Math.max(conn.nextId, boot.sent.length + 1);
  for (const data of boot.lines) receive(socket, data);
}

function receive(socket, data) {
  let line;
  try { line = JSON.parse(data); } catch { return; }
  if (!conn.ready) {
    // The first line is the greeting, or the one error of a daemon that is full.
    if (line.protocol === "qplay/1") {
      conn.ready = true;
      conn.backoff = 250;
      conn.pinger = setInterval(() => ping(socket), PING_EVERY);
      showConnection(true);
      listeners.open.forEach((f) => f());
    } else {
      socket.close();
    }
    return;
  }
  if ("event" in line) {
    listeners.event.forEach((f) => f(line.event, line.data));
  } else if ("ok" in line) {
    const waiter = conn.pending.get(line.id);
    if (!waiter) {
      const early = conn.early.find((e) => e.id === line.id);
      if (early) early.answer = line;
      return;
    }
    conn.pending.delete(line.id);
    settle(waiter, line);
  }
}

function settle(waiter, line) {
  if (line.ok) waiter.resolve(line.result);
  else waiter.reject(new Error(line.error ? line.error.message : "failed"));
}

// The socket closed, or stopped answering (then its close may take long to come).
function lost(socket) {
  if (conn.socket !== socket) return;
  clearInterval(conn.pinger);
  conn.ready = false;
  conn.socket = null;
  for (const waiter of conn.pending.values()) waiter.reject(new Error("disconnected"));
  conn.pending.clear();
  conn.early = [];
  listeners.close.forEach((f) => f());
  showConnection(false);
  conn.timer = setTimeout(reconnect, conn.backoff);
  conn.backoff = Math.min(conn.backoff * 2, 4000);
}

function ping(socket) {
  const late = setTimeout(() => { socket.close(); lost(socket); }, PING_WAIT);
  request("ping").then(() => clearTimeout(late), () => clearTimeout(late));
}

// Without a session (qplayd with a password) the socket is refused; the page's own
// address then redirects to the login form.
async function reconnect() {
  try {
    const answer = await fetch("/", { redirect: "manual", cache: "no-store" });
    if (answer.type === "opaqueredirect") { location.assign("/login"); return; }
  } catch { /* the daemon is away: try the socket anyway */ }
  connect();
}

function showConnection(ok) {
  const banner = $("connection");
  banner.textContent = ok ? "Connected" : "reconnecting…";
  banner.classList.toggle("ok", ok);
}

function request(cmd, args) {
  if (!conn.ready) return Promise.reject(new Error("not connected"));
  const key = JSON.stringify([cmd, args]);
  const early = conn.early.findIndex((e) => e.key === key);
  return new Promise((resolve, reject) => {
    const waiter = { resolve, reject };
    if (early >= 0) {
      // Sent by index.html already: its answer, come or to come.
      const [{ id, answer }] = conn.early.splice(early, 1);
      if (answer) settle(waiter, answer);
      else conn.pending.set(id, waiter);
      return;
    }
    const id = conn.nextId++;
    conn.pending.set(id, waiter);
    conn.socket.send(JSON.stringify(args === undefined ? { id, cmd } : { id, cmd, args }));
  });
}

// A command whose answer the page does not need: a failure is shown, not thrown.
function send(cmd, args) {
  return request(cmd, args).catch((error) => report(error));
}

function report(error) {
  if (error && error.message !== "disconnected" && error.message !== "not connected") console.warn(error.message);
}

// Reads again while another read is under way only once that one is back, so a burst
// of events costs at most two reads.
function coalesced(read) {
  let running = false, again = false;
  const run = async () => {
    if (running) { again = true; return; }
    running = true;
    try { await read(); } catch (error) { report(error); }
    running = false;
    if (again) { again = false; run(); }
  };
  return run;
}

// ---- Formatting ---------------------------------------------------------------------

function clock(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) seconds = 0;
  const s = Math.floor(seconds), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const ss = String(r).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(label, onClick, className) {
  const node = element("button", className, label);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

function artistAlbum(track) {
  return [track.artist, track.album].filter(Boolean).join(" – ");
}

export { $, conn, listeners, connect, request, send, report, coalesced, clock, element, button, artistAlbum, reducedMotion };
