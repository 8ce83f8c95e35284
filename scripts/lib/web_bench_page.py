"""The browser side of `scripts/bench web`: headless Chromium through Selenium (Debian's
chromium and chromedriver, as scripts/lib/page_driver.py drives it for the page tests),
with a small probe put into every document before the page's own scripts run.

The probe only watches; it changes nothing the page does:
- each WebSocket message as it reaches the page's scripts (a WebSocket subclass whose
  own listener is added first, so its time is before the page parses the message);
- the now-playing title (#title) and the queue (#queue-count, the rows in #queue),
  each change with its time (a MutationObserver on the document) and the time of the
  first frame after it (requestAnimationFrame, then a task: the frame has painted);
- long tasks and the first contentful paint (PerformanceObserver);
- when the document was made (the probe's own run, before the page's HTML is parsed).
Times are the page's performance.now(): milliseconds since its navigation started.
"""
import math
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

PROBE = r"""
(() => {
  if (location.protocol !== "http:" && location.protocol !== "https:") return;
  const B = window.__bench = { msgs: [], titles: [], queue: [], long: [], fcp: null, queueKey: "", made: performance.now() };
  const note = (list, item) => { list.push(item); if (list.length > 20000) list.shift(); };
  const painted = (rec) => requestAnimationFrame(() => setTimeout(() => { rec.painted = performance.now(); }, 0));
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        const d = typeof e.data === "string" ? e.data : "";
        note(B.msgs, { t: performance.now(), n: d.length, head: d.slice(0, 200) });
      });
    }
  };
  let lastTitle = null;
  const check = () => {
    const title = document.getElementById("title");
    if (title && title.textContent !== lastTitle) {
      lastTitle = title.textContent;
      const rec = { t: performance.now(), text: lastTitle };
      note(B.titles, rec);
      painted(rec);
    }
    const count = document.getElementById("queue-count"), list = document.getElementById("queue");
    if (count && list) {
      const first = list.firstElementChild, last = list.lastElementChild;
      const a = first ? Number(first.getAttribute("aria-posinset")) : 0;
      const b = last ? Number(last.getAttribute("aria-posinset")) : 0;
      const key = `${count.textContent}/${list.children.length}/${a}/${b}`;
      if (key !== B.queueKey) {
        B.queueKey = key;
        const rec = { t: performance.now(), count: count.textContent, rows: list.children.length, first: a, last: b };
        note(B.queue, rec);
        painted(rec);
      }
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) note(B.long, { t: e.startTime, d: e.duration }); })
      .observe({ type: "longtask", buffered: true });
  } catch (e) { B.noLongTasks = true; }
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === "first-contentful-paint") B.fcp = e.startTime; })
      .observe({ type: "paint", buffered: true });
  } catch (e) { /* no paint timing */ }
})();
"""


