"""Flush-to-zero platforms: one rule for every spec, applied when an example fails.

XLA on CPU reads subnormal floats as zeros of the same sign and writes zeros where a result
would be subnormal (so do GPUs by default).  Rather than each spec computing a second,
"flushed" expectation, :func:`passes_flushed` gives every spec the same second chance: the
failing example runs again on the same draws with every subnormal replaced by a zero of its
sign, comparing with the oracle's subnormal results flushed too
(:func:`~laxarray.conformance.compare.flushed_results`).  The example passes only if that
replay passes **and** every namespace call of the replay returned, up to flushing, what it
returned on the original draws (calls whose results a passing value check verified there
excepted) -- so a namespace that mishandles subnormals otherwise than by reading them as zeros
still fails.  A spec that checks several things in turn (``astype`` to
every dtype) stops at the first failure; its replay goes on past it with fresh draws, flushed.
"""

from __future__ import annotations

import copy
import math
import types

import numpy as np

from .compare import (flush_subnormals, flushed_results, to_numpy,
                                          value_checks_passed)


class Draws:
    """A proxy of hypothesis' ``data`` object that keeps a copy of every value drawn, as
    ``(label, value)`` pairs in ``drawn`` (the runner's report reads the same list)."""

    def __init__(self, data, drawn=None):
        self._data = data
        self.drawn = [] if drawn is None else drawn

    def draw(self, strategy, label=None):
        """Draw through the real ``data`` object and record a copy of the value."""
        value = self._data.draw(strategy, label=label)
        self.drawn.append((label or f"draw {len(self.drawn) + 1}", _copy(value)))
        return value

    @property
    def values(self):
        """The values drawn so far, in order."""
        return [value for _, value in self.drawn]


class _Replay:
    """A stand-in for ``data`` that returns the recorded draws, subnormals flushed; past
    them (the original example stopped at its failure) it draws afresh from ``data``,
    flushed too."""

    def __init__(self, values, data):
        self._tiny = scalar_tiny(values)
        self._values = [flush_value(v, self._tiny) for v in values]
        self._next = 0
        self._data = data

    def draw(self, strategy, label=None):
        if self._next >= len(self._values):
            return flush_value(self._data.draw(strategy, label=label), self._tiny)
        value = self._values[self._next]
        self._next += 1
        return _copy(value)


class Call:
    """One recorded namespace call: ``path`` (``"linalg.solve"``, ``"add.at"``), the
    arguments as passed (wrapped functions as :class:`Calls`), and ``out`` -- or ``error``,
    the exception it raised.  Arguments are kept by reference, not copied: an argument the
    spec writes to after the call (``x[...] = v``) is seen with the written values."""

    __slots__ = ("path", "args", "kwargs", "out", "error")

    def __init__(self, path, args, kwargs, out=None, error=None):
        self.path, self.args, self.kwargs, self.out, self.error = path, args, kwargs, out, error

    def __repr__(self):
        return f"Call({self.path!r}, {len(self.args)} args, {sorted(self.kwargs)})"


class Calls:
    """A proxy of a namespace (or of a function's attributes) that records every result.

    Modules (``linalg``, ``fft``; ``types.SimpleNamespace`` too) and callables other than
    classes are wrapped, one wrapper per object (so aliases stay identical); dtypes,
    constants and classes are returned as they are, so ``isinstance`` checks still work.
    A wrapped function passed back to the namespace (``mask_indices(n, xp.tril)``) is
    passed unwrapped.

    With ``reform`` (:class:`~laxarray.conformance.signatures.Reform`), each call is made
    in the form it gives (the spec's own function's, in the form drawn for the example)
    and recorded so.  With a list ``log``, each call is also recorded there as a :class:`Call` with its
    dotted ``path`` from the namespace (the name it was first reached by), its arguments and
    its result or exception: the runner builds self-contained reproductions from it.  Only
    what is reached through the namespace is recorded: functions, ``linalg.*``/``fft.*``,
    methods of namespace attributes (``add.at``).  Operators and methods of the arrays
    (``x + y``, ``x[k]``, ``x[k] = v``, ``x.T``), and methods of returned objects
    (``info.dtypes()``) are not calls of the namespace and are not recorded.
    """

    def __init__(self, target, results, wrappers=None, *, log=None, path="", reform=None):
        self._target = target
        self._reform = reform
        self._results = results
        self._wrappers = {} if wrappers is None else wrappers
        self._log = log
        self._path = path

    def __getattr__(self, name):
        attr = getattr(self._target, name)
        if isinstance(attr, (types.ModuleType, types.SimpleNamespace)) or (
                callable(attr) and not isinstance(attr, type)):
            wrapper = self._wrappers.get(id(attr))
            if wrapper is None or wrapper._target is not attr:
                path = f"{self._path}.{name}" if self._path else name
                wrapper = self._wrappers[id(attr)] = Calls(attr, self._results, self._wrappers,
                                                           log=self._log, path=path,
                                                           reform=self._reform)
            return wrapper
        return attr

    def __call__(self, *args, **kwargs):
        if self._reform is not None:
            args, kwargs = self._reform(self._path, args, kwargs)
        try:
            out = self._target(*[_unwrap(a) for a in args],
                               **{k: _unwrap(v) for k, v in kwargs.items()})
        except Exception as exc:
            if self._log is not None:
                self._log.append(Call(self._path, args, kwargs, error=exc))
            raise
        self._results.append((value_checks_passed(), out))
        if self._log is not None:
            self._log.append(Call(self._path, args, kwargs, out))
        return out


