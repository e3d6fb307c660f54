"""Every function of the 2025.12 standard exists with the standard's signature.

The oracle is ``tests/data/array_api_2025_12_signatures.json``: the standard's stubs parsed
by ``tools/gen_signatures.py`` into parameter lists (names, kinds: positional-only before
``/``, keyword-only after ``*``, and defaults), kept in the repository so that a plain clone
tests itself; laxarray's ``inspect.signature`` must match.  laxarray may add parameters
with defaults after the standard's positional ones (``size=`` on data-dependent functions),
and may let a keyword-only parameter also be passed by position, in NumPy's order
(``fft(x, n)``, ``diff(x, n, axis)``): every call the standard allows still binds the same
way.  Nothing else.  The table itself is checked against array_api_strict's signatures and,
where the stubs lie beside the checkout, against a fresh run of the generator.
"""

import ast
import importlib.util
import inspect
import json
import pathlib

import array_api_strict
import pytest

import laxarray

ROOT = pathlib.Path(__file__).resolve().parents[1]
TABLE_PATH = ROOT / "tests" / "data" / "array_api_2025_12_signatures.json"
TABLE = json.loads(TABLE_PATH.read_text())

#: Names of the standard that laxarray does not provide yet (each is an open issue item).
NOT_YET: set = set()

#: Required parameters of the standard that laxarray makes optional for a NumPy form that
#: the standard lacks (every call of the standard still binds the same way).
NUMPY_OPTIONAL = {("where", "x1"): "where(condition) is NumPy's nonzero(condition)",
                  ("where", "x2"): "where(condition) is NumPy's nonzero(condition)"}


def _extension_present(namespace):
    return namespace == "main" or hasattr(laxarray, namespace)


#: Extensions (linalg, fft) are checked once the package provides them.
SIGNATURES = [(n, [tuple(q) for q in e["params"]]) for n, e in TABLE["functions"].items()
              if _extension_present(e["namespace"])]


def _resolve(name, module=laxarray):
    obj = module
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def test_stub_parsing_finds_the_whole_standard():
    assert TABLE["about"]["standard"] == laxarray.__array_api_version__
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


#: Parameters whose default array_api_strict writes differently from the standard: a
#: private sentinel standing for None, so that it can reject the keyword under an older
#: api_version flag, before the keyword existed.
STRICT_DEFAULTS = {("astype", "device"): "device= is new in 2023.12",
                   ("from_dlpack", "device"): "device= is new in 2023.12",
                   ("from_dlpack", "copy"): "copy= is new in 2023.12"}

#: Functions array_api_strict exports that the table does not list.
STRICT_ONLY = {
    "__array_namespace_info__": "the standard's inspection chapter (info.md), not a "
                                "function chapter the table is generated from",
    "get_array_api_strict_flags": "array_api_strict's own flags, not the standard's",
    "set_array_api_strict_flags": "array_api_strict's own flags, not the standard's",
    "reset_array_api_strict_flags": "array_api_strict's own flags, not the standard's"}


@pytest.fixture(scope="module")
def strict():
    """array_api_strict set to the table's version of the standard, extensions enabled."""
    with array_api_strict.ArrayAPIStrictFlags(api_version=TABLE["about"]["standard"],
                                              enabled_extensions=("linalg", "fft")):
        yield array_api_strict


@pytest.mark.parametrize("name", sorted(TABLE["functions"]))
def test_table_matches_array_api_strict(strict, name):
    """Names, kinds and defaults (value and type) agree but for STRICT_DEFAULTS."""
    fn = _resolve(name, strict)
    assert fn is not None, f"array_api_strict.{name} is missing"
    theirs = list(inspect.signature(fn).parameters.values())
    params = TABLE["functions"][name]["params"]
    assert [(p.name, p.kind.name) for p in theirs] == [(n, k) for n, k, _ in params]
    for p, (pname, _, default) in zip(theirs, params):
        if (name, pname) in STRICT_DEFAULTS:
            assert default == "None", f"{name}({pname}): the standard's default changed"
            assert p.default not in (None, inspect.Parameter.empty), (
                f"{name}({pname}) now agrees: remove it from STRICT_DEFAULTS")
        elif default is None:
            assert p.default is inspect.Parameter.empty, f"{name}({pname}) has a default"
        else:
            value = ast.literal_eval(default)
            assert type(p.default) is type(value) and p.default == value, (
                f"{name}({pname}): array_api_strict {p.default!r}, table {default}")


def test_array_api_strict_functions_are_in_the_table(strict):
    """The table misses no function of the standard that array_api_strict provides."""
    exported = [(ns, n, getattr(mod, n)) for ns, mod in
                (("main", strict), ("linalg", strict.linalg), ("fft", strict.fft))
                for n in mod.__all__]
    names = {n if ns == "main" else f"{ns}.{n}" for ns, n, obj in exported
             if callable(obj) and not isinstance(obj, type)}
    assert sorted(names - set(TABLE["functions"])) == sorted(STRICT_ONLY)


def test_table_file_is_the_generators_rendering_of_its_data():
    """The committed table is what tools/gen_signatures.py writes for its data (comparing it
    with the stubs needs the standard beside the checkout: run the tool by hand)."""
    spec = importlib.util.spec_from_file_location("gen_signatures",
                                                  ROOT / "tools" / "gen_signatures.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert gen.render(TABLE) == TABLE_PATH.read_text(), "run tools/gen_signatures.py"