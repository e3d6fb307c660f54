"""Generate tests/data/array_api_2025_12_signatures.json from the Array API stubs.

The signature test's oracle is the standard's text; this script turns the stubs (one
markdown file per chapter, one ``## `name(params) -> type``` header per function) into a
table kept in the repository, so the test needs nothing outside the checkout.  Run it when
the standard changes:

    python tools/gen_signatures.py STUBS_DIR [-o OUTPUT]

STUBS_DIR is the standard's stubs directory (array-api-2025.12/stubs of the standard's sources).

Only the function chapters and the linalg / fft extensions are read (the array object's
methods are not in the table).  Each parameter is [name, kind, default source or null],
kind as in ``inspect.Parameter``: positional-only before ``/``, keyword-only after ``*``.
"""

import argparse
import ast
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "tests" / "data" / "array_api_2025_12_signatures.json"
MAIN_FILES = ("creation_functions", "data_type_functions", "elementwise_functions",
              "indexing_functions", "linear_algebra_functions", "manipulation_functions",
              "searching_functions", "set_functions", "sorting_functions",
              "statistical_functions", "utility_functions")
EXTENSIONS = ("linalg", "fft")

_HEADER = re.compile(r"^## `(\w+)\((.*)\)(?: -> .*)?`$")
_TITLE = re.compile(r"^# \w+ \(Array API (\S+)\)$")


def _parse(sig_text):
    """Parameter list of a stub signature: [name, kind, default-source-or-None]."""
    args = ast.parse(f"def f({sig_text}): pass").body[0].args
    pos = args.posonlyargs + args.args
    defaults = [None] * (len(pos) - len(args.defaults)) + [ast.unparse(d) for d in
                                                           args.defaults]
    params = []
    for i, (a, d) in enumerate(zip(pos, defaults)):
        kind = "POSITIONAL_ONLY" if i < len(args.posonlyargs) else "POSITIONAL_OR_KEYWORD"
        params.append([a.arg, kind, d])
    if args.vararg:
        params.append([args.vararg.arg, "VAR_POSITIONAL", None])
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        params.append([a.arg, "KEYWORD_ONLY", None if d is None else ast.unparse(d)])
    return params


def table(stubs):
    """The signature table of the stubs in directory ``stubs``."""
    versions, functions = set(), {}
    for path in sorted(pathlib.Path(stubs).glob("*.md")):
        if path.stem not in MAIN_FILES + EXTENSIONS:
            continue
        namespace = path.stem if path.stem in EXTENSIONS else "main"
        lines = path.read_text().splitlines()
        title = _TITLE.match(lines[0].strip())
        if title is None:
            raise ValueError(f"{path}: first line is not '# chapter (Array API version)'")
        versions.add(title.group(1))
        for line in lines:
            m = _HEADER.match(line.strip())
            if m:
                name = m.group(1) if namespace == "main" else f"{namespace}.{m.group(1)}"
                if name in functions:
                    raise ValueError(f"{path}: {name} is documented twice")
                functions[name] = {"namespace": namespace, "params": _parse(m.group(2))}
    if len(versions) != 1:
        raise ValueError(f"{stubs}: stubs of versions {sorted(versions)}, expected one")
    return {"about": {"generator": "tools/gen_signatures.py", "standard": versions.pop()},
            "functions": functions}


def render(tab):
    """JSON text of a table: sorted keys, one function a line, so diffs stay readable."""
    rows = [f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True)}"
            for k, v in sorted(tab["functions"].items())]
    return (f'{{\n "about": {json.dumps(tab["about"], sort_keys=True)},\n "functions": {{\n'
            + ",\n".join(rows) + "\n }\n}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stubs", type=pathlib.Path)
    parser.add_argument("-o", "--output", default=OUTPUT, type=pathlib.Path)
    opts = parser.parse_args()
    if not opts.stubs.is_dir():
        parser.error(f"no stubs directory at {opts.stubs}")
    text = render(table(opts.stubs))
    opts.output.parent.mkdir(parents=True, exist_ok=True)
    opts.output.write_text(text)
    print(f"wrote {opts.output}")


if __name__ == "__main__":
    main()