def _unwrap(value):
    if isinstance(value, Calls):
        return value._target
    if isinstance(value, (list, tuple)) and any(isinstance(v, Calls) for v in value):
        return type(value)(_unwrap(v) for v in value)
    return value


def passes_flushed(body, xp, values, results, data, reform=None):
    """Whether ``body(xp, data)`` passes on the draws ``values`` with subnormals flushed, its
    namespace calls returning what ``results`` (the original example's calls, as recorded by
    :class:`Calls`; call this right after the failure) held, flushed.

    Draws past ``values`` come from ``data``, flushed: a spec checking several things in
    turn goes on past the check the original example failed.  A call that a passing value
    check followed in the original was verified on the original draws (``astype`` of a
    subnormal to bool: True, as NumPy), so only the calls after the last passing check must
    agree with the replay.  ``reform(data)``: the form its calls are made in
    (:class:`~laxarray.conformance.signatures.Reform` over the replayed draws: the
    original's form)."""
    failed_at = value_checks_passed()
    replayed = []
    try:
        with flushed_results(), np.errstate(all="ignore"):
            draws = _Replay(values, data)
            body(Calls(xp, replayed, reform=None if reform is None else reform(draws)),
                 draws)
    except Exception:  # noqa: BLE001 -- any failure of the replay keeps the original error
        return False
    if len(replayed) < len(results):
        return False
    return all(_same_flushed(a, b) for (mark, a), (_, b) in zip(results, replayed)
               if mark == failed_at)


def scalar_tiny(values):
    """The smallest normal magnitude with which the Python floats among ``values`` are read:
    float32's where a drawn array or a drawn dtype is float32 or complex64 (a Python scalar
    takes the dtype of the array it meets, or the one a function is asked for, so a float
    normal in float64 can be a float32 subnormal there), else float64's."""
    def single(v):
        if isinstance(v, np.ndarray):
            return v.dtype in (np.float32, np.complex64)
        if isinstance(v, (str, np.dtype)):  # a drawn dtype: the result's, which a
            try:                             # Python scalar argument is read in
                return np.dtype(v) in (np.float32, np.complex64)
            except TypeError:
                return False
        if isinstance(v, (tuple, list)):
            return any(map(single, v))
        if isinstance(v, dict):
            return any(map(single, v.values()))
        return False
    return float(np.finfo(np.float32 if any(map(single, values)) else np.float64).tiny)


def _flush_float(v, tiny):
    return math.copysign(0.0, v) if 0 < abs(v) < tiny else v


def flush_value(value, tiny=None):
    """``value`` (an array, NumPy or Python scalar, or a tuple/list/dict of them) with
    subnormal floating values replaced by zeros of the same sign.  ``tiny``: the smallest
    normal magnitude for Python floats (:func:`scalar_tiny`; float64's when None)."""
    if isinstance(value, np.ndarray):
        return flush_subnormals(value) if value.dtype.kind in "fc" else value
    if isinstance(value, (np.floating, np.complexfloating)):
        return flush_subnormals(np.asarray(value))[()]
    if isinstance(value, (float, complex)) and not isinstance(value, bool):
        value = type(value)(flush_subnormals(np.asarray(value))[()])
        if tiny is None:
            return value
        if isinstance(value, complex):
            return complex(_flush_float(value.real, tiny), _flush_float(value.imag, tiny))
        return _flush_float(value, tiny)
    if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
        return type(value)(flush_value(v, tiny) for v in value)
    if isinstance(value, dict):
        return {k: flush_value(v, tiny) for k, v in value.items()}
    return value


def _copy(value):
    try:
        return copy.deepcopy(value)
    except Exception:  # noqa: BLE001 -- an uncopyable draw is kept as it is
        return value


def _same_flushed(a, b):
    """Whether two call results agree once subnormals are flushed (NaN equals NaN)."""
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same_flushed(x, y) for x, y in zip(a, b))
    if not (hasattr(a, "shape") and hasattr(a, "dtype")):
        return True  # not an array (a dtype, an info object, a Python value): not compared
    try:
        x, y = np.asarray(to_numpy(a)), np.asarray(to_numpy(b))
    except Exception:  # noqa: BLE001 -- not convertible to NumPy: not compared
        return True
    if x.shape != y.shape or x.dtype != y.dtype:
        return False
    x, y = flush_subnormals(x), flush_subnormals(y)
    return bool(np.array_equal(x, y, equal_nan=x.dtype.kind in "fc"))
