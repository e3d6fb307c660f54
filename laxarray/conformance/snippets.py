"""Self-contained reproductions of failures: Python source that needs only NumPy and the
namespace under test.

A spec runs with its namespace behind a :class:`~laxarray.conformance.flushing.Calls`
proxy, which records every namespace call (its dotted path, arguments and result) as a
:class:`~laxarray.conformance.flushing.Call`.  When a value, dtype or shape check fails,
the :class:`~laxarray.conformance.compare.ConformanceError` carries what it compared;
:func:`reproduction` finds the call that produced the compared value and writes it out:

- **Which call.**  The last recorded call *of the spec's own function* (its path equals the
  spec's name: ``clip``, ``linalg.solve``, ``add.at``) whose result -- or an element of a
  tuple result -- *is* the compared value: the same object (dtype and shape checks are
  given the namespace's array), or, for value checks (given NumPy arrays), equal to it
  byte for byte once converted to NumPy (with the spec's boolean selection applied where it
  compared a selection, as the elementwise specs' ``postfilter`` does).  Calls of other
  functions (``asarray`` building the inputs) are not candidates, so a value the spec
  derived otherwise (a reconstruction ``q @ r``, ``x[k] = v`` on an input) is never
  blamed on the wrong call.
- **Its inputs.**  NumPy arrays become literals -- floating and complex ones as
  ``np.frombuffer(bytes.fromhex(...), dtype)``, so NaN payloads, signed zeros and
  subnormals survive exactly; integer and boolean ones as lists.  An argument that an
  earlier recorded call returned (``xp.asarray(x, dtype=xp.float32)``) is written as that
  call; another array of the namespace (from an operator or a method, which are not
  recorded) as ``xp.asarray(<its values>)``, read when the failure is reported.  Python
  scalars, tuples, slices, ``None`` and ``...`` are written as themselves, the
  namespace's dtypes as ``xp.<name>``, its functions as ``xp.<path>``, its default device
  as ``xp.__array_namespace_info__().default_device()``.
- **The check.**  The oracle's value the failing check used, as a literal, compared with
  the same rule (exact for integers and booleans; the bound's absolute ``rtol``/``atol``
  and complex measure, NaN against NaN, infinities and, where the spec asks, signs of zero
  for floating values; the dtype's name; the shape), written inline in plain NumPy, so the
  source raises ``AssertionError`` on the failing namespace and passes on a correct one.
  The expectation is the oracle's, never flushed: on a flush-to-zero platform the runner
  also accepts flushed results (:mod:`laxarray.conformance.flushing`), the snippet does not.

A spec whose namespace call raised an unexpected exception gets the same call, which
raises it again.  What is not reproduced this way -- failures of checks a spec writes
itself (``copy=True`` independence, an expected error that was not raised), values derived
from a result, operators and array methods, arguments of types with no literal form (the
runner falls back to hypothesis' replay) -- is said in the snippet.
"""

from __future__ import annotations

import inspect
import math
import textwrap
import warnings

import numpy as np

from . import compare
from .compare import ConformanceError, to_numpy
from .flushing import Calls

#: dtype names looked up on the namespace to write its dtype objects as ``xp.<name>``.
DTYPE_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64", "float16", "float32", "float64", "complex64", "complex128")

def _source(*functions):
    """The source of ``functions`` as a snippet defines them (their own text, so the
    snippet's check is the runner's, never a copy that could drift from it)."""
    return "\n\n" + "\n\n".join(textwrap.dedent(inspect.getsource(f)) for f in functions)


#: the checking helpers pasted into snippets: compare.py's own rules, in plain NumPy.
HELPERS = {
    "to_numpy": _source(compare.to_numpy),
    "values_bad": _source(compare._real_bad, compare._values_bad) + '''

def values_bad(a, e, rtol, atol, signed_zeros, measure="normwise"):
    if a.dtype.kind in "biu" and e.dtype.kind in "biu":
        return a != e
    return _values_bad(a, e, rtol, atol, signed_zeros, measure)
''',
    "dtype_name": _source(compare.dtype_name),
}


