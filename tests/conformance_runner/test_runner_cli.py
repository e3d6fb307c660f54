"""The conformance runner: its command line, its reports, and -- "the runner judges itself" --
namespaces with one deliberately injected bug each, which it must flag on the right function.
"""

import io
import json
import re
import types

import numpy as np
import pytest

from laxarray.conformance import SPECS, runner
from laxarray.conformance.__main__ import main
from laxarray.conformance.special_cases import conform
from laxarray.conformance.special_cases_check import functions_only


def untried_stripped(text):
    """The closing line of a text report without its tail of untried cells (", with N
    untried": how many depends on the examples run)."""
    return re.sub(r", with \d+ untried$", "", text.rstrip().splitlines()[-1])

cnp = pytest.importorskip("array_api_compat.numpy")


def run_cli(argv):
    out = io.StringIO()
    status = main(list(argv) + ["--no-progress"], stdout=out)
    return status, out.getvalue()


def test_laxarray_add_sum_pass():
    status, text = run_cli(["--namespace", "laxarray", "--functions", "add,sum",
                            "--max-examples", "5", "--seed", "0"])
    assert status == 0
    assert untried_stripped(text) == "2 passed, 0 failed"


def test_progress_to_a_log_is_a_line_per_spec():
    # a log cut off midway (a device call's time limit) must say which specs ended and when
    log = io.StringIO()
    bar = runner.Progress(3, "xp", stream=log)
    for name, secs, status in (("add", 0.5, "pass"), ("sum", None, None),
                               ("linalg.eig", 12.25, "fail")):
        bar.update(name, secs, status)
    bar.close()
    assert log.getvalue().splitlines() == ["xp 1/3 add 0.50 s pass", "xp 2/3 sum",
                                           "xp 3/3 linalg.eig 12.25 s fail"]


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_on_a_terminal_is_one_bar():
    term = _Terminal()
    bar = runner.Progress(2, "xp", stream=term, width=4)
    bar.update("add", 0.5)
    bar.update("sum", 0.5)
    bar.close()
    assert "\n" not in term.getvalue()[:-1] and term.getvalue().endswith("\n")
    assert term.getvalue().count("\r") == 2 and "[####] 2/2 sum" in term.getvalue()


def test_numpy_known_failure_has_snippet():
    # np.finfo(float32).eps is a NumPy scalar, not a Python float (see test_peers.KNOWN)
    status, text = run_cli(["--namespace", "numpy", "--functions", "finfo,add",
                            "--max-examples", "10", "--seed", "0"])
    assert status == 1
    assert untried_stripped(text) == "1 passed, 1 failed"
    assert "finfo FAIL" in text and "SPECS['finfo'].check(xp, data)" in text
    assert "@seed(0)" in text and "@reproduce_failure(" in text


def test_skipped_by_version_and_extension():
    status, text = run_cli(["--namespace", "array_api_compat.numpy", "--functions",
                            "isin,linalg.det,abs,acos*", "--skip", "acos*", "--version",
                            "2024.12", "--extensions", "fft", "--max-examples", "3",
                            "--seed", "0"])
    assert status == 0
    assert untried_stripped(text) == "1 passed, 0 failed, 2 skipped"


def test_json_and_html(tmp_path):
    jpath, hpath = tmp_path / "r.json", tmp_path / "r.html"
    status, _ = run_cli(["--compare", "array_api_compat.numpy,numpy", "--functions",
                         "abs,finfo", "--max-examples", "5", "--seed", "0",
                         "--json", str(jpath), "--html", str(hpath)])
    assert status == 1
    doc = json.loads(jpath.read_text())
    assert [r["namespace"] for r in doc["runs"]] == ["array_api_compat.numpy", "numpy"]
    records = {r["name"]: r for r in doc["runs"][1]["results"]}
    assert records["abs"]["status"] == "pass" and records["abs"]["examples"] > 0
    assert records["finfo"]["status"] == "fail" and "SPECS['finfo']" in records["finfo"]["snippet"]
    page = hpath.read_text()
    assert page.startswith("<!DOCTYPE html>") and "abs" in page and "finfo" in page
    assert "float32" in page and "</html>" in page


