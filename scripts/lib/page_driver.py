#!/usr/bin/python3
"""Drives the Simple Player page in headless Chromium (Selenium with the system
chromedriver) against a running qplayd, for WebPageTests.

  page_driver.py SCENARIO

Environment: QPLAY_PAGE_URL (the page), QPLAY_SOCKET (the daemon's Unix socket: the
truth the page is checked against), QPLAY_CLI (the qplay binary), QPLAY_DAEMON (JSON:
the daemon's pid, argv and environment, for the restart scenario), QPLAY_WIDTH.

Controls are found by their accessible name and role in Chromium's accessibility tree,
as a screen reader or a script sees them. Every wait is on a condition; the only bound
on time a scenario checks is the one docs/arch/web.md promises (a change from another
client on the page within 1 s). Prints one JSON line of findings and exits 0, or fails
with a message (and the page's text) and exits 1.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

URL = os.environ["QPLAY_PAGE_URL"]
SOCKET = os.environ["QPLAY_SOCKET"]
CLI = os.environ.get("QPLAY_CLI", "qplay")
WAIT = 20.0  # a bound against a hang, not a measurement


class Failure(Exception):
    pass


# ---- The daemon, through its own socket ------------------------------------------------

def rpc(cmd, args=None):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(SOCKET)
        f = s.makefile("rwb")
        f.readline()
        request = {"id": 1, "cmd": cmd}
        if args is not None:
            request["args"] = args
        f.write((json.dumps(request) + "\n").encode())
        f.flush()
        answer = json.loads(f.readline())
    if not answer["ok"]:
        raise Failure(f"{cmd}: {answer['error']}")
    return answer["result"]


def cli(*arguments):
    result = subprocess.run([CLI, *arguments], capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        raise Failure(f"qplay {' '.join(arguments)}: {result.returncode} {result.stderr}")
    return result.stdout


def wait_for(what, condition, timeout=WAIT, interval=0.02):
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = condition()
            if last:
                return last
        except (StaleElementReferenceException, Failure, IndexError) as error:
            last = error
        if time.monotonic() > deadline:
            raise Failure(f"timed out after {timeout} s waiting for {what} (last: {last!r})")
        time.sleep(interval)


# ---- The browser -------------------------------------------------------------------------

def browser(profile, width=None):
    width = width or int(os.environ.get("QPLAY_WIDTH", "390"))
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},900", "--force-device-scale-factor=1",
                     "--disable-background-networking", "--no-first-run", "--mute-audio",
                     "--autoplay-policy=no-user-gesture-required",
                     f"--user-data-dir={profile}"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_window_size(width, 900)
    return driver


class Page:
    def __init__(self, driver):
        self.driver = driver
        self.marks = 0

    def open(self):
        self.driver.get(URL)
        self.wait_connected()

    def wait_connected(self, timeout=WAIT):
        # Null-safe: right after a sign-in the browser may still show the login form.
        wait_for("the page's connection", lambda: self.js(
            "const c = document.getElementById('connection'); return !!c && c.classList.contains('ok')"), timeout)
        # The first reads after the greeting: status and queue are on the page.
        wait_for("the first status", lambda: self.js(
            "const v = document.getElementById('volume'); return !!v && v.value !== ''"))

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def named(self, role, name, within=None):
        """Elements whose accessible role and name are these, as Chromium computes them."""
        document = self.driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})
        root = {"nodeId": document["root"]["nodeId"]}
        if within is not None:
            self.marks += 1
            key = f"w{self.marks}"
            self.js("arguments[0].setAttribute('data-axroot', arguments[1])", within, key)
            found = self.driver.execute_cdp_cmd(
                "DOM.querySelector", {"nodeId": root["nodeId"], "selector": f'[data-axroot="{key}"]'})
            root = {"nodeId": found["nodeId"]}
        nodes = self.driver.execute_cdp_cmd(
            "Accessibility.queryAXTree", {**root, "accessibleName": name, "role": role})["nodes"]
        elements = []
        for node in nodes:
            if node.get("ignored") or "backendDOMNodeId" not in node:
                continue
            self.marks += 1
            key = f"e{self.marks}"
            resolved = self.driver.execute_cdp_cmd("DOM.resolveNode", {"backendNodeId": node["backendDOMNodeId"]})
            self.driver.execute_cdp_cmd("Runtime.callFunctionOn", {
                "objectId": resolved["object"]["objectId"],
                "functionDeclaration": "function(k) { this.setAttribute('data-ax', k); }",
                "arguments": [{"value": key}]})
            elements.append(self.driver.find_element(By.CSS_SELECTOR, f'[data-ax="{key}"]'))
        return elements

    def one(self, role, name, within=None):
        found = self.named(role, name, within)
        if len(found) != 1:
            raise Failure(f"{len(found)} elements with role {role} and name {name!r}, expected 1")
        return found[0]

    def wait_one(self, role, name, within=None):
        return wait_for(f"{role} {name!r}", lambda: (lambda f: f[0] if len(f) == 1 else None)(
            self.named(role, name, within)))

    def now_playing_title(self):
        region = self.one("region", "Now playing")
        return region.find_element(By.TAG_NAME, "h1").text

    def queue_rows(self):
        queue = self.one("list", "Queue")
        return queue.find_elements(By.CSS_SELECTOR, ":scope > li")

    def text(self):
        try:
            return self.js("return document.body.innerText")
        except WebDriverException:
            return "(no page)"


def status():
    return rpc("status")


def queue_ids():
    return [e["track"]["id"] for e in rpc("queue")["entries"]]


def load_queue(where=None, ids=None, play=True):
    rpc("clear")
    rpc("add", {"ids": ids} if ids is not None else {"where": where or []})
    if play:
        wait_for("playing", lambda: status()["state"] == "playing")


def long_ids():
    return [t["id"] for t in rpc("search", {"where": [{"property": "album", "op": "equals", "value": "Long Player"}]})["tracks"]]


# ---- Scenarios ------------------------------------------------------------------------------

def accessible_names(page):
    """Every name scripts rely on is there once, with its role, and reached by Tab."""
    load_queue(ids=long_ids())
    wait_for("the position bar enabled", lambda: page.one("slider", "Position").is_enabled())
    for role, name in [("region", "Now playing"), ("button", "Previous"), ("button", "Next"),
                       ("button", "Repeat"), ("button", "Shuffle"), ("button", "Add all"),
                       ("button", "Add selected"), ("slider", "Volume"), ("slider", "Position"),
                       ("searchbox", "Search"), ("list", "Queue")]:
        element = page.one(role, name)
        if element.accessible_name != name:
            raise Failure(f"WebDriver's name for {name!r} is {element.accessible_name!r}")
    state = status()["state"]
    toggle = page.one("button", "Pause" if state == "playing" else "Play")
    # Tab goes through the controls in order.
    page.js("document.activeElement && document.activeElement.blur()")
    reached = []
    body = page.driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    for _ in range(12):
        reached.append(page.js("const e = document.activeElement; return e.getAttribute('aria-label') || e.textContent"))
        ActionChains(page.driver).send_keys(Keys.TAB).perform()
    for name in ["Position", "Previous", "Next", "Volume", "Repeat", "Shuffle", "Sleep timer", "Search"]:
        if name not in reached:
            raise Failure(f"Tab did not reach {name!r}: {reached}")
    if toggle.get_attribute("aria-label") not in reached:
        raise Failure(f"Tab did not reach the play button: {reached}")
    return {"tab_order": reached}


def now_playing(page):
    """Now playing follows the daemon; a change by the CLI shows within 1 s."""
    ids = long_ids()
    load_queue(ids=ids)
    first = rpc("status")["track"]["title"]
    wait_for("the first title", lambda: page.now_playing_title() == first)
    # The cover from /art/<id> (the folder's cover.png, 120 px); a track without one
    # shows the placeholder.
    cover_shown = "const c = document.getElementById('cover'); return !c.hidden && c.naturalWidth"
    wait_for("the cover", lambda: page.js(cover_shown) == 120)
    page.one("button", "Pause")
    # The position moves between events.
    p1 = float(page.one("slider", "Position").get_attribute("value"))
    wait_for("the position bar to move", lambda: float(page.one("slider", "Position").get_attribute("value")) > p1 + 0.3)
    cli("next")
    started = time.monotonic()
    second = status()["track"]["title"]
    wait_for("the title after qplay next", lambda: page.now_playing_title() == second, timeout=1.0)
    after_next = time.monotonic() - started
    cli("pause")
    started = time.monotonic()
    wait_for("the Play button after qplay pause", lambda: page.named("button", "Play"), timeout=1.0)
    after_pause = time.monotonic() - started
    subtitle = page.js("return document.getElementById('subtitle').textContent")
    if subtitle != "Page Tones – Long Player":
        raise Failure(f"artist – album shows {subtitle!r}")
    # A tap on the position bar seeks to that point.
    slider = page.one("slider", "Position")
    width = slider.size["width"]
    ActionChains(page.driver).move_to_element_with_offset(slider, int(width * 0.25), 0).click().perform()
    duration = status()["duration"]
    wait_for("the seek from a tap at three quarters",
             lambda: abs(status()["position"] - 0.75 * duration) < 0.1 * duration)
    # The page shows it once the seek's status reaches it (later than the daemon's own
    # answer on a loaded machine).
    def remaining_after_seek():
        remaining = page.js("return document.getElementById('remaining').textContent")
        if not remaining.startswith("-0:"):
            raise Failure(f"remaining time shows {remaining!r}")
        return remaining
    wait_for("the remaining time after the seek", remaining_after_seek)
    rpc("add", {"where": [{"property": "title", "op": "equals", "value": "Morning"}]})
    rpc("jump", {"index": len(ids)})
    wait_for("the title without a cover", lambda: page.now_playing_title() == "Morning")
    wait_for("the placeholder", lambda: page.js(
        "return document.getElementById('cover').hidden && !document.getElementById('cover-none').hidden"))
    return {"seconds_to_next": round(after_next, 3), "seconds_to_pause": round(after_pause, 3)}


def search(page):
    """Search while typing; "Add all" adds exactly the matches; "Add" and "Play next"."""
    rpc("clear")
    box = page.one("searchbox", "Search")
    box.click()
    typed = ""
    for letter in "love":
        typed += letter
        box.send_keys(letter)
        expected = rpc("search", {"where": [{"property": "title", "op": "contains", "value": typed}]})["tracks"]
        titles = [t["title"] for t in expected]
        results = page.one("list", "Search results")
        wait_for(f"the results for {typed!r}", lambda: [r.find_element(By.TAG_NAME, "b").text
                                                       for r in results.find_elements(By.TAG_NAME, "li")] == titles[:50])
        count = len(expected)
        wait_for(f"the count for {typed!r}", lambda: page.js(
            "return document.getElementById('search-count').textContent").startswith(
            "No matches" if count == 0 else f"{count} match"))
    page.one("button", "Add all").click()
    want = [t["id"] for t in expected]
    wait_for("the matches in the queue", lambda: queue_ids() == want)
    # Per row: Add appends the row's track; Play next puts it after the playing entry.
    rows = page.one("list", "Search results").find_elements(By.TAG_NAME, "li")
    page.one("button", "Add", within=rows[2]).click()
    wait_for("Add", lambda: queue_ids() == want + [want[2]])
    rpc("jump", {"index": 0})
    page.one("button", "Play next", within=rows[1]).click()
    wait_for("Play next", lambda: queue_ids()[:2] == [want[0], want[1]] and len(queue_ids()) == len(want) + 2)
    return {"matches": len(want)}


def queue(page):
    """The queue marks the playing row, removes a row, plays a tapped row, reorders by drag."""
    ids = long_ids() + [t["id"] for t in rpc("search", {"where": [{"property": "album", "op": "equals", "value": "Day Cycle"}]})["tracks"]]
    load_queue(ids=ids)
    rpc("jump", {"index": 1})
    wait_for("six rows", lambda: len(page.queue_rows()) == len(ids))

    def current_row():
        rows = [r for r in page.queue_rows() if r.get_attribute("aria-current") == "true"]
        return rows[0] if len(rows) == 1 else None
    row = wait_for("the playing row", lambda: (lambda r: r if r and r.get_attribute("aria-posinset") == "2" else None)(current_row()))
    weight = int(page.js("return getComputedStyle(arguments[0]).fontWeight", row))
    if weight < 600 or "▶" not in row.text:
        raise Failure(f"the playing row is not bold with ▶: weight {weight}, text {row.text!r}")
    rpc("pause")
    wait_for("⏸ on the playing row", lambda: "⏸" in current_row().text)
    rpc("play")
    # Remove the fourth row.
    entries = rpc("queue")["entries"]
    fourth = page.queue_rows()[3]
    page.one("button", "Remove", within=fourth).click()
    want = [e["entry"] for e in entries[:3] + entries[4:]]
    wait_for("the entry removed", lambda: [e["entry"] for e in rpc("queue")["entries"]] == want)
    wait_for("five rows", lambda: len(page.queue_rows()) == len(want))
    # A tap on the third row plays it.
    page.queue_rows()[2].find_element(By.CSS_SELECTOR, "button.entry").click()
    wait_for("the tapped entry playing", lambda: status()["entry"] == want[2])
    wait_for("the tapped row marked", lambda: current_row() and current_row().get_attribute("aria-posinset") == "3")
    # Drag the first row's handle down onto the fourth.
    page.js("arguments[0].scrollIntoView({block: 'center'})", page.queue_rows()[0])
    handle = page.queue_rows()[0].find_element(By.CSS_SELECTOR, ".handle")
    actions = ActionChains(page.driver)
    actions.click_and_hold(handle)
    for _ in range(7):
        actions.move_by_offset(0, 24)
    actions.release().perform()
    moved = want[1:4] + want[:1] + want[4:]
    wait_for("the dragged entry moved", lambda: [e["entry"] for e in rpc("queue")["entries"]] == moved)
    titles = [e["track"]["title"] for e in rpc("queue")["entries"]]
    wait_for("the rows redrawn in the new order",
             lambda: [r.find_element(By.CSS_SELECTOR, ".t").text for r in page.queue_rows()] == titles)
    return {"rows": len(moved)}


def hold(page):
    """A tap on Next skips; holding it scans, and its release does not skip."""
    load_queue(ids=long_ids())
    next_button = page.one("button", "Next")
    entry = status()["entry"]
    ActionChains(page.driver).click(next_button).perform()
    wait_for("the tap to skip", lambda: status()["entry"] != entry)
    entry = status()["entry"]
    position = status()["position"]
    ActionChains(page.driver).click_and_hold(next_button).perform()
    # Scanning starts once the hold passes the daemon's tap threshold; held on until the
    # scan has covered 4 s of the track (1 s at 4×, a hold of about 1.3 s).
    wait_for("scanning forward", lambda: status()["seeking"] == "forward")
    wait_for("4 s scanned", lambda: status()["position"] > position + 4)
    ActionChains(page.driver).release(next_button).perform()
    wait_for("the scan to end", lambda: status()["seeking"] == "none")
    after = status()
    if after["entry"] != entry:
        raise Failure("releasing a held Next skipped the track")
    if after["position"] < position + 4:
        raise Failure(f"the hold did not scan: {position} -> {after['position']}")
    # Previous held scans backward.
    previous = page.one("button", "Previous")
    ActionChains(page.driver).click_and_hold(previous).perform()
    wait_for("scanning backward", lambda: status()["seeking"] == "backward")
    ActionChains(page.driver).release(previous).perform()
    wait_for("the backward scan to end", lambda: status()["seeking"] == "none")
    if status()["entry"] != entry:
        raise Failure("releasing a held Previous changed the track")
    return {"scanned_to": after["position"]}


def keyboard(page):
    """Space toggles; → tapped skips, held scans; ← held scans back."""
    load_queue(ids=long_ids())
    page.js("document.activeElement && document.activeElement.blur()")
    actions = lambda: ActionChains(page.driver)
    actions().send_keys(" ").perform()
    wait_for("Space to pause", lambda: status()["state"] == "paused")
    page.wait_one("button", "Play")
    actions().send_keys(" ").perform()
    wait_for("Space to play", lambda: status()["state"] == "playing")
    entry = status()["entry"]
    actions().key_down(Keys.ARROW_RIGHT).key_up(Keys.ARROW_RIGHT).perform()
    wait_for("→ to skip", lambda: status()["entry"] != entry)
    entry = status()["entry"]
    actions().key_down(Keys.ARROW_RIGHT).perform()
    wait_for("→ held to scan", lambda: status()["seeking"] == "forward")
    actions().key_up(Keys.ARROW_RIGHT).perform()
    wait_for("→ released", lambda: status()["seeking"] == "none")
    if status()["entry"] != entry:
        raise Failure("releasing a held → skipped")
    actions().key_down(Keys.ARROW_LEFT).perform()
    wait_for("← held to scan back", lambda: status()["seeking"] == "backward")
    actions().key_up(Keys.ARROW_LEFT).perform()
    wait_for("← released", lambda: status()["seeking"] == "none")
    if status()["entry"] != entry:
        raise Failure("releasing a held ← changed the track")
    # Enter on a focused Next taps it.
    page.one("button", "Next").send_keys(Keys.ENTER)
    wait_for("Enter on Next to skip", lambda: status()["entry"] != entry)
    return {}


def modes(page):
    """Volume, repeat, shuffle and the sleep timer, both ways."""
    load_queue(ids=long_ids())
    rpc("mode", {"repeat": "off", "shuffle": False})
    rpc("volume", {"set": 50})
    volume = page.one("slider", "Volume")
    wait_for("volume 50 on the page", lambda: volume.get_attribute("value") == "50")
    volume.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    wait_for("volume 53", lambda: status()["volume"] == 53)
    volume.send_keys(Keys.HOME)
    wait_for("volume 0", lambda: status()["volume"] == 0)
    rpc("volume", {"set": 71})
    wait_for("volume 71 on the page", lambda: page.one("slider", "Volume").get_attribute("value") == "71")
    repeat = page.one("button", "Repeat")
    for expected in ["all", "one", "off"]:
        repeat.click()
        wait_for(f"repeat {expected}", lambda: status()["repeat"] == expected)
        wait_for("aria-pressed", lambda: repeat.get_attribute("aria-pressed") == str(expected != "off").lower())
    shuffle = page.one("button", "Shuffle")
    shuffle.click()
    wait_for("shuffle on", lambda: status()["shuffle"] is True and shuffle.get_attribute("aria-pressed") == "true")
    rpc("mode", {"shuffle": False})
    wait_for("shuffle off on the page", lambda: shuffle.get_attribute("aria-pressed") == "false")
    from selenium.webdriver.support.select import Select
    sleep = Select(page.one("combobox", "Sleep timer"))
    sleep.select_by_visible_text("15 min")
    wait_for("a 15-minute timer", lambda: (status()["sleep"] or {}).get("remaining", 0) > 800)
    sleep.select_by_visible_text("End of track")
    wait_for("the end-of-track timer", lambda: (status()["sleep"] or {}).get("end_of_track") is True)
    sleep.select_by_visible_text("Sleep: off")
    wait_for("no timer", lambda: status()["sleep"] is None)
    return {}


def restart(page):
    """The daemon stops: "reconnecting…"; it starts again: the page is back by itself."""
    daemon = json.loads(os.environ["QPLAY_DAEMON"])
    load_queue(ids=long_ids())
    os.kill(daemon["pid"], signal.SIGTERM)
    stopped = time.monotonic()
    wait_for("reconnecting…", lambda: page.js("return document.getElementById('connection').textContent") == "reconnecting…")
    # The page's socket closes early in the daemon's shutdown; a daemon started before
    # the old one has exited finds the socket's lock held, says "already running" and
    # exits, and the page then has nothing to come back to (what CI's peer phase met).
    wait_for("the stopped daemon to exit", lambda: exited(daemon["pid"]), timeout=3 * WAIT)
    exit_seconds = round(time.monotonic() - stopped, 2)
    with open(daemon["log"], "ab") as log:
        child = subprocess.Popen(daemon["argv"], env={**os.environ, **daemon["env"]}, stdout=log, stderr=log)
    try:
        # A daemon started again while the peer tests load both cores can take most of
        # WAIT to listen, and the page retries every 4 s at most: room for both.
        page.wait_connected(timeout=3 * WAIT)
        wait_for("the restarted daemon's queue", lambda: len(page.queue_rows()) == len(long_ids()))
        rpc("jump", {"index": 2})
        title = status()["track"]["title"]
        wait_for("a change after the restart", lambda: page.now_playing_title() == title)
        if page.js("return performance.getEntriesByType('navigation').length") != 1:
            raise Failure("the page was reloaded")
    finally:
        child.send_signal(signal.SIGTERM)
        child.wait(30)
    return {"old_daemon_exit_seconds": exit_seconds}


def exited(pid):
    """Whether process PID has ended (a zombie its parent has not reaped yet counts)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] == "Z"
    except FileNotFoundError:
        return True