class Unrepresentable(Exception):
    """A value the snippet cannot write as a literal."""


def helper_functions(name):
    """The functions of ``HELPERS[name]`` as a dict (what a snippet defines), for tests."""
    ns = {"np": np}
    exec(HELPERS[name], ns)  # noqa: S102 -- our own constant source
    return {k: v for k, v in ns.items() if callable(v) and k != "np"}


def _parts(out):
    """``(accessor, value)`` of a result and, for a tuple result, of each element."""
    yield "", out
    if isinstance(out, (tuple, list)):
        for i, v in enumerate(out):
            yield f"[{i}]", v


def _same_numpy(value, actual, where):
    """Whether ``value`` (``[where]``), converted to NumPy, is ``actual`` byte for byte."""
    try:
        got = np.asarray(to_numpy(value))
        if where is not None:
            got = got[where]
    except Exception:  # noqa: BLE001 -- not comparable: not the compared value
        return False
    a = np.asarray(actual)
    return (got.dtype == a.dtype and got.shape == a.shape
            and np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(a).tobytes())


def find_call(spec_name, err, calls):
    """``(index, accessor)`` of the recorded call whose result the failing check compared
    (see the module docstring), or ``(None, reason)``."""
    if not isinstance(err, AssertionError):
        for i in range(len(calls) - 1, -1, -1):
            if calls[i].error is err:
                return i, ""
        return None, f"the {type(err).__name__} was not raised by a namespace call"
    if not isinstance(err, ConformanceError) or err.check is None:
        return None, "the failing check is the spec's own (no oracle value recorded)"
    own = [i for i, c in enumerate(calls) if c.path == spec_name and c.error is None]
    if not own:
        return None, (f"no namespace call of {spec_name} was recorded (operators and array "
                      "methods are not recorded)")
    for i in reversed(own):
        for accessor, value in _parts(calls[i].out):
            if value is err.actual:
                return i, accessor
            if err.check == "values" and _same_numpy(value, err.actual, err.where):
                return i, accessor
    return None, (f"the compared value is not the result of a {spec_name} call (the spec "
                  "derived it from the result)")


