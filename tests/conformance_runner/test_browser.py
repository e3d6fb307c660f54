"""The HTML report looked at in a real browser: headless Chromium, driven over the DevTools
protocol (a websocket client written here on the standard library), loads the report of a
small side-by-side run -- one namespace correct, one with a deliberately broken ``flip`` --
and the page is checked after its script ran: the pass-rate plot has one bar per chapter x
namespace, a failure's ``<details>`` opens on a click and shows its snippet, typing into
the filter box hides the other rows, and the page still reads with JavaScript off.

Skipped where no Chromium is installed (CI has none): ``apt-get install chromium``.
"""

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import time
import types
import urllib.parse
import urllib.request
import zlib

import numpy as np
import pytest

from laxarray.conformance import report, runner

BROWSER = next((path for path in map(shutil.which, ("chromium", "chromium-browser",
                                                     "google-chrome")) if path), None)
pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="no chromium, chromium-browser or google-chrome on PATH: the "
                            "HTML report is not checked in a browser")

cnp = pytest.importorskip("array_api_compat.numpy")
# (this folder is on sys.path: it has no __init__.py)
from test_runner_cli import sort_standard  # noqa: E402

#: the specs of the run and their chapters, as the standard's pages file them.
CHAPTER_OF = {"abs": "elementwise", "add": "elementwise", "flip": "manipulation",
              "sum": "statistical", "argmax": "searching", "sort": "sorting"}
WIDTH, HEIGHT = 1200, 900


# ---- a DevTools protocol client on the standard library ------------------------------------
def _exactly(sock, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("the browser closed the DevTools connection")
        buf += chunk
    return bytes(buf)


class DevTools:
    """One headless browser and a websocket to its first page (RFC 6455 by hand)."""

    def __init__(self, binary, profile):
        self.proc = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--no-first-run", "--no-default-browser-check", "--remote-debugging-port=0",
             f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.ids, self.events = 0, []
        port_file, deadline = profile / "DevToolsActivePort", time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().strip()):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError(f"{binary} did not start its DevTools server")
            time.sleep(0.05)
        port = int(port_file.read_text().split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as f:
            url = next(t["webSocketDebuggerUrl"] for t in json.load(f) if t["type"] == "page")
        parts = urllib.parse.urlsplit(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=20)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                           ).encode())
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            head += _exactly(self.sock, 1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def close(self):
        if getattr(self, "sock", None):
            self.sock.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def _send(self, text):
        payload, mask = text.encode(), os.urandom(4)
        n = len(payload)
        head = (struct.pack("!BB", 0x81, 0x80 | n) if n < 126 else
                struct.pack("!BBH", 0x81, 0x80 | 126, n) if n < 65536 else
                struct.pack("!BBQ", 0x81, 0x80 | 127, n))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def _receive(self):
        message = b""
        while True:
            b0, b1 = _exactly(self.sock, 2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", _exactly(self.sock, 2))[0]
            elif n == 127:
                n = struct.unpack("!Q", _exactly(self.sock, 8))[0]
            mask = _exactly(self.sock, 4) if b1 & 0x80 else None
            data = _exactly(self.sock, n)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            opcode = b0 & 0x0F
            if opcode == 8:
                raise ConnectionError("the browser closed the DevTools connection")
            if opcode in (0, 1, 2):
                message += data
                if b0 & 0x80:
                    return json.loads(message)

    def call(self, method, **params):
        """Send a DevTools command and return its result (events are kept for later)."""
        self.ids += 1
        self._send(json.dumps({"id": self.ids, "method": method, "params": params}))
        while True:
            msg = self._receive()
            if msg.get("id") == self.ids:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg["result"]
            self.events.append(msg)

    def wait_for(self, event):
        while True:
            for i, msg in enumerate(self.events):
                if msg.get("method") == event:
                    return self.events.pop(i)
            self.events.append(self._receive())

    def load(self, url):
        self.call("Page.enable")
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def js(self, expression):
        """The value of a JavaScript expression in the page."""
        out = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in out:
            raise RuntimeError(f"{expression}: {out['exceptionDetails']}")
        return out["result"].get("value")

    def click(self, selector):
        """A real mouse click at the middle of the element ``selector``."""
        x, y = self.js(f"(function () {{ var e = document.querySelector({selector!r}); "
                       "e.scrollIntoView({block: 'center'}); var r = e.getBoundingClientRect();"
                       " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                      clickCount=1)

    def type(self, selector, text):
        """Focus the element ``selector`` and type ``text`` into it."""
        self.js(f"document.querySelector({selector!r}).focus()")
        self.call("Input.insertText", text=text)

    def screenshot(self, width, height):
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=False)
        self.js("window.scrollTo(0, 0)")
        return base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])


# ---- the run and the page ------------------------------------------------------------------
def _flip_ignores_axis(x, /, *, axis=None):
    return np.flip(x)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    # array_api_compat.numpy, with a sort that is stable descending too (its own flips an
    # ascending sort, which the sort spec flags), and a copy of it with a broken flip
    names = {k: getattr(cnp, k) for k in dir(cnp)
             if not k.startswith("_") or k == "__array_namespace_info__"}
    correct = types.SimpleNamespace(**dict(names, sort=sort_standard))
    broken = types.SimpleNamespace(**dict(names, sort=sort_standard, flip=_flip_ignores_axis))
    specs, skipped = runner.select_specs(functions=list(CHAPTER_OF))
    runs = [runner.run_namespace(xp, specs, skipped, namespace_label=label, max_examples=5,
                                 seed=0, progress=False, shrink=False)
            for xp, label in ((correct, "compat"), (broken, "broken"))]
    assert all(r.status == "pass" for r in runs[0].results), runs[0].results
    statuses = {r.name: r.status for r in runs[1].results}
    assert statuses["flip"] == "fail" and statuses["abs"] == "pass", statuses
    path = tmp_path_factory.mktemp("report") / "report.html"
    path.write_text(report.to_html(runs), encoding="utf-8")
    browser = DevTools(BROWSER, tmp_path_factory.mktemp("profile"))
    try:
        browser.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT,
                     deviceScaleFactor=1, mobile=False)
        browser.load(path.as_uri())
        yield types.SimpleNamespace(browser=browser, url=path.as_uri(), runs=runs)
    finally:
        browser.close()