def percentile(values, p):
    """Nearest rank."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def browser(profile, width):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},900", "--force-device-scale-factor=1",
                     "--disable-background-networking", "--no-first-run", "--mute-audio",
                     f"--user-data-dir={profile}"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_window_size(width, 900)
    return driver


class BenchPage:
    """One tab with the probe in every document it loads."""

    def __init__(self, driver, url):
        self.driver = driver
        self.url = url
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PROBE})
        driver.execute_cdp_cmd("Network.enable", {})
        self.offset = 0.0

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def cache(self, enabled):
        self.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": not enabled})

    def blank(self):
        self.driver.get("about:blank")

    def load(self):
        self.driver.get(self.url)
        self.calibrate()

    def calibrate(self):
        """The page's wall clock (performance.timeOrigin + performance.now()) against
        Python's time.time(): the offset from the quickest of 15 round trips."""
        best = None
        for _ in range(15):
            before = time.time() * 1000
            page = self.js("return performance.timeOrigin + performance.now()")
            after = time.time() * 1000
            if best is None or after - before < best[0]:
                best = (after - before, page - (before + after) / 2)
        self.rtt, self.offset = best
        self.origin = self.js("return performance.timeOrigin")

    def wall(self, page_ms):
        """A page time (ms since its navigation) as Python's wall clock in ms."""
        return self.origin + page_ms - self.offset

    def wait(self, what, script, *arguments, timeout=60.0, interval=0.005):
        deadline = time.monotonic() + timeout
        while True:
            found = self.js(script, *arguments)
            if found:
                return found
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out after {timeout} s waiting for {what}")
            time.sleep(interval)

    def wait_title(self, text, since=0.0, timeout=60.0):
        """The first record of #title showing TEXT at or after page time SINCE, once painted."""
        return self.wait(f"the title {text!r}", """
            const r = window.__bench.titles.find((r) => r.text === arguments[0] && r.t >= arguments[1]);
            return r && r.painted ? r : null;""", text, since, timeout=timeout)

    def wait_queue(self, count, since=0.0, timeout=60.0):
        """The first record of the queue showing COUNT entries with rows, at or after SINCE, painted."""
        return self.wait(f"the queue count {count}", """
            const want = `(${arguments[0]})`;
            const r = window.__bench.queue.find((r) => r.count === want && (r.rows > 0 || arguments[0] === 0) && r.t >= arguments[1]);
            return r && r.painted ? r : null;""", count, since, timeout=timeout)

    def now(self):
        return self.js("return performance.now()")

    def messages(self, since=0.0):
        return self.js("return window.__bench.msgs.filter((m) => m.t >= arguments[0])", since)

    def long_tasks(self, since=0.0, until=float("inf")):
        until = until if until != float("inf") else 1e15
        return self.js("return window.__bench.long.filter((l) => l.t >= arguments[0] && l.t <= arguments[1])",
                       since, until)


SCROLL = r"""
const [step, frames, total, done] = arguments;
const list = document.getElementById("queue");
const ROW = 56;
const top = () => list.getBoundingClientRect().top + window.scrollY;
window.scrollTo(0, top());
// Whether the rows drawn cover the window now (the start of a frame's callbacks: what
// the previous frame painted).
const covered = () => {
  const into = window.scrollY - top();
  const a = Math.max(0, Math.floor(into / ROW)) + 1;
  const b = Math.min(total, Math.floor((into + window.innerHeight) / ROW) + 1);
  const first = list.firstElementChild, last = list.lastElementChild;
  if (!first) return false;
  return Number(first.getAttribute("aria-posinset")) <= a && Number(last.getAttribute("aria-posinset")) >= b;
};
const deltas = [];
let prev = null, n = 0, blank = 0;
const frame = (ts) => {
  if (prev !== null) {
    deltas.push(ts - prev);
    if (!covered()) blank++;
  }
  prev = ts;
  if (n++ >= frames) { done({ deltas, blank, end: window.scrollY - top() }); return; }
  window.scrollBy(0, step);
  requestAnimationFrame(frame);
};
requestAnimationFrame(() => requestAnimationFrame(frame));
"""

JUMP = r"""
const [fraction, total, done] = arguments;
const list = document.getElementById("queue");
const ROW = 56;
const top = list.getBoundingClientRect().top + window.scrollY;
const target = Math.floor(fraction * (total - 20)) * ROW;
const a = Math.floor(target / ROW) + 1;
const b = Math.min(total, Math.floor((target + window.innerHeight) / ROW) + 1);
const covered = () => {
  const first = list.firstElementChild, last = list.lastElementChild;
  return first && Number(first.getAttribute("aria-posinset")) <= a && Number(last.getAttribute("aria-posinset")) >= b;
};
let finished = false;
const finish = (result) => { if (!finished) { finished = true; observer.disconnect(); done(result); } };
const observer = new MutationObserver(() => {
  if (!covered()) return;
  const shown = performance.now() - start;
  requestAnimationFrame(() => setTimeout(() => finish({ shown, painted: performance.now() - start }), 0));
});
observer.observe(list, { childList: true });
const start = performance.now();
window.scrollTo(0, top + target);
setTimeout(() => finish(null), 5000);
"""


def scroll(page, step, frames, total):
    page.driver.set_script_timeout(120)
    return page.driver.execute_async_script(SCROLL, step, frames, total)


def jump(page, fraction, total):
    page.driver.set_script_timeout(30)
    return page.driver.execute_async_script(JUMP, fraction, total)