class _Writer:
    """Writes values as Python source: literals, or recorded calls that produced them."""

    def __init__(self, xp, calls):
        self.xp, self.calls = xp, calls
        self.lines = []  # assignments of array literals, in order
        self.count = 0
        self.memo = {}

    # ---- literals ------------------------------------------------------------------------
    def array(self, x, name=None, into=None):
        """A variable holding NumPy array ``x`` exactly, assigned in ``into`` (default:
        ``self.lines``)."""
        into = self.lines if into is None else into
        x = np.asarray(x)
        if name is None:
            self.count += 1
            name = f"x{self.count}"
        shape = tuple(int(n) for n in x.shape)
        if x.dtype.kind in "fc":
            data = np.ascontiguousarray(x).tobytes().hex()
            src = (f'np.frombuffer(bytes.fromhex("{data}"), dtype="{x.dtype.str}")'
                   f".reshape({shape!r}).copy()")
            shown = " ".join(np.array2string(x, threshold=12, edgeitems=3,
                                             max_line_width=10**6).split())
            if len(shown) > 90:
                shown = shown[:87] + "..."
            into.append(f"{name} = {src}  # {shown}")
        elif x.dtype.kind in "biu":
            into.append(f"{name} = np.array({x.tolist()!r}, dtype={x.dtype.name!r})"
                              + (f".reshape({shape!r})" if x.size == 0 else ""))
        else:
            raise Unrepresentable(f"an array of dtype {x.dtype}")
        return name

    def scalar(self, v):
        """Source of a Python or NumPy scalar, exactly."""
        if isinstance(v, (bool, np.bool_)):
            return repr(bool(v)) if isinstance(v, bool) else f"np.bool_({bool(v)!r})"
        if isinstance(v, int):
            return repr(v)
        if isinstance(v, float):
            if math.isnan(v):
                return 'float("nan")'
            if math.isinf(v):
                return 'float("inf")' if v > 0 else 'float("-inf")'
            return repr(v)
        if isinstance(v, complex):
            return f"complex({self.scalar(v.real)}, {self.scalar(v.imag)})"
        if isinstance(v, np.integer):
            return f"np.{v.dtype.name}({int(v)!r})"
        if isinstance(v, (np.floating, np.complexfloating)):
            data = np.asarray(v).tobytes().hex()
            return f'np.frombuffer(bytes.fromhex("{data}"), dtype="{v.dtype.str}")[0]'
        raise Unrepresentable(type(v).__name__)

    # ---- any argument ----------------------------------------------------------------------
    def expr(self, v, before):
        """Source of argument ``v`` of the call at index ``before``."""
        if isinstance(v, Calls):
            return f"xp.{v._path}" if v._path else "xp"
        if v is None or v is Ellipsis or isinstance(v, str):
            return repr(v)
        if isinstance(v, (bool, int, float, complex, np.generic)):
            return self.scalar(v)
        if isinstance(v, slice):
            return (f"slice({self.expr(v.start, before)}, {self.expr(v.stop, before)}, "
                    f"{self.expr(v.step, before)})")
        if isinstance(v, (tuple, list)) and not hasattr(v, "_fields"):
            items = [self.expr(e, before) for e in v]
            if isinstance(v, list):
                return "[" + ", ".join(items) + "]"
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if isinstance(v, dict) and all(isinstance(k, str) for k in v):
            return "{" + ", ".join(f"{k!r}: {self.expr(e, before)}" for k, e in v.items()) + "}"
        if isinstance(v, (type, np.dtype)) or not (hasattr(v, "shape") and
                                                   hasattr(v, "dtype")):
            name = self.dtype(v)
            if name is not None:
                return f"xp.{name}"
            if self.is_default_device(v):
                return "xp.__array_namespace_info__().default_device()"
            raise Unrepresentable(f"an argument of type {type(v).__name__}")
        # an array: the call that returned it, else its values
        for j in range(before - 1, -1, -1):  # an earlier call returned it
            c = self.calls[j]
            if c.error is None:
                for accessor, part in _parts(c.out):
                    if part is v:
                        return self.call(j) + accessor
        if isinstance(v, np.ndarray):
            return self.array(v)
        try:
            values = np.asarray(to_numpy(v))
        except Exception as exc:  # noqa: BLE001
            raise Unrepresentable(f"an array of type {type(v).__name__}") from exc
        return f"xp.asarray({self.array(values)})"


    def dtype(self, v):
        """The name under which ``xp`` holds dtype ``v`` (``"float32"``), or None."""
        for name in DTYPE_NAMES:
            obj = getattr(self.xp, name, None)
            if obj is not None and obj is v:
                return name
        for name in DTYPE_NAMES:
            obj = getattr(self.xp, name, None)
            try:
                if obj is not None and bool(obj == v):
                    return name
            except Exception:  # noqa: BLE001,S112 -- incomparable: not this dtype
                continue
        return None

    def is_default_device(self, v):
        """Whether ``v`` is ``xp``'s default device."""
        try:
            return bool(v == self.xp.__array_namespace_info__().default_device())
        except Exception:  # noqa: BLE001
            return False

    def call(self, i):
        """Source of recorded call ``i``: ``xp.path(args...)``."""
        if i not in self.memo:
            c = self.calls[i]
            args = [self.expr(a, i) for a in c.args]
            args += [f"{k}={self.expr(v, i)}" for k, v in c.kwargs.items()]
            self.memo[i] = f"xp.{c.path}({', '.join(args)})"
        return self.memo[i]