def test_specs_skipped_everywhere_are_listed_not_tabulated(tmp_path):
    hpath = tmp_path / "r.html"
    status, text = run_cli(["--compare", "array_api_compat.numpy,numpy", "--functions",
                            "abs,linalg.det", "--extensions", "fft", "--max-examples", "3",
                            "--seed", "0", "--html", str(hpath)])
    assert status == 0
    summary = [line for line in text.splitlines() if line.startswith("summary")]
    assert summary and summary[-1].split()[1:] == ["1/1", "pass", "1/1", "pass"]
    assert not any(line.startswith("linalg.det ") for line in text.splitlines())
    assert text.count("(1 skipped: extension 'linalg' not selected)") == 2
    page = hpath.read_text()
    assert "skipped (1, extension &#x27;linalg&#x27; not selected):</b> linalg.det" in page
    assert "<td>linalg.det" not in page and ">linalg.det</a>" not in page


# ---- the runner judges itself ----------------------------------------------------------------
def broken(**overrides):
    """array_api_compat.numpy with the functions in ``overrides`` replaced."""
    ns = types.SimpleNamespace(**{k: getattr(cnp, k) for k in dir(cnp)
                                  if not k.startswith("_") or k == "__array_namespace_info__"})
    for name, fn in overrides.items():
        setattr(ns, name, fn)
    return ns


def _add_wrong_dtype(x1, x2, /):  # no promotion: the result takes x1's dtype
    return cnp.add(x1, x2).astype(x1.dtype)


def _sum_ignores_keepdims(x, /, *, axis=None, dtype=None, keepdims=False):
    return cnp.sum(x, axis=axis, dtype=dtype)


def _cumulative_sum_off_by_one(x, /, *, axis=None, dtype=None, include_initial=False):
    return cnp.cumulative_sum(x, axis=axis, dtype=dtype, include_initial=not include_initial)


def _max_skips_nan(x, /, *, axis=None, keepdims=False):
    if x.dtype.kind == "f" and x.size:
        return np.asarray(np.fmax.reduce(x, axis=axis, keepdims=keepdims))
    return cnp.max(x, axis=axis, keepdims=keepdims)


def _round_loses_zero_sign(x, /):
    out = cnp.round(x)
    return out + 0 if out.dtype.kind in "fc" else out


def _broadcast_shapes_left_aligned(*shapes):
    n = max((len(s) for s in shapes), default=0)
    padded = [tuple(s) + (1,) * (n - len(s)) for s in shapes]
    return tuple(max(d) if d else 1 for d in zip(*padded))


def _unique_counts_wrong(x, /):
    res = cnp.unique_counts(x)
    counts = np.array(res.counts)
    if counts.size:
        counts[0] += 1
    return type(res)(res.values, counts)


def _sqrt_branch_cut(x, /):
    if x.dtype.kind == "c":  # forgets the sign of a zero imaginary part
        x = np.where(x.imag == 0, x.real.astype(x.dtype), x)
    return cnp.sqrt(x)


def _remainder_is_fmod(x1, x2, /):
    return cnp.asarray(np.fmod(x1, x2))


def _argmax_last(x, /, *, axis=None, keepdims=False):
    flipped = np.flip(x, axis=axis)
    idx = np.argmax(flipped, axis=axis, keepdims=keepdims)
    size = x.size if axis is None else x.shape[axis]
    return np.asarray(size - 1 - idx)


def _log1p_naive(x, /):
    return np.log(np.asarray(1, dtype=x.dtype) + x)


def _flip_all_axes(x, /, *, axis=None):
    return np.flip(x)


def _tril_off_by_one(x, /, *, k=0):
    return cnp.tril(x, k=k + 1)