def layout(page):
    """No horizontal scroll at this width, with long names on the page."""
    load_queue(ids=long_ids())
    box = page.one("searchbox", "Search")
    box.send_keys("e")
    wait_for("results", lambda: page.one("list", "Search results").find_elements(By.TAG_NAME, "li"))
    page.one("button", "Artists").click()
    wait_for("artists", lambda: page.one("list", "Library").find_elements(By.TAG_NAME, "li"))
    widths = page.js("return [document.documentElement.scrollWidth, document.documentElement.clientWidth, window.innerWidth]")
    if widths[0] > widths[1]:
        raise Failure(f"horizontal scroll: scrollWidth {widths[0]} > clientWidth {widths[1]}")
    return {"widths": widths}


def picker(page):
    """Artists → Albums → Tracks, several chosen, "Add selected"; a playlist loaded."""
    rpc("clear")
    page.one("button", "Artists").click()
    library = page.one("list", "Library")
    wait_for("the artists", lambda: library.find_elements(By.TAG_NAME, "li"))
    page.one("checkbox", "Page Tones 4 tracks").click()
    page.one("button", "Open Test Tones").click()
    page.wait_one("button", "Open Love Songs").click()
    wait_for("the album's tracks", lambda: page.named("checkbox", "Love Song 0:03"))
    page.one("checkbox", "Love Song 0:03").click()
    page.one("button", "Add selected").click()
    love = rpc("search", {"where": [{"property": "title", "op": "equals", "value": "Love Song"}]})["tracks"][0]["id"]
    want = long_ids() + [love]
    wait_for("the chosen tracks in the queue", lambda: queue_ids() == want)
    rpc("playlist_save", {"name": "Page list"})
    rpc("clear")
    page.wait_one("button", "Load Page list").click()
    wait_for("the playlist loaded", lambda: queue_ids() == want)
    return {}