def _check_lines(fn, err, accessor, w):
    """``(helpers, oracle, check)``: the helper functions the check uses, lines assigning
    the oracle's values, and the final check of a value, dtype or shape failure (``out``
    holds the result)."""
    value = f"out{accessor}"
    if err.check == "dtype":
        return [HELPERS["dtype_name"]], [], [
            f"got = dtype_name({value})",
            f"assert got == {err.expected!r}, "
            f"f\"{fn}: result dtype {{got}}, expected {err.expected}\""]
    if err.check == "shape":
        return [], [], [f"assert tuple({value}.shape) == {err.expected!r}, "
                        f"f\"{fn}: result shape {{tuple({value}.shape)}}, expected "
                        f"{err.expected!r}\""]
    oracle = []
    actual = f"to_numpy({value})"
    if err.where is not None:
        actual += f"[{w.array(np.asarray(err.where, bool), 'where', oracle)}]"
    w.array(np.asarray(err.expected), "expected", oracle)
    d = err.details
    check = [f"actual = {actual}",
             "assert actual.shape == expected.shape, "
             f"f\"{fn}: result shape {{actual.shape}}, expected {{expected.shape}}\""]
    helpers = [HELPERS["to_numpy"], HELPERS["values_bad"]]
    rtol, atol = (w.array(np.asarray(t, np.float64), n, oracle) if np.ndim(t) else
                  w.scalar(float(t)) for t, n in ((d["rtol"], "rtol"), (d["atol"], "atol")))
    check.append(f"bad = values_bad(actual, expected, rtol={rtol}, atol={atol}, "
                 f"signed_zeros={bool(d.get('signed_zeros', True))}, "
                 f"measure={d.get('measure', 'normwise')!r})")
    check.append(f"assert not bad.any(), (f\"{fn}: {{int(bad.sum())}} of {{bad.size}} values "
                 f"differ: got {{actual[bad][:3]!r}}, expected {{expected[bad][:3]!r}}\")")
    return helpers, oracle, check


def reproduction(xp, namespace_label, spec_name, err, calls):
    """``(source, "")``: a self-contained snippet reproducing the failure ``err`` of spec
    ``spec_name`` from its example's recorded ``calls`` -- or ``(None, reason)`` when there
    is none (see the module docstring for what is covered)."""
    index, accessor = find_call(spec_name, err, calls)
    if index is None:
        return None, accessor
    w = _Writer(xp, calls)
    failed = isinstance(err, AssertionError)
    try:
        call = w.call(index)
        helpers, oracle, check = _check_lines(spec_name, err, accessor, w) if failed else \
            ([], [], [])
    except Unrepresentable as exc:
        return None, f"{exc} has no literal form"
    head = ["import importlib", "", "import numpy as np", ""]
    for helper in helpers:
        head += [helper.strip(), ""]
    body = [""] + w.lines
    if not failed:
        message = " ".join(f"{type(err).__name__}: {err}".split())[:200]
        body += [f"out = {call}  # raised {message}"]
    else:
        body.append(f"out = {call}")
        if oracle:
            body += ["", "# the oracle's value" + (" at the elements the spec compares"
                                                  if err.where is not None else "")]
            body += oracle
        body += [""] + check
    why = _fails_alike("\n".join(head + body), xp, err)
    if why:
        return None, why
    source = "\n".join(head + [f"xp = importlib.import_module({namespace_label!r})"] + body)
    return source, ""


def _fails_alike(source, xp, err):
    """Why ``source`` (the snippet less its import of the namespace), run here on ``xp``,
    does not fail as the spec did (an ``AssertionError``; an exception of ``err``'s type),
    or ``""``.  It would not where the spec wrote into an input after creating it (writes
    are not recorded) or where a call is not deterministic."""
    want = AssertionError if isinstance(err, AssertionError) else type(err)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(source, "<reproduction>", "exec"), {"xp": xp})  # noqa: S102
    except want:
        return ""
    except Exception as exc:  # noqa: BLE001
        return (f"the written-out call raised {type(exc).__name__} here, not "
                f"{want.__name__} (the spec's example is not a plain call)")
    return ("the written-out call passed here (an input written to after its creation? "
            "writes are not recorded)")