def _multiply_wrong_broadcast(x1, x2, /):  # drops the broadcast size-1 axes
    out = cnp.multiply(x1, x2)
    if isinstance(x2, np.ndarray) and x1.shape != x2.shape:
        out = np.squeeze(out)
    return out


def _abs_keeps_complex_dtype(x, /):
    return cnp.abs(x).astype(x.dtype)


def _sort_ignores_descending(x, /, *, axis=-1, descending=False, stable=True):
    return cnp.sort(x, axis=axis, stable=stable)


def _floor_divide_truncates(x1, x2, /):
    out = cnp.floor_divide(x1, x2)
    q = np.asarray(x1) / np.asarray(x2)
    return np.where((q < 0) & (out != np.trunc(q)), out + 1, out).astype(out.dtype)


def _var_ignores_correction(x, /, *, axis=None, correction=0.0, keepdims=False):
    return cnp.var(x, axis=axis, keepdims=keepdims)


def _sign_of_real_part(x, /):
    if x.dtype.kind == "c":
        return np.sign(x.real).astype(x.dtype)
    return cnp.sign(x)


def _expand_dims_negative_axis(x, /, axis=0):
    if isinstance(axis, int) and axis < 0:
        axis = axis + x.ndim  # off by one: a new axis counts in the length
    return cnp.expand_dims(x, axis=axis)


def _clip_ignores_max(x, /, min=None, max=None):
    return cnp.clip(x, min=min)


def _roll_backwards(x, /, shift, *, axis=None):
    back = tuple(-s for s in shift) if isinstance(shift, tuple) else -shift
    return cnp.roll(x, back, axis=axis)


def _vecdot_without_conjugate(x1, x2, /, *, axis=-1):
    return cnp.sum(x1 * x2, axis=axis)


def _searchsorted_ignores_side(x1, x2, /, *, side="left", sorter=None):
    return cnp.searchsorted(x1, x2, side="left", sorter=sorter)


def _linalg_det_abs(x, /):
    return cnp.abs(cnp.linalg.det(x))


def _with_linalg(**overrides):
    ns = types.SimpleNamespace(**{k: getattr(cnp.linalg, k) for k in dir(cnp.linalg)
                                  if not k.startswith("_")})
    for name, fn in overrides.items():
        setattr(ns, name, fn)
    return ns


BROKEN = {
    "wrong result dtype": ("add", {"add": _add_wrong_dtype}),
    "ignored keepdims": ("sum", {"sum": _sum_ignores_keepdims}),
    "off-by-one cumulative_sum": ("cumulative_sum",
                                  {"cumulative_sum": _cumulative_sum_off_by_one}),
    "NaN mishandled in max": ("max", {"max": _max_skips_nan}),
    "sign of zero lost in round": ("round", {"round": _round_loses_zero_sign}),
    "wrong broadcasting (shapes)": ("broadcast_shapes",
                                    {"broadcast_shapes": _broadcast_shapes_left_aligned}),
    "wrong broadcasting (multiply)": ("multiply", {"multiply": _multiply_wrong_broadcast}),
    "wrong unique counts": ("unique_counts", {"unique_counts": _unique_counts_wrong}),
    "wrong complex branch cut": ("sqrt", {"sqrt": _sqrt_branch_cut}),
    "remainder with the dividend's sign": ("remainder", {"remainder": _remainder_is_fmod}),
    "argmax returns the last maximum": ("argmax", {"argmax": _argmax_last}),
    "log1p loses precision": ("log1p", {"log1p": _log1p_naive}),
    "flip ignores axis": ("flip", {"flip": _flip_all_axes}),
    "tril off by one diagonal": ("tril", {"tril": _tril_off_by_one}),
    "abs of complex keeps the complex dtype": ("abs", {"abs": _abs_keeps_complex_dtype}),
    "sort ignores descending": ("sort", {"sort": _sort_ignores_descending}),
    "floor_divide truncates": ("floor_divide", {"floor_divide": _floor_divide_truncates}),
    "var ignores correction": ("var", {"var": _var_ignores_correction}),
    "sign of complex from the real part": ("sign", {"sign": _sign_of_real_part}),
    "expand_dims negative axis off by one": ("expand_dims",
                                             {"expand_dims": _expand_dims_negative_axis}),
    "clip ignores max": ("clip", {"clip": _clip_ignores_max}),
    "roll shifts backwards": ("roll", {"roll": _roll_backwards}),
    "vecdot forgets to conjugate": ("vecdot", {"vecdot": _vecdot_without_conjugate}),
    "searchsorted ignores side": ("searchsorted", {"searchsorted": _searchsorted_ignores_side}),
    "linalg.det loses the sign": ("linalg.det", {"linalg": _with_linalg(det=_linalg_det_abs)}),
}


