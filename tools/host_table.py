"""Write the table of the CPU host paths into docs/performance.md.

Every kernel that runs NumPy (or SciPy) on the host instead of its XLA program declares it
(``@kernel(host=HostPath(...))``, ``laxarray/_core/runtime/host_path.py``); ``host_path.table()``
renders the declarations.  This script puts that table between the ``host-paths`` markers of
``docs/performance.md`` (``tests/core/test_host_paths.py`` fails while the two differ):

    .venv/bin/python tools/host_table.py
"""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BEGIN = "<!-- host-paths: begin (tools/host_table.py writes this table) -->\n"
END = "<!-- host-paths: end -->\n"
DOC = ROOT / "docs" / "performance.md"


def render(text, table):
    """``text`` with the part between the markers replaced by ``table``."""
    start, stop = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + table + text[stop:]


def main():
    import laxarray.sparse  # noqa: F401  (every kernel declared: sparse's too)
    from laxarray._core.runtime import host_path
    text = DOC.read_text()
    new = render(text, host_path.table())
    if new != text:
        DOC.write_text(new)
    print("docs/performance.md:", "updated" if new != text else "up to date")


if __name__ == "__main__":
    main()
