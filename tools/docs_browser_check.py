"""Open the built documentation site in headless Chromium, as a reader would (issue 55).

    make docs && python tools/docs_browser_check.py [--html DIR] [--screenshots DIR]

Checks, each through Chromium's own command line (``--dump-dom`` gives the page after its
scripts ran; ``--virtual-time-budget`` lets Sphinx's search finish):

- the search page finds ``unique_values`` (``search.html?q=unique_values``: the result
  list links to its reference entry);
- an API page renders a signature (``unique_values(x, /, *, size=None, fill_value=None)``);
- the home page renders its toctree;
- the install page says how to install (``pip install``, ``make dist``);
- an API entry renders its Parameters table (``Array.__getitem__``);

and saves screenshots of the home page, the install page, an API page, the entries of
``unique_values`` and ``linalg.svd``, the ``Array`` page and the performance page into
``docs/_static/screenshots/`` (``--screenshots``). Needs ``chromium`` (Debian:
``apt-get install chromium``); exits 2 without it, 1 on a failed check.
"""

from __future__ import annotations

import argparse
import html as htmllib
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
HTML = ROOT / "docs" / "_build" / "html"
SCREENSHOTS = ROOT / "docs" / "_static" / "screenshots"
#: (file name, page[#anchor], window size) of each screenshot; the performance page's is
#: tall enough to show its first figure, an entry's (an anchor) to show its Parameters,
#: Returns and example
SHOTS = (("home.png", "index.html", "1280,1000"),
         ("install.png", "install.html", "1280,1600"),
         ("api_sets.png", "reference/standard-sets.html", "1280,1000"),
         ("unique_values.png", "reference/standard-sets.html#laxarray.unique_values",
          "1280,1400"),
         ("linalg_svd.png", "reference/linalg.html#laxarray.linalg.svd", "1280,1400"),
         ("array.png", "reference/standard-array-object.html", "1280,1600"),
         ("performance.png", "performance.html", "1280,3000"))


def chromium():
    """The Chromium binary, or ``None``."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _run(browser, profile, *args, timeout=120):
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           f"--user-data-dir={profile}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def dump_dom(browser, profile, url):
    """The page's DOM after its scripts ran (Sphinx's search runs in 10 s of virtual
    time: it loads the index as a script, then fills the result list)."""
    run = _run(browser, profile, "--virtual-time-budget=10000", "--dump-dom", url)
    return run.stdout


def screenshot(browser, profile, url, path, size="1280,1000"):
    path.parent.mkdir(parents=True, exist_ok=True)
    _run(browser, profile, f"--window-size={size}", "--virtual-time-budget=3000",
         f"--screenshot={path}", url)
    return path.is_file() and path.stat().st_size > 0


def screenshot_at(browser, profile, page, anchor, path, size):
    """A screenshot of ``page`` from the entry ``anchor`` on (headless Chromium neither
    scrolls to a URL's fragment before its screenshot nor paints a page scrolled by a
    script): a copy of the page beside it whose script hides what comes before the entry
    (the page's title stays), then removed."""
    html = page.read_text()
    script = ("<script>(function () {"
              f"var e = document.getElementById({anchor!r}); if (!e) return;"
              "var n = e.closest('dl') || e;"
              "while (n && n.tagName !== 'ARTICLE' && n.tagName !== 'BODY') {"
              "  for (var p = n.previousElementSibling; p; p = p.previousElementSibling)"
              "    if (p.tagName !== 'H1' && !p.querySelector('h1')) p.style.display = 'none';"
              "  n = n.parentElement; }"
              "})();</script>")
    copy = page.with_name(f".screenshot-{page.name}")
    copy.write_text(html.replace("</body>", script + "</body>", 1))
    try:
        return screenshot(browser, profile, copy.as_uri(), path, size)
    finally:
        copy.unlink()


def _text(dom):
    return htmllib.unescape(re.sub(r"<[^>]+>", "", dom))


def check(html, screenshots):
    """Run the checks; ``[(name, ok, detail)]``."""
    browser = chromium()
    if browser is None:
        return None
    results = []
    with tempfile.TemporaryDirectory() as profile:
        search = dump_dom(browser, profile,
                          (html / "search.html").as_uri() + "?q=unique_values")
        hits = re.findall(r'<li[^>]*>\s*<a[^>]*href="([^"]*unique_values[^"]*)"', search)
        results.append(("search finds unique_values", bool(hits),
                        hits[0] if hits else "no result links to unique_values"))
        api = dump_dom(browser, profile, (html / "reference" / "standard-sets.html").as_uri())
        sig = re.search(r"laxarray\.unique_values\(x, /, \*, size=None, fill_value=None\)",
                        _text(api).replace("\n", ""))
        results.append(("API page renders the signature of unique_values", bool(sig),
                        sig.group(0) if sig else "signature not found"))
        home = dump_dom(browser, profile, (html / "index.html").as_uri())
        results.append(("home page lists the guide", "Getting started" in _text(home),
                        "toctree"))
        install = _text(dump_dom(browser, profile, (html / "install.html").as_uri()))
        results.append(("install page says how to pip install",
                        "python -m pip install ." in install and "make dist" in install,
                        "install.html"))
        array = dump_dom(browser, profile,
                         (html / "reference" / "standard-array-object.html").as_uri())
        getitem = array[array.find('id="laxarray.Array.__getitem__"'):]
        results.append(("an API entry renders its Parameters table",
                        re.search(r"<dt[^>]*>Parameters", getitem[:6000]) is not None,
                        "Array.__getitem__"))
        for name, page, size in SHOTS:
            page, _, anchor = page.partition("#")
            if anchor:
                ok = screenshot_at(browser, profile, html / page, anchor, screenshots / name,
                                   size)
            else:
                ok = screenshot(browser, profile, (html / page).as_uri(), screenshots / name,
                                size)
            results.append((f"screenshot {page}", ok, str(screenshots / name)))
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--html", type=pathlib.Path, default=HTML,
                        help="the built site (default docs/_build/html)")
    parser.add_argument("--screenshots", type=pathlib.Path, default=SCREENSHOTS,
                        help="where the screenshots go (default docs/_static/screenshots)")
    args = parser.parse_args(argv)
    if not (args.html / "index.html").is_file():
        print(f"no site in {args.html}: run make docs first", file=sys.stderr)
        return 2
    results = check(args.html, args.screenshots)
    if results is None:
        print("chromium is not installed (Debian: apt-get install chromium)", file=sys.stderr)
        return 2
    for name, ok, detail in results:
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
    failed = sum(not ok for _, ok, _ in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