#: bugs whose minimal example is also searched for (shrinking costs seconds per bug)
SHRUNK = {"sign of zero lost in round", "wrong unique counts", "off-by-one cumulative_sum"}


# ---- conforming replacements of what NumPy gets wrong by the standard's special cases ----
def floor_divide_zero_sign_lost(x1, x2, /):
    """NumPy's floor_divide with a zero quotient's sign lost (``-0.0 // 1.0`` is ``+0``, as
    jax.numpy's): it breaks the standard's row "If ``x1_i`` is ``-0`` and ``x2_i`` is
    greater than ``0``, the result is ``-0``", which no note relaxes."""
    out = cnp.floor_divide(x1, x2)
    return out + out.dtype.type(0) if out.dtype.kind == "f" else out


def floor_divide_standard(x1, x2, /):
    """NumPy's floor_divide with the standard's special cases where a row's note allows
    NumPy's (``inf // 2.0`` is nan, ``1.0 // -inf`` is -1.0): NumPy's own."""
    a1 = np.asarray(x1)
    a2 = np.asarray(x2, dtype=a1.dtype) if isinstance(x2, (int, float)) and \
        a1.dtype.kind == "f" else np.asarray(x2)
    return np.asarray(conform("floor_divide", np.broadcast_arrays(a1, a2),
                              cnp.floor_divide(x1, x2)))


def _moment_standard(fn):
    """``fn`` (NumPy's var or std) with the standard's NaN where ``M - correction <= 0``
    (NumPy: inf)."""
    def moment(x, /, *, axis=None, correction=0.0, keepdims=False):
        out = np.asarray(fn(x, axis=axis, correction=correction, keepdims=keepdims))
        m = np.sum(np.ones(np.shape(x)), axis=axis, keepdims=keepdims)
        return np.asarray(np.where(m - correction <= 0, np.nan, out), dtype=out.dtype)
    return moment


def sort_standard(x, /, *, axis=-1, descending=False, stable=True):
    """array_api_compat.numpy's sort, stable when descending too: equal values (-0.0 and
    +0.0) keep their order (array_api_compat flips an ascending sort, which reverses
    them)."""
    if not descending:
        return cnp.sort(x, axis=axis, stable=stable)
    a = np.asarray(x)
    return np.flip(np.sort(np.flip(a, axis), axis=axis, kind="stable"), axis)


def sign_standard(x, /):
    """array_api_compat.numpy's sign, with a complex ``x / |x|`` that does not underflow:
    its ``x / abs(x)`` is ``nan + inf j`` for ``1e-45j`` in complex64 (the standard: ``1j``,
    up to rounding); here ``x`` is scaled by its larger part first."""
    a = np.asarray(x)
    if a.dtype.kind != "c":
        return cnp.sign(x)
    with np.errstate(all="ignore"):  # (part by part: NumPy's complex division by a
        big = np.maximum(np.abs(a.real), np.abs(a.imag))  # subnormal overflows)
        big = np.where(big == 0, 1, big).astype(a.real.dtype)
        re, im = a.real / big, a.imag / big
        n = np.hypot(re, im)
        out = np.empty(a.shape, a.dtype)
        out.real, out.imag = np.where(n == 0, 0.0, re / n), np.where(n == 0, 0.0, im / n)
    nan = np.isnan(a.real) | np.isnan(a.imag)
    return np.asarray(np.where(nan, np.asarray(complex(np.nan, np.nan), a.dtype), out))