def screenshot(page):
    """A full-page picture into QPLAY_SCREENSHOT (scripts/try-web): a queue playing,
    a search typed."""
    if not rpc("queue")["entries"]:
        load_queue()
    page.one("searchbox", "Search").send_keys("love")
    wait_for("results", lambda: page.one("list", "Search results").find_elements(By.TAG_NAME, "li"))
    page.js("document.activeElement.blur(); window.scrollTo(0, 0)")
    height = page.js("return document.documentElement.scrollHeight")
    width = page.js("return document.documentElement.clientWidth")
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    import base64
    shot = page.driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
    with open(os.environ["QPLAY_SCREENSHOT"], "wb") as f:
        f.write(base64.b64decode(shot["data"]))
    return {"height": height}


def long_queue(page):
    """100,000 entries: only the rows in view are in the page; a row in the middle shows
    its own entry; the last is reached by scrolling and plays when tapped."""
    rpc("clear")
    ids = [t["id"] for t in rpc("search", {"where": []})["tracks"]]
    every = (ids * (100_000 // len(ids) + 1))[:100_000]
    for start in range(0, len(every), 5000):
        rpc("add", {"ids": every[start:start + 5000]})
    rpc("pause")
    wait_for("the count", lambda: page.js("return document.getElementById('queue-count').textContent") == "(100000)",
             timeout=120)
    drawn = page.js("return document.getElementById('queue').children.length")
    entries = rpc("queue")["entries"]

    # The page reads a window of entries around the rows in view: a jump to the middle
    # shows that row's own entry once its window has come.
    page.js("document.querySelector('#queue').parentElement.scrollIntoView(); window.scrollBy(0, 50000 * 56)")

    def middle_row():
        rows = [r for r in page.queue_rows() if r.get_attribute("aria-posinset") == "50001"]
        return bool(rows) and rows[0].find_element(By.CSS_SELECTOR, ".t").text == entries[50000]["track"]["title"] \
            and rows[0].get_attribute("data-entry") == str(entries[50000]["entry"])
    wait_for("the middle row with its entry", middle_row)
    page.js("window.scrollTo(0, document.documentElement.scrollHeight)")

    # The list is drawn again by every read of the queue, so a row found may be gone
    # a moment later: found, checked and tapped again until the tap lands.
    def tap_last():
        last = [r for r in page.queue_rows() if r.get_attribute("aria-posinset") == "100000"][0]
        if last.find_element(By.CSS_SELECTOR, ".t").text != entries[-1]["track"]["title"]:
            raise Failure("the last row shows another entry")
        last.find_element(By.CSS_SELECTOR, "button.entry").click()
        return True
    wait_for("a tap on the last row", tap_last)
    in_view = page.js("return document.getElementById('queue').children.length")
    if max(drawn, in_view) > 100:
        raise Failure(f"{drawn} and {in_view} rows in the page for 100,000 entries")
    wait_for("the last entry playing", lambda: status()["entry"] == entries[-1]["entry"], timeout=120)
    return {"rows_in_page": max(drawn, in_view)}


def stays_connected(page):
    """A page left alone past qplayd's 60 s limit for a silent WebSocket stays connected
    (it pings)."""
    page.js("""window.banner = [];
        new MutationObserver(() => window.banner.push(document.getElementById('connection').textContent))
            .observe(document.getElementById('connection'), {childList: true, characterData: true, subtree: true});""")
    opened = time.monotonic()
    time.sleep(70)  # the subject: 70 s of a user doing nothing
    if page.js("return window.banner"):
        raise Failure(f"the connection dropped while idle: {page.js('return window.banner')}")
    load_queue(ids=long_ids())
    title = status()["track"]["title"]
    wait_for("a change after the idle time", lambda: page.now_playing_title() == title)
    return {"idle_seconds": round(time.monotonic() - opened)}


def listen(page):
    """With http_stream: "Listen here" plays the daemon's /stream in the page's audio
    element; what Chromium decodes from it (an analyser on the element, the loudest
    frequency every 100 ms) is the first long track's 400 Hz, then, across the track
    change, the second's 500 Hz with no silence between; pressed again, it stops."""
    button = page.wait_one("button", "Listen here")
    load_queue(ids=long_ids())
    button.click()
    wait_for("the button pressed", lambda: button.get_attribute("aria-pressed") == "true")
    wait_for("2 s of the stream played in the page", lambda: page.js(
        "const a = document.querySelector('audio'); return !!a && !a.error && !a.paused && a.currentTime > 2"),
        timeout=30)
    page.js("""const audio = document.querySelector('audio');
        const context = new AudioContext();
        const analyser = context.createAnalyser();
        analyser.fftSize = 8192;
        context.createMediaElementSource(audio).connect(analyser);
        analyser.connect(context.destination);
        const bins = new Float32Array(analyser.frequencyBinCount);
        window.heard = [];
        setInterval(() => {
            analyser.getFloatFrequencyData(bins);
            let loudest = 1;
            for (let i = 2; i < bins.length; i++) if (bins[i] > bins[loudest]) loudest = i;
            window.heard.push(bins[loudest] < -60 ? 0 : Math.round(loudest * context.sampleRate / analyser.fftSize));
        }, 100);""")
    wait_for("the first track heard", lambda: any(abs(f - 400) <= 12 for f in page.js("return window.heard")),
             timeout=30)
    # 4 s before the first track's end: its end and the next track's start come through.
    rpc("seek", {"position": 56})
    wait_for("the second track heard", lambda: any(abs(f - 500) <= 12 for f in page.js("return window.heard")),
             timeout=30)
    time.sleep(1)
    heard = page.js("return window.heard")
    first_high = next(i for i, f in enumerate(heard) if abs(f - 500) <= 12)
    last_low = max(i for i, f in enumerate(heard[:first_high]) if abs(f - 400) <= 12)
    between = heard[last_low + 1:first_high]
    if 0 in between or len(between) > 3:
        raise Failure(f"a gap or another sound at the track change: {heard}")
    error = page.js("const a = document.querySelector('audio'); return a.error && a.error.message")
    if error:
        raise Failure(f"the audio element failed: {error}")
    button.click()
    wait_for("the stream stopped", lambda: button.get_attribute("aria-pressed") == "false"
             and page.js("return document.querySelector('audio') === null"))
    return {"heard_around_the_change": heard[max(0, last_low - 5):first_high + 5]}


def no_stream(page):
    """Without http_stream there is no "Listen here"."""
    if page.named("button", "Listen here"):
        raise Failure('a "Listen here" button without http_stream')
    return {}


def login(page):
    """With http_password: the page sends to the login form, which signs in (a plain form
    post, Origin: null under no-referrer) and leads back to the page, connected."""
    page.driver.get(URL)
    wait_for("the login form", lambda: page.driver.current_url.endswith("/login"))
    password = page.one("textbox", "Password")
    password.send_keys("wrong")
    page.js("window.before = true")
    page.one("button", "Sign in").click()
    wait_for("the answer to a wrong password", lambda: page.js("return document.readyState === 'complete' && !window.before"))
    wait_for("the form again", lambda: page.named("textbox", "Password"))
    if page.named("region", "Now playing"):
        raise Failure("a wrong password reached the page")
    page.one("textbox", "Password").send_keys(os.environ["QPLAY_PASSWORD"])
    page.one("button", "Sign in").click()
    page.wait_connected()
    load_queue(ids=long_ids())
    title = status()["track"]["title"]
    wait_for("now playing after signing in", lambda: page.now_playing_title() == title)
    return {}


login.opens_itself = True
# While the daemon is away, the page's tries to reach it fail in the console.
restart.expected_console = "net::ERR_CONNECTION_REFUSED"

SCENARIOS = {f.__name__: f for f in [login, listen, no_stream, stays_connected, long_queue, screenshot, accessible_names, now_playing, search, queue, hold, keyboard, modes, restart,
                                       layout, picker]}


def main():
    scenario = SCENARIOS[sys.argv[1]]
    profile = tempfile.TemporaryDirectory(prefix="qplay-chromium-")
    driver = browser(profile.name)
    page = Page(driver)
    try:
        if not getattr(scenario, "opens_itself", False):
            page.open()
        findings = scenario(page)
        expected = getattr(scenario, "expected_console", None)
        console = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "/art/" not in e["message"]
                   and not (expected and expected in e["message"])]
        if console:
            raise Failure(f"errors in the page's console: {console}")
        print(json.dumps(findings or {}))
    except Exception as error:
        print(f"{type(error).__name__}: {error}\n--- page text ---\n{page.text()}", file=sys.stderr)
        sys.exit(1)
    finally:
        driver.quit()
        profile.cleanup()


if __name__ == "__main__":
    main()