def test_plot_has_a_bar_per_chapter_and_namespace(page):
    b = page.browser
    bars = b.js("Array.from(document.querySelectorAll('svg#pass-rate rect.bar')).map("
                "function (r) { return [r.dataset.chapter, r.dataset.namespace, "
                "+r.dataset.passed, +r.dataset.checked, r.getBoundingClientRect().height]; })")
    chapters = set(CHAPTER_OF.values())
    assert sorted((c, ns) for c, ns, *_ in bars) == sorted(
        (c, ns) for c in chapters for ns in ("compat", "broken"))
    # the plot sits above the tables
    assert b.js("document.querySelector('svg#pass-rate').getBoundingClientRect().top < "
                "document.querySelector('table#side-by-side').getBoundingClientRect().top")
    by = {(c, ns): (p, n, h) for c, ns, p, n, h in bars}
    for c in chapters:
        expected = [r for r in page.runs[0].results if CHAPTER_OF.get(r.name) == c]
        assert by[c, "compat"][:2] == (sum(r.status == "pass" for r in expected),
                                       len(expected))
    # broken: flip is the only spec of manipulation, and it failed: an empty bar
    assert by["manipulation", "broken"][:2] == (0, 1) and by["manipulation", "broken"][2] == 0
    full = [h for (c, ns), (p, n, h) in by.items() if p == n]
    assert full and min(full) > 100  # drawn on screen, at the plot's full height


def test_failure_expands_on_click(page):
    b = page.browser
    snippet = "document.querySelector('#broken-flip pre.snippet')"
    height = "document.querySelector('#broken-flip').getBoundingClientRect().height"
    assert b.js("document.querySelector('#broken-flip').open") is False
    assert b.js(f"{snippet}.checkVisibility()") is False
    closed = b.js(height)
    b.click("#broken-flip > summary")
    assert b.js("document.querySelector('#broken-flip').open") is True
    assert b.js(f"{snippet}.checkVisibility()") is True
    assert b.js(height) > closed + 20
    text = b.js(f"{snippet}.innerText")
    assert "flip" in text and "SPECS['flip']" in text
    assert b.js("document.querySelector('#broken-flip pre.message').innerText")
    # the snippet's lines scroll inside their box rather than widen the page
    assert b.js("document.documentElement.scrollWidth") <= WIDTH


def test_filter_box_hides_other_rows(page):
    b = page.browser
    visible = ("Array.from(document.querySelectorAll('[data-filter]')).filter(function (e) {"
               " return e.getClientRects().length > 0; }).map(function (e) {"
               " return e.getAttribute('data-filter').split(' ')[0]; })")
    before = b.js(visible)
    assert set(before) == set(CHAPTER_OF)
    b.type("#filter", "argmax")
    after = b.js(visible)
    # one row in the side-by-side table, in each namespace's matrix and each namespace's
    # table of value classes x code paths, and each namespace's list of what no example
    # met, where argmax has untried cells
    untried = b.js("document.querySelectorAll('details.untried[data-filter^=\"argmax \"]')"
                   ".length")
    assert after == ["argmax"] * (5 + untried)
    b.js("var f = document.querySelector('#filter'); f.value = '';"
         "f.dispatchEvent(new Event('input'))")
    b.type("#filter", "fail")
    assert set(b.js(visible)) == {"flip"}  # the failing row and its <details>
    b.js("var f = document.querySelector('#filter'); f.value = '';"
         "f.dispatchEvent(new Event('input'))")
    assert sorted(b.js(visible)) == sorted(before)


def test_screenshot_is_a_picture_of_the_page(page, tmp_path):
    png = page.browser.screenshot(WIDTH, HEIGHT)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, depth, colour = struct.unpack("!IIBB", png[16:26])
    assert (width, height, depth) == (WIDTH, HEIGHT, 8)
    data, pos = b"", 8
    while pos < len(png):
        n, kind = struct.unpack("!I4s", png[pos:pos + 8])
        if kind == b"IDAT":
            data += png[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(data)
    channels = {2: 3, 6: 4}[colour]
    assert len(raw) == HEIGHT * (1 + WIDTH * channels)
    # not a blank page: a blank one is a few bytes of filtered rows repeated (all 0 or
    # all 255); text, bars and table rules give many byte values and compress less
    assert len(set(raw)) > 64 and len(png) > 20_000
    (tmp_path / "report.png").write_bytes(png)


def test_page_reads_without_javascript(page):
    b = page.browser
    b.call("Emulation.setScriptExecutionDisabled", value=True)
    try:
        b.load(page.url)
        assert b.js("document.querySelector('#filterbox').getClientRects().length") == 0
        assert b.js("document.querySelectorAll('svg#pass-rate rect.bar').length") == 2 * len(
            set(CHAPTER_OF.values()))
        b.click("#broken-flip > summary")
        assert b.js("document.querySelector('#broken-flip pre.snippet').checkVisibility()")
    finally:
        b.call("Emulation.setScriptExecutionDisabled", value=False)
