#!/usr/bin/python3
"""Accessibility checks of the Simple Player page in headless Chromium, for
WebPageAccessibilityTests: axe-core's WCAG 2.0-2.2 A and AA rules and its best
practices, and the checklist in docs/arch/web.md ("Accessibility"), whose lists are the
constants below.

  page_accessibility.py SCENARIO     (axe, axe_sign_in, names, keyboard, contrast)

The environment is page_driver.py's (whose browser, Page and main these scenarios use).
axe.min.js comes from PyPI's axe-playwright-python, which scripts/test installs beside
the build (scripts/lib/packages.sh, ensure_axe); QPLAY_AXE_JS names another copy.
Prints one JSON line of findings and exits 0, or fails with every problem found.
"""
import base64
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import page_driver  # noqa: E402
from page_driver import Failure, rpc, status, wait_for, load_queue, long_ids  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AXE_JS = os.environ.get("QPLAY_AXE_JS") or os.path.join(
    ROOT, ".build/axe-playwright-python-0.1.8/axe_playwright_python/axe.min.js")
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
SCHEMES = ["light", "dark"]

# ---- The checklist (docs/arch/web.md, "Accessibility") ---------------------------------

# Landmarks, in the page's order; the queue's region is named by its heading, "Queue (N)".
LANDMARKS = [("main", ""), ("region", "Now playing"), ("region", "Search"), ("region", "Library"),
             ("navigation", "Library level"), ("region", "Queue ({count})")]
LISTS = ["Search results", "Library", "Playlists", "Queue"]
# Tab order from the top of the page; Play or Pause is what a press does now; disabled
# buttons are skipped; then each stored playlist's "Load <name>", and each queue row's
# entry (named by its title, artist and length, "playing"/"paused" first on the playing
# row) and its Remove, through the whole queue although only the rows in view are drawn.
TAB_ORDER = [("slider", "Position"), ("button", "Previous"), ("button", "{toggle}"), ("button", "Next"),
             ("slider", "Volume"), ("button", "Repeat"), ("button", "Shuffle"), ("combobox", "Sleep timer"),
             ("searchbox", "Search"), ("button", "Add all"), ("button", "Artists"), ("button", "Add selected")]
# Palette pairs (foreground, background custom properties) in the light and the dark
# scheme: text at least 4.5:1 (WCAG 1.4.3), the focus outline against what is around it
# at least 3:1 (1.4.11).
TEXT_PAIRS = [("--text", "--bg"), ("--text", "--panel"), ("--text", "--current"),
              ("--muted", "--bg"), ("--muted", "--panel"), ("--muted", "--current"),
              ("--on-accent", "--accent"), ("--danger", "--panel"), ("--danger", "--current")]
OUTLINE_PAIRS = [("--accent", "--bg"), ("--accent", "--panel"), ("--accent", "--current")]


# ---- Helpers -------------------------------------------------------------------------------

def scheme(page, name):
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                {"features": [{"name": "prefers-color-scheme", "value": name}]})
    wait_for(f"the {name} scheme", lambda: page.js(
        f"return matchMedia('(prefers-color-scheme: {name})').matches"))


def run_axe(page):
    """axe's rules (AXE_TAGS) on the page as it is: the violations, and the rules it
    could not decide (colour contrast of symbols alone, which the palette check covers)."""
    if not os.path.exists(AXE_JS):
        raise Failure(f"no axe-core at {AXE_JS}: scripts/test installs it (scripts/lib/packages.sh, ensure_axe)")
    if not page.js("return typeof axe !== 'undefined'"):
        with open(AXE_JS) as f:
            page.js(f.read())
    result = page.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations', 'incomplete']})
            .then(r => done({violations: r.violations, incomplete: r.incomplete.map(x => x.id), version: axe.version}),
                  e => done({error: String(e)}));""", AXE_TAGS)
    if "error" in result:
        raise Failure(f"axe failed: {result['error']}")
    return result


def describe(violations):
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} — {v['helpUrl']}")
        for node in v["nodes"]:
            lines.append(f"    {' '.join(map(str, node['target']))}: {node['failureSummary'].replace(chr(10), ' ')}")
    return "\n".join(lines)


def fill(page):
    """The page with everything it can show: a queue of the long tracks playing, a
    stored playlist, a search typed with results, the picker open on an album."""
    load_queue(ids=long_ids())
    rpc("playlist_save", {"name": "Evening"})
    page.wait_one("button", "Load Evening")
    page.one("searchbox", "Search").send_keys("o")
    wait_for("results", lambda: page.one("list", "Search results").find_elements(By.TAG_NAME, "li"))
    page.one("button", "Artists").click()
    page.wait_one("button", "Open Page Tones").click()
    page.wait_one("button", "Open Long Player").click()
    wait_for("the album's tracks", lambda: page.named("checkbox", "Long 1 1:00"))
    page.one("checkbox", "Long 1 1:00").click()
    page.js("document.activeElement.blur(); window.scrollTo(0, 0)")
    # Only rows in view are drawn: at the top, all four.
    wait_for("the queue's rows", lambda: len(page.queue_rows()) == len(long_ids()))


def ax_nodes(page, role):
    """Chromium's accessibility nodes of this role, not ignored: (name, node)."""
    document = page.driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})
    nodes = page.driver.execute_cdp_cmd(
        "Accessibility.queryAXTree", {"nodeId": document["root"]["nodeId"], "role": role})["nodes"]
    return [(n.get("name", {}).get("value", ""), n) for n in nodes if not n.get("ignored")]


