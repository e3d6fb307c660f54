"""The documentation's checker (tools/docs_check.py): each rule fails when it is broken.

No Sphinx needed: the rules read the reference's plan (docs/_ext/laxarray_reference.py),
the docstrings and the backend records. ``make docs-check`` runs the checker on every entry.
"""

import importlib.util
import inspect
import pathlib
import sys
from dataclasses import replace

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _load(name, path):
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


checker = _load("docs_check", ROOT / "tools" / "docs_check.py")
ref = checker.generator()


def _ours(fn):
    """``fn`` as if laxarray defined it (the rules read only laxarray's own docstrings)."""
    fn.__module__ = "laxarray.fake"
    return fn


def _rules(problems):
    return [p[0] for p in problems]


# ---- repr -----------------------------------------------------------------------------------

def test_an_address_in_an_entry_is_a_problem():
    bad = "``{'f': Spec(body=<function _f_check at 0x7fa71dc904a0>)}``"
    assert _rules(checker.check_repr("laxarray.x", ["fine", bad])) == ["repr"]
    assert _rules(checker.check_repr("laxarray.x", ["<laxarray.Foo object at 0x1234abcd>"])) \
        == ["repr"]
    assert checker.check_repr("laxarray.x", ["``2.718281828459045``", "0x10 is hex"]) == []


def test_data_entries_are_described_without_reprs():
    from laxarray.checkify import nan_checks
    from laxarray.conformance import SPECS
    specs = ref._describe(SPECS)
    assert specs.startswith(f"A dict of {len(SPECS)} entries") and len(specs) < 200
    assert checker.check_repr("SPECS", [specs]) == []
    assert ref._describe(nan_checks) == \
        "A frozenset of 1 class: :py:class:`laxarray.checkify.NaNError`."


def test_numpy_functions_are_entries_with_their_signature_and_a_link():
    import laxarray
    entry = ref.Entry("laxarray", "set_printoptions", laxarray.set_printoptions)
    lines, _ = ref._directive(entry)
    assert lines[0].startswith(".. py:function:: laxarray.set_printoptions(precision=None")
    assert ":py:func:`numpy.set_printoptions`" in lines[2]
    assert checker.check_repr("x", ["\n".join(lines)]) == []


# ---- signature ------------------------------------------------------------------------------

def test_a_function_without_a_signature_is_a_problem():
    assert _rules(checker.check_signature("laxarray.x", _NoSignature())) == ["signature"]

    @_ours
    def vague(*args, **kwargs):
        """Takes anything."""
    assert _rules(checker.check_signature("laxarray.vague", vague)) == ["signature"]

    @_ours
    def fine(x, /, *, axis=None):
        """Fine."""
    assert checker.check_signature("laxarray.fine", fine) == []


class _NoSignature:
    """A callable whose signature ``inspect`` cannot read."""

    __module__ = "laxarray.fake"

    def __call__(self, *args):
        pass

    @property
    def __signature__(self):
        raise ValueError("no signature")


def test_exceptions_and_the_array_need_no_signature():
    import laxarray
    assert checker.check_signature("laxarray.Array", laxarray.Array) == []
    assert checker.check_signature("laxarray.linalg.LinAlgError",
                                   laxarray.linalg.LinAlgError) == []


def test_jax_transformations_show_jax_parameters():
    import laxarray
    assert list(inspect.signature(laxarray.jacrev).parameters) == \
        ["fun", "argnums", "has_aux", "holomorphic", "allow_int"]


# ---- parameters -----------------------------------------------------------------------------

@_ours
def _documented(x, /, *, axis=None):
    """Sum.

    Parameters
    ----------
    x : Array
        Input.
    axis : int, optional
        Axis.
    """


@_ours
def _undocumented(x, /, *, axis=None):
    """Sum."""


@_ours
def _no_parameters():
    """Nothing to take."""


def test_a_goal_function_without_parameters_fails_unless_allowed():
    goal = {"laxarray.a": _documented, "laxarray.b": _undocumented,
            "laxarray.c": _no_parameters}
    assert [p[1] for p in checker.check_parameters(goal, set())] == ["laxarray.b"]
    assert checker.check_parameters(goal, {"laxarray.b"}) == []


def test_the_allow_list_only_shrinks():
    goal = {"laxarray.a": _documented, "laxarray.b": _undocumented}
    stale = checker.check_parameters(goal, {"laxarray.a", "laxarray.b"})
    assert [(p[0], p[1]) for p in stale] == [("parameters", "laxarray.a")]
    assert "take it off" in stale[0][2]
    unknown = checker.check_parameters(goal, {"laxarray.b", "laxarray.gone"})
    assert [p[1] for p in unknown] == ["laxarray.gone"]