#: the functions of array_api_compat.numpy that break the standard's special cases (or,
#: for sort, its stability; for sign, its value on subnormal complex numbers), replaced by
#: conforming ones: the unbroken namespace of a bug in one of them
STANDARD = {"floor_divide": floor_divide_standard, "var": _moment_standard(cnp.var),
            "std": _moment_standard(cnp.std), "sort": sort_standard, "sign": sign_standard}


def base_of(name):
    """The unbroken namespace for bugs in ``name``: array_api_compat.numpy, conforming
    (its functions: the arrays' operators stay NumPy's, see ``functions_only``)."""
    return broken(**{name: STANDARD[name]}) if name in STANDARD else cnp


@pytest.mark.parametrize("bug", sorted(BROKEN))
def test_runner_flags_injected_bug(bug):
    (name, overrides), n, seed = BROKEN[bug], 25, 0
    spec = SPECS[name]
    with functions_only():  # (the arrays are NumPy's: their operators are NumPy's)
        base = runner.run_spec(base_of(name), spec, max_examples=n, seed=seed)
    assert base.status == "pass", base.message  # the spec passes on the unbroken namespace
    result = runner.run_spec(broken(**overrides), spec, max_examples=n, seed=seed,
                             namespace_label="broken", shrink=bug in SHRUNK)
    assert result.status == "fail", (result.status, result.message)
    assert result.message.startswith("ConformanceError") or name in result.message
    # a failing pinned example (the reductions' large size class) replays without a seed
    replay = "Pinned(" if "pinned example" in result.snippet else f"@seed({seed})"
    assert f"SPECS[{name!r}]" in result.snippet and replay in result.snippet


def test_snippet_reproduces_the_failure():
    result = runner.run_spec(broken(round=_round_loses_zero_sign), SPECS["round"],
                             seed=0, namespace_label="numpy")
    assert result.status == "fail"
    # the snippet imports its namespace by name; replay it on the broken one
    source = result.snippet.replace("xp = importlib.import_module('numpy')", "")
    with pytest.raises(AssertionError, match="round"):
        exec(source, {"xp": broken(round=_round_loses_zero_sign)})


def _result_type_float32_for_int32(*args):
    # jax.numpy's choice for the mixed kinds the standard leaves open: int32 + float32 is
    # float32 (NumPy: float64), and can_cast(int32, float32) is False
    names = {(a.dtype if isinstance(a, np.ndarray) else np.dtype(a)).name for a in args
             if not isinstance(a, (bool, int, float, complex))}
    if names == {"int32", "float32"}:
        return np.dtype("float32")
    return cnp.result_type(*args)


def _can_cast_no_int_to_float(from_, to, /):
    from_ = from_.dtype if isinstance(from_, np.ndarray) else from_
    if np.dtype(from_).kind in "iu" and np.dtype(to).kind in "fc":   # no integer to float
        return False
    return cnp.can_cast(from_, to)


def test_mixed_kinds_are_the_implementations_choice():
    # result_type: "If provided array and/or dtype arguments having mixed data type kinds
    # (e.g., integer and floating-point), the returned dtype is unspecified"; can_cast
    # follows the type promotion rules, which say nothing there either
    ns = broken(result_type=_result_type_float32_for_int32,
                can_cast=_can_cast_no_int_to_float)
    for name in ("result_type", "can_cast"):
        result = runner.run_spec(ns, SPECS[name], max_examples=5, seed=0)
        assert result.status == "pass", (name, result.message)
    # ... but a pair the table defines still has to be right
    wrong = broken(can_cast=lambda from_, to, /: False)
    assert runner.run_spec(wrong, SPECS["can_cast"], max_examples=5, seed=0).status == "fail"
