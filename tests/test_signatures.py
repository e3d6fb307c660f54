"""Every function of the 2025.12 stubs exists with the standard's signature.

The stubs (../shared/spec, laid beside every checkout and CI clone) are parsed into
parameter lists: names, kinds (positional-only before ``/``, keyword-only after ``*``)
and defaults; laxarray's ``inspect.signature`` must match.  laxarray may add parameters
with defaults after the standard's positional ones (``size=`` on data-dependent functions),
and may let a keyword-only parameter also be passed by position, in NumPy's order
(``fft(x, n)``, ``diff(x, n, axis)``): every call the standard allows still binds the same
way.  Nothing else.
"""

import ast
import inspect
import pathlib
import re

import pytest

import laxarray

ROOT = pathlib.Path(__file__).resolve().parents[1]
STUBS = ROOT.parent / "shared" / "spec" / "array-api-2025.12" / "stubs"
MAIN_FILES = ("creation_functions", "data_type_functions", "elementwise_functions",
              "indexing_functions", "linear_algebra_functions", "manipulation_functions",
              "searching_functions", "set_functions", "sorting_functions",
              "statistical_functions", "utility_functions")
EXTENSIONS = {"linalg": "linalg", "fft": "fft"}

#: Names of the standard that laxarray does not provide yet (each is an open issue item).
NOT_YET: set = set()

#: Required parameters of the standard that laxarray makes optional for a NumPy form that
#: the standard lacks (every call of the standard still binds the same way).
NUMPY_OPTIONAL = {("where", "x1"): "where(condition) is NumPy's nonzero(condition)",
                  ("where", "x2"): "where(condition) is NumPy's nonzero(condition)"}

_HEADER = re.compile(r"^## `(\w+)\((.*)\)(?: -> .*)?`$")


def _parse(sig_text):
    """Parameter list of a stub signature: (name, kind, default-source-or-None)."""
    fn = ast.parse(f"def f({sig_text}): pass").body[0]
    args = fn.args
    params = []
    pos = args.posonlyargs + args.args
    defaults = [None] * (len(pos) - len(args.defaults)) + [ast.unparse(d) for d in
                                                           args.defaults]
    for i, (a, d) in enumerate(zip(pos, defaults)):
        kind = "POSITIONAL_ONLY" if i < len(args.posonlyargs) else "POSITIONAL_OR_KEYWORD"
        params.append((a.arg, kind, d))
    if args.vararg:
        params.append((args.vararg.arg, "VAR_POSITIONAL", None))
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        params.append((a.arg, "KEYWORD_ONLY", None if d is None else ast.unparse(d)))
    return params


def _stub_signatures():
    if not STUBS.exists():
        return []
    out = []
    for path in sorted(STUBS.glob("*.md")):
        prefix = EXTENSIONS.get(path.stem)
        if path.stem not in MAIN_FILES and prefix is None:
            continue
        for line in path.read_text().splitlines():
            m = _HEADER.match(line.strip())
            if m:
                name = f"{prefix}.{m.group(1)}" if prefix else m.group(1)
                out.append((name, _parse(m.group(2))))
    return out


def _extension_present(name):
    return "." not in name or hasattr(laxarray, name.split(".")[0])


#: Extensions (linalg, fft) are checked once the package provides them.
SIGNATURES = [(n, p) for n, p in _stub_signatures() if _extension_present(n)]


def _resolve(name):
    obj = laxarray
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def test_stub_parsing_finds_the_whole_standard():
    assert STUBS.exists(), f"the spec stubs are expected at {STUBS}"
    main = [n for n, _ in SIGNATURES if "." not in n]
    assert len(main) >= 130


@pytest.mark.parametrize("name,params", SIGNATURES, ids=[n for n, _ in SIGNATURES])
def test_signature_matches_standard(name, params):
    fn = _resolve(name)
    if name in NOT_YET:
        assert fn is None, f"{name} now exists: remove it from NOT_YET"
        return
    assert fn is not None, f"laxarray.{name} is missing"
    sig = inspect.signature(fn)
    ours = list(sig.parameters.values())
    by_name = {p.name: p for p in ours}
    positional = [q for q in params if q[1] != "KEYWORD_ONLY"]
    for i, (pname, kind, default) in enumerate(positional):
        assert i < len(ours), f"{name}: missing parameter {pname}"
        p = ours[i]
        assert p.name == pname or kind == "POSITIONAL_ONLY", (name, p.name, pname)
        assert p.kind.name == kind, f"{name}({pname}): kind {p.kind.name}, expected {kind}"
        _check_default(name, p, kind, default)
    for pname, kind, default in params[len(positional):]:
        # a keyword-only parameter of the standard may also be passed by position here
        # (NumPy's order): every keyword call of the standard still binds the same
        p = by_name.get(pname)
        assert p is not None, f"{name}: missing parameter {pname}"
        assert ours.index(p) >= len(positional), f"{name}({pname}) shifts a positional one"
        assert p.kind.name in ("KEYWORD_ONLY", "POSITIONAL_OR_KEYWORD"), (
            f"{name}({pname}): kind {p.kind.name}, expected {kind}")
        _check_default(name, p, kind, default)
    std_names = {q[0] for q in params}
    for p in ours[len(positional):]:
        if p.name not in std_names:
            assert p.kind.name in ("KEYWORD_ONLY", "POSITIONAL_OR_KEYWORD") and \
                p.default is not inspect.Parameter.empty, \
                f"{name}: extra parameter {p.name} must have a default"


def _check_default(name, p, kind, default):
    if default is None:
        if kind != "VAR_POSITIONAL" and (name, p.name) not in NUMPY_OPTIONAL:
            assert p.default is inspect.Parameter.empty or kind == "KEYWORD_ONLY", (
                f"{name}({p.name}) should have no default")
    else:
        assert p.default is not inspect.Parameter.empty, f"{name}({p.name}) needs a default"
        assert p.default == ast.literal_eval(default), (
            f"{name}({p.name}): default {p.default!r}, expected {default}")