def test_the_goal_set():
    import laxarray
    entries = {checker.qualified(e): e for e in checker.entries()}
    goal = checker.goal_set()
    for name in ("laxarray.unique_values", "laxarray.linalg.svd", "laxarray.fft.fft",
                 "laxarray.sparse.BCOO", "laxarray.sparse.linalg.cg", "laxarray.fft.fftshift"):
        assert name in goal, name
    for name in ("laxarray.median", "laxarray.linalg.SVDResult", "laxarray.linalg.LinAlgError",
                 "laxarray.checkify.checkify", "laxarray.pi"):
        assert name in entries and name not in goal, name
    assert goal["laxarray.abs"] is laxarray.abs


def test_the_allow_list_names_goal_functions_only():
    allow = checker.read_allowlist()
    assert allow <= set(checker.goal_set())


# ---- example --------------------------------------------------------------------------------

def test_an_example_that_fails_is_a_problem():
    @_ours
    def wrong():
        """Two.

        >>> 1 + 1
        3
        """
    @_ours
    def right():
        """Two.

        >>> 1 + 1
        2
        """
    problems, ran = checker.check_example("laxarray.wrong", wrong)
    assert _rules(problems) == ["example"] and not ran
    assert checker.check_example("laxarray.right", right) == ([], True)
    assert checker.check_example("laxarray.none", _undocumented) == ([], False)


# ---- device ---------------------------------------------------------------------------------

@pytest.fixture
def records():
    from laxarray._core import backend
    return dict(backend.RECORDS)


def test_device_claims_follow_the_backend_records(records):
    checked = ["float32", "float64"]
    good = "checked in float32, float64 (conformance spec ``sin``); cpu: all; " \
           "gpu: untested; tpu: not float64."
    assert checker.check_device_claim("sin", good, records, checked) == []
    for bad in ("checked in float32, float64; cpu, gpu: all; tpu: not float64.",   # never run
                "checked in float32, float64; cpu: all; gpu: untested; tpu: all.",  # no f64
                "checked in float32, float64; cpu: untested; gpu: untested; tpu: not float64.",
                "checked in float32, float64; cpu: all; metal: all."):
        assert _rules(checker.check_device_claim("sin", bad, records, checked)) == ["device"], bad


def test_a_platform_that_runs_laxarray_may_be_claimed(records):
    records = dict(records, gpu=replace(records["gpu"], tested="a GPU run"))
    claim = "checked in float64; cpu, gpu: all; tpu: not float64."
    assert checker.check_device_claim("sin", claim, records, ["float64"]) == []


def test_dtype_entries_claim_tested_platforms(records):
    assert checker.check_device_claim("float64", "arrays of it on cpu; gpu: untested.",
                                      records, ["float64"]) == []
    assert _rules(checker.check_device_claim("float64", "arrays of it on cpu, tpu; gpu: "
                                             "untested.", records, ["float64"])) == ["device"]
    assert _rules(checker.check_device_claim("float64", "arrays of it on cpu, gpu.",
                                             records, ["float64"])) == ["device"]


def test_the_generated_claims_mark_the_gpu_untested():
    import laxarray
    from laxarray._core import backend
    from laxarray.conformance import SPECS
    groups = ref._platform_groups(backend)
    entry = ref.Entry("laxarray", "sin", laxarray.sin, "sin")
    note = ref.dtype_note(entry, SPECS, groups)
    assert "gpu: untested" in note and "gpu: all" not in note and "cpu: all" in note


# ---- jit ------------------------------------------------------------------------------------

def test_the_jit_field_names_the_static_parameters():
    import laxarray
    assert "``rowvar``" in ref.jit_note(laxarray.corrcoef)
    assert "``argnums``" in ref.jit_note(laxarray.jacrev)
    assert ref.jit_note(laxarray.sin) is None            # nothing to say: no field
    assert "says more" not in (ref.jit_note(laxarray.isin) or "")


def test_a_static_paragraph_is_the_list():
    @_ours
    def f(x, /, *, axis=None, rowvar=True, flag=False):
        """F.

        Notes
        -----
        Static under ``jax.jit``: ``rowvar``, ``flag``.
        """
    assert ref.static_parameters(f) == (["rowvar", "flag"], True)
    assert ref.jit_note(f).startswith("static: ``rowvar``, ``flag`` (")


def test_jit_fields_that_are_empty_or_wrong_are_problems():
    @_ours
    def g(x, /, *, rowvar=True):
        """G: ``rowvar`` is static under ``jax.jit``."""

    @_ours
    def h(x, /):
        """H.

        Static under ``jax.jit``: ``axis``.
        """
    assert _rules(checker.check_jit("g", g, "the docstring above says more.")) == ["jit", "jit"]
    assert _rules(checker.check_jit("g", g, None)) == ["jit"]       # rowvar missing
    assert checker.check_jit("g", g, ref.jit_note(g)) == []
    assert _rules(checker.check_jit("h", h, None)) == ["jit"]       # axis: no such parameter