def png_pixels(data):
    """(width, height, rows of (r, g, b)) from an 8-bit RGB or RGBA PNG, as Chromium writes them."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, idat = 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise Failure(f"unexpected PNG: depth {depth}, colour type {colour}, interlace {interlace}")
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    raw = zlib.decompress(idat)
    size = 3 if colour == 2 else 4
    stride = width * size
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            a = line[x - size] if x >= size else 0
            b = previous[x]
            c = previous[x - size] if x >= size else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, size)])
        previous = line
    return width, height, rows


def hex_colour(value):
    value = value.strip()
    if len(value) != 7 or not value.startswith("#"):
        raise Failure(f"a palette colour that is not #rrggbb: {value!r}")
    return tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))


def contrast(one, two):
    """WCAG 2's contrast ratio of two sRGB colours."""
    def luminance(rgb):
        channels = [c / 255 for c in rgb]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted([luminance(one), luminance(two)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def palette(page):
    names = sorted({name for pair in TEXT_PAIRS + OUTLINE_PAIRS for name in pair})
    values = page.js("const s = getComputedStyle(document.documentElement);"
                     "return arguments[0].map(n => s.getPropertyValue(n));", names)
    return {name: hex_colour(value) for name, value in zip(names, values)}


def outline_shown(page):
    """Whether the focused element's outline shows on all four sides: the pixel 3.5 px
    out from the middle of each edge (the outline is 3 px wide, 2 px off the box) is the
    accent colour in a screenshot, so an outline under a neighbour (a queue row drawn
    over the one above it) counts as missing. Returns the sides where it is not."""
    # An element at the window's edge is scrolled to the middle first, and the queue's
    # rows drawn for the new scroll position (the next frames) before looking.
    page.driver.execute_async_script("""const done = arguments[arguments.length - 1];
        const r = document.activeElement.getBoundingClientRect();
        if (r.top < 8 || r.bottom > innerHeight - 8) document.activeElement.scrollIntoView({block: 'center'});
        requestAnimationFrame(() => requestAnimationFrame(() => done()));""")
    rect = page.js("""const e = document.activeElement, q = e.getBoundingClientRect();
        return [q.left, q.top, q.right, q.bottom, scrollX, scrollY, getComputedStyle(e).outlineColor];""")
    left, top, right, bottom, scroll_x, scroll_y, colour = rect
    accent = tuple(int(part) for part in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3])
    x0, y0 = int(left) - 8, int(top) - 8
    width, height = int(right) - x0 + 9, int(bottom) - y0 + 9
    # The clip is in the document's coordinates, the rectangle in the window's.
    shot = page.driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "clip": {
        "x": x0 + scroll_x, "y": y0 + scroll_y, "width": width, "height": height, "scale": 1}})
    _, _, rows = png_pixels(base64.b64decode(shot["data"]))
    middle_x, middle_y = (left + right) / 2, (top + bottom) / 2
    points = {"top": (middle_x, top - 3.5), "bottom": (middle_x, bottom + 3.5),
              "left": (left - 3.5, middle_y), "right": (right + 3.5, middle_y)}
    missing = []
    for side, (x, y) in points.items():
        pixel = rows[int(y) - y0][int(x) - x0]
        if sum(abs(p - a) for p, a in zip(pixel, accent)) > 60:
            missing.append(f"{side} {pixel}")
    return missing


