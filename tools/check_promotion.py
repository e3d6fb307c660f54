"""Check laxarray/conformance/promotion.py's tables against the standard's text.

The conformance package keeps the standard's four type promotion tables as data, copied
cell for cell (``promotion.PROMOTION_TABLE``); the repository never reads the standard at
run or test time.  This script reads the grid tables of the standard's
``type_promotion.rst`` and reports every cell that differs.  Run it when the standard
changes:

    python tools/check_promotion.py TEXT_DIR

TEXT_DIR is the standard's text directory (array-api-2025.12/text of the standard's sources).
Exit status 0 when the tables agree.
"""

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def grid_tables(text):
    """``{(row code, column code): cell code}`` of every grid table in ``text`` (rst)."""
    cells, header = {}, None
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            if not line.startswith("+"):
                header = None
            continue
        parts = [p.strip().strip("*") for p in line.strip("|").split("|")]
        if header is None:
            header = parts[1:]
            continue
        for col, cell in zip(header, parts[1:]):
            cells[(parts[0], col)] = cell
    return cells


def main(argv=None):
    from laxarray.conformance.promotion import CODES, PROMOTION_TABLE

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("text", type=pathlib.Path)
    args = parser.parse_args(argv)
    source = (args.text / "type_promotion.rst").read_text()
    text = {(CODES[r], CODES[c]): CODES[v] for (r, c), v in grid_tables(source).items()}
    ours = {k: v for k, v in PROMOTION_TABLE.items() if "bool" not in k}
    # the text lists the mixed table one way (signed rows): ours holds both orders
    missing = {k: v for k, v in text.items() if ours.get(k) != v}
    extra = {k: v for k, v in ours.items() if k not in text and (k[1], k[0]) not in text}
    for (a, b), v in sorted(missing.items()):
        print(f"differs: {a} x {b}: the standard says {v}, the table {ours.get((a, b))}")
    for (a, b), v in sorted(extra.items()):
        print(f"not in the standard: {a} x {b} -> {v}")
    print(f"{len(text)} cells of the standard checked")
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main())