# ---- Scenarios --------------------------------------------------------------------------------

def axe(page):
    """axe-core's WCAG 2.0/2.1/2.2 A and AA rules and best practices find nothing on the
    filled page, in the light and the dark scheme."""
    fill(page)
    problems, findings = [], {}
    for name in SCHEMES:
        scheme(page, name)
        result = run_axe(page)
        findings[name] = {"axe": result["version"], "undecided": result["incomplete"]}
        if result["violations"]:
            problems.append(f"{name} scheme:\n{describe(result['violations'])}")
    if problems:
        raise Failure("axe found violations:\n" + "\n".join(problems))
    return findings


def axe_sign_in(page):
    """axe finds nothing on the sign-in page either."""
    page.driver.get(page_driver.URL)
    wait_for("the sign-in page", lambda: page.driver.current_url.endswith("/login"))
    problems = []
    for name in SCHEMES:
        scheme(page, name)
        result = run_axe(page)
        if result["violations"]:
            problems.append(f"{name} scheme:\n{describe(result['violations'])}")
    if problems:
        raise Failure("axe found violations on the sign-in page:\n" + "\n".join(problems))
    return {}


axe_sign_in.opens_itself = True


def names(page):
    """The landmarks and lists of the checklist, each once with its role and name; every
    control has a name, as Chromium computes it."""
    fill(page)
    problems = []
    count = len(long_ids())
    landmarks = []
    for role in ["main", "region", "navigation", "banner", "contentinfo", "complementary", "form", "search"]:
        landmarks += [(role, name) for name, _ in ax_nodes(page, role)]
    expected = [(role, name.format(count=count)) for role, name in LANDMARKS]
    if sorted(landmarks) != sorted(expected):
        problems.append(f"landmarks {landmarks}, expected {expected}")
    lists = sorted(name for name, _ in ax_nodes(page, "list"))
    if lists != sorted(LISTS):
        problems.append(f"lists {lists}, expected {LISTS}")
    # Each control of the tab order is there once with that role and name, as WebDriver
    # computes them too.
    toggle = "Pause" if status()["state"] == "playing" else "Play"
    for role, name in TAB_ORDER:
        name = name.format(toggle=toggle)
        # The picker's path starts with an "Artists" too (the same as the button).
        found = [e for e in page.named(role, name) if not page.js("return arguments[0].closest('nav') !== null", e)]
        if len(found) != 1:
            problems.append(f"{len(found)} {role} named {name!r}")
        elif (found[0].aria_role, found[0].accessible_name) != (role, name):
            problems.append(f"WebDriver sees {role} {name!r} as {found[0].aria_role} {found[0].accessible_name!r}")
    for name in ["Repeat", "Shuffle"]:
        pressed = page.one("button", name).get_attribute("aria-pressed")
        if pressed not in ("true", "false"):
            problems.append(f"{name} has aria-pressed {pressed!r}")
    # Every control shown on the page has a name (the queue's, the results', the picker's
    # rows); a hidden one (no stream: no "Listen here") is out of the accessibility tree.
    controls = page.driver.find_elements(By.CSS_SELECTOR, "button, input, select, textarea, a[href], [tabindex]")
    unnamed = [c.get_attribute("outerHTML")[:120] for c in controls
               if not c.get_attribute("hidden") and not c.accessible_name.strip()]
    if unnamed:
        problems.append(f"controls without a name: {unnamed}")
    # The queue: its rows are list items that say where they are in the whole queue, the
    # playing one marked; the entry's name says it plays.
    rows = page.queue_rows()
    positions = [(r.get_attribute("aria-posinset"), r.get_attribute("aria-setsize")) for r in rows]
    if positions != [(str(i + 1), str(count)) for i in range(count)]:
        problems.append(f"queue rows' positions {positions}")
    if [r.aria_role for r in rows] != ["listitem"] * count:
        problems.append(f"queue rows' roles {[r.aria_role for r in rows]}")
    current = [r for r in rows if r.get_attribute("aria-current") == "true"]
    title = status()["track"]["title"]
    if len(current) != 1 or not current[0].find_element(By.CSS_SELECTOR, "button.entry").accessible_name.startswith(
            f"playing {title} "):
        problems.append(f"the playing row: {[r.get_attribute('outerHTML')[:200] for r in current]}")
    if problems:
        raise Failure("\n".join(problems))
    return {"controls": len(controls)}


def keyboard(page):
    """Tab from the top walks the controls in the checklist's order, then the playlists'
    Load buttons, then every queue row's entry and Remove (rows drawn as they come into
    view keep the focus), each with the focus outline showing on all four sides; Alt+↓
    pressed twice moves an entry down twice."""
    # A queue longer than the rows drawn at first (about 22 at 900 px).
    ids = [t["id"] for t in rpc("search", {"where": []})["tracks"]]
    load_queue(ids=ids + ids)
    rpc("playlist_save", {"name": "Evening"})
    rpc("pause")
    page.open()  # afresh: nothing focused, Tab starts at the top
    page.wait_one("button", "Load Evening")
    entries = rpc("queue")["entries"]
    wait_for("the queue's rows", lambda: page.queue_rows())
    toggle = "Play" if status()["state"] != "playing" else "Pause"
    expected = [(role, name.format(toggle=toggle)) for role, name in TAB_ORDER
                if name not in ("Add all", "Add selected")]  # disabled: nothing searched or chosen
    expected.append(("button", "Load Evening"))
    playing = status()["entry"]
    for entry in entries:
        # The entry's name starts with its title, after "paused" on the playing row.
        expected.append(("button", f"{'paused ' if entry['entry'] == playing else ''}{entry['track']['title']} "))
        expected.append(("button", "Remove"))
    prefix = len(expected) - 2 * len(entries)
    reached, problems = [], []
    for step, (role, name) in enumerate(expected):
        ActionChains(page.driver).send_keys(Keys.TAB).perform()
        # A queue row may be drawn anew (focused again) while it is read: read again.
        got = wait_for("the focused control", lambda: (lambda e: (e.aria_role, e.accessible_name))(
            page.driver.switch_to.active_element))
        reached.append(got)
        matches = got[0] == role and (got[1].startswith(name) if name.endswith(" ") else got[1] == name)
        if not matches:
            problems.append(f"Tab {step + 1} reached {got}, expected {(role, name)}")
            break
        index = page.js("const li = document.activeElement.closest('#queue > li'); return li ? li.dataset.index : null")
        if index is not None and int(index) != (step - prefix) // 2:
            problems.append(f"Tab {step + 1} reached queue row {index}")
            break
        missing = outline_shown(page)
        if missing:
            problems.append(f"Tab {step + 1} on {got}: no focus outline at {missing}")
    if problems:
        raise Failure("\n".join(problems) + f"\nreached: {reached}")
    # Alt+↓ twice moves the same entry twice: the redraw after the first move focuses it
    # again in its new row.
    page.js("window.scrollTo(0, 0)")
    wait_for("the first row", lambda: page.queue_rows()[0].get_attribute("aria-posinset") == "1")
    first = rpc("queue")["entries"][0]["entry"]
    page.queue_rows()[0].find_element(By.CSS_SELECTOR, "button.entry").send_keys(Keys.ALT, Keys.ARROW_DOWN)
    wait_for("the entry moved to the second place", lambda: rpc("queue")["entries"][1]["entry"] == first)
    wait_for("the moved entry's row focused", lambda: page.js(
        "const li = document.activeElement.closest('#queue > li'); return li && li.dataset.index") == "1")
    ActionChains(page.driver).key_down(Keys.ALT).send_keys(Keys.ARROW_DOWN).key_up(Keys.ALT).perform()
    wait_for("the entry moved to the third place", lambda: rpc("queue")["entries"][2]["entry"] == first)
    return {"tab_stops": len(reached)}


def contrast_scenario(page):
    """Every text pair of the palette at least 4.5:1, the focus outline against the
    backgrounds at least 3:1, in both schemes."""
    problems, table = [], {}
    for name in SCHEMES:
        scheme(page, name)
        colours = palette(page)
        for pairs, least in [(TEXT_PAIRS, 4.5), (OUTLINE_PAIRS, 3.0)]:
            for fore, back in pairs:
                ratio = contrast(colours[fore], colours[back])
                table[f"{name} {fore} on {back}"] = round(ratio, 2)
                if ratio < least:
                    problems.append(f"{name}: {fore} on {back} is {ratio:.2f}:1, under {least}:1")
    if problems:
        raise Failure("\n".join(problems))
    return table


contrast_scenario.__name__ = "contrast"

if __name__ == "__main__":
    page_driver.SCENARIOS = {f.__name__: f for f in [axe, axe_sign_in, names, keyboard, contrast_scenario]}
    page_driver.main()
