"""Specs: one per public function, each a hypothesis check of a namespace against an oracle.

A :class:`Spec` has a ``check(xp, data)`` that draws inputs with hypothesis' ``data``
object, calls the function in namespace ``xp``, and raises :class:`ConformanceError` on a
mismatch.  The same specs drive the pytest suite and ``python -m laxarray.conformance``.

Factories build the common shapes of spec (unary and binary elementwise functions) from
a row of data: the oracle, the dtype group, an optional input domain, the tolerance and
the expected result dtype rule.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from hypothesis import strategies as st

from laxarray.conformance import strategies as S
from laxarray.conformance.compare import (ConformanceError, assert_dtype, assert_shape,
                                          assert_values, to_numpy)
from laxarray.conformance.flushing import Calls, Draws, passes_flushed


@dataclass(frozen=True)
class Spec:
    """A conformance check for one public name: ``body(xp, data)`` draws one example, calls
    the namespace and raises :class:`ConformanceError` on a mismatch."""

    name: str
    body: Callable  # (xp, data) -> None
    dtypes: tuple = ()
    extension: str | None = None
    kind: str = "function"
    notes: str = ""
    tags: tuple = field(default_factory=tuple)
    #: the spec writes into arrays of the namespace (``x[k] = v``): on a namespace whose
    #: arrays are immutable the runner reports it "unsupported" instead of running it
    needs_mutation: bool = False

    def check(self, xp, data, drawn=None, calls=None):
        """Check one example drawn from hypothesis' ``data`` on namespace ``xp``; the
        ``(label, value)`` of each draw is appended to the list ``drawn`` when given, and
        each namespace call, as a :class:`~laxarray.conformance.flushing.Call`, to the list
        ``calls`` when given.

        A failing example passes if the namespace computes as a flush-to-zero platform
        does: see :mod:`laxarray.conformance.flushing` (one rule for every spec).
        """
        draws, results = Draws(data, drawn), []
        try:
            self.body(Calls(xp, results, log=calls), draws)
        except AssertionError:
            if not passes_flushed(self.body, xp, draws.values, results, data):
                raise


SPECS: dict[str, Spec] = {}

_MUTABLE = contextvars.ContextVar("laxarray_conformance_mutable", default=True)


def arrays_mutable():
    """Whether the namespace being checked writes into its arrays (``x[k] = v``); the
    runner sets it per namespace (:func:`mutable_arrays`).  Checks that observe copies by
    writing into a namespace array (``asarray(copy=True)``) are left out where it is
    False: without writes, a copy and a view cannot be told apart."""
    return _MUTABLE.get()


@contextlib.contextmanager
def mutable_arrays(flag):
    """Within this block :func:`arrays_mutable` returns ``flag``."""
    token = _MUTABLE.set(bool(flag))
    try:
        yield
    finally:
        _MUTABLE.reset(token)


def register(spec: Spec) -> Spec:
    """Add ``spec`` to the registry (one spec per name)."""
    if spec.name in SPECS:
        raise ValueError(f"register: duplicate spec for {spec.name!r}")
    SPECS[spec.name] = spec
    return spec


def resolve(xp, name):
    """The callable ``name`` (``"linalg.inv"`` style dotted names allowed) in namespace ``xp``."""
    obj = xp
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def xp_dtype(xp, name):
    """The dtype object ``name`` of namespace ``xp``."""
    return getattr(xp, name)


def as_xp(xp, arr: np.ndarray):
    """``arr`` in namespace ``xp`` with the same dtype."""
    return xp.asarray(arr, dtype=xp_dtype(xp, arr.dtype.name))


# ---- expected dtype rules -------------------------------------------------------------------
def same_dtype(*names):
    return names[0] if len(names) == 1 else np.promote_types(*names).name


def bool_result(*names):
    return "bool"


def real_of(*names):
    dt = np.dtype(same_dtype(*names))
    return dt.name if dt.kind != "c" else np.dtype(f"float{dt.itemsize * 4}").name


#: pairs drawn for binary specs: same kind only, pairs the standard's table defines.
def promotable_pairs(group):
    names = S.DTYPE_GROUPS[group]
    pairs = []
    for a in names:
        for b in names:
            ka, kb = np.dtype(a).kind, np.dtype(b).kind
            if ka == kb or {ka, kb} == {"f", "c"}:
                pairs.append((a, b))
            elif {ka, kb} == {"i", "u"}:
                u = a if ka == "u" else b
                if u != "uint64":
                    pairs.append((a, b))
    return tuple(pairs)


def _draw_array(data, dtype, shape, domain, label="x"):
    kwargs = domain(dtype) if domain else {}
    return data.draw(S.arrays(dtype, shape, **kwargs), label=label)


def _tols(dtype, rtol, atol, ctol):
    if ctol is not None and np.dtype(dtype).kind == "c":
        return ctol
    return rtol, atol


def _free_signs(masks, *arrays):
    """``arrays`` (complex) with the real/imaginary parts selected by ``masks`` made
    non-negative: the standard leaves those signs unspecified."""
    re_free, im_free = masks
    out = []
    for arr in arrays:
        arr = np.array(arr, copy=True)
        if arr.dtype.kind == "c":
            shape = arr.shape
            re = np.where(np.broadcast_to(re_free, shape), np.abs(arr.real), arr.real)
            im = np.where(np.broadcast_to(im_free, shape), np.abs(arr.imag), arr.imag)
            arr = _complex(re, im, arr.dtype)
        out.append(arr)
    return out


def _complex(re, im, dtype):
    out = np.empty(re.shape, dtype)
    out.real, out.imag = re, im
    return out


def unary(name, oracle, group, *, result=same_dtype, domain=None, rtol=0.0, atol=0.0,
          ctol=None, signed_zeros=True, postfilter=None, sign_free=None):
    """Spec of ``name(x)`` against NumPy ``oracle`` over dtypes of ``group``.

    ``domain(dtype) -> dict`` restricts values (``min_value``, ``finite``...);
    ``postfilter(x, expected) -> mask`` excludes elements where the standard leaves the
    result unspecified; ``sign_free(x) -> (real_mask, imag_mask)`` marks complex result
    parts whose sign the standard leaves unspecified (compared by magnitude).  ``rtol``/``atol`` are in ulps of the result's dtype; ``ctol``, an
    ``(rtol, atol)`` pair, replaces them for complex inputs (complex results compare
    normwise, see :func:`~laxarray.conformance.compare.assert_values`).
    """
    def check(xp, data):
        dtype = data.draw(S.dtypes(group), label="dtype")
        shape = data.draw(S.shapes(), label="shape")
        x = _draw_array(data, dtype, shape, domain)
        with np.errstate(all="ignore"):
            expected = np.asarray(oracle(x))
        out = resolve(xp, name)(as_xp(xp, x))
        assert_dtype(name, out, result(dtype))
        assert_shape(name, out, shape)
        got = to_numpy(out)
        if sign_free is not None and x.dtype.kind == "c":
            got, expected = _free_signs(sign_free(x), got, expected)
        keep = None
        if postfilter is not None:
            keep = postfilter(x, expected)
            got, expected = got[keep], expected[keep]
        _compare(name, got, expected, *_tols(dtype, rtol, atol, ctol), signed_zeros, keep)
    return register(Spec(name, check, S.DTYPE_GROUPS[group], kind="elementwise"))


def _compare(name, got, expected, rtol, atol, signed_zeros, keep=None):
    """``assert_values``; ``keep``: the boolean selection of the result that ``got`` and
    ``expected`` hold, recorded on a failure (for the runner's reproduction)."""
    if expected.dtype.kind == got.dtype.kind:
        expected = expected.astype(got.dtype, copy=False)
    try:
        assert_values(name, got, expected, rtol_ulps=rtol, atol_ulps=atol,
                      signed_zeros=signed_zeros)
    except ConformanceError as exc:
        if keep is not None and exc.where is None:
            exc.where = np.array(keep, dtype=bool)
        raise


#: how the second operand of a binary elementwise spec meets the first one's special values
#: (floating operands): "off" leaves it as drawn; "same" puts x1's special values (NaN,
#: infinities, zeros) at the same positions of x2, "negated" their negations (inf meets -inf,
#: +0 meets -0).
MIRRORS = ("off", "same", "negated")


def _draw_mirror(data, d1, d2):
    """A :data:`MIRRORS` mode for floating operands, None otherwise (nothing drawn)."""
    if np.dtype(d1).kind not in "fc" or np.dtype(d2).kind not in "fc":
        return None
    mode = data.draw(st.sampled_from(MIRRORS), label="mirror specials")
    return None if mode == "off" else mode


def _allowed(values, kwargs):
    """Where ``values`` (real) lie in the domain ``kwargs`` (``finite``, ``min_value``,
    ``max_value``) of :func:`~laxarray.conformance.strategies.arrays`."""
    ok = np.ones(values.shape, bool)
    with np.errstate(invalid="ignore"):
        if kwargs.get("finite"):
            ok &= np.isfinite(values)
        if kwargs.get("min_value") is not None:
            ok &= values >= kwargs["min_value"]
        if kwargs.get("max_value") is not None:
            ok &= values <= kwargs["max_value"]
    return ok


def _mirror_specials(x1, x2, mode, domain2):
    """``x2`` with the special values (NaN, infinities, zeros) of ``x1`` -- negated if
    ``mode`` is ``"negated"`` -- at the positions of the broadcast result where ``x1`` has
    them: NaN meets NaN, inf meets inf (or -inf), +0 meets +0 (or -0).  Values outside
    ``x2``'s domain are left as drawn.  A 0-d ``x2`` takes ``x1``'s first special value."""
    out_shape = np.broadcast_shapes(x1.shape, x2.shape)
    if not math.prod(out_shape) or not x1.size:
        return x2
    if x2.ndim == 0:
        view = x1.reshape(-1)
        specials = _is_special(view)
        if not specials.any():
            return x2
        view = view[np.argmax(specials)].reshape(())
    else:
        # the elements of x1 that meet x2's elements (index 0 along x2's broadcast axes)
        b1 = np.broadcast_to(x1, out_shape)
        lead = len(out_shape) - x2.ndim
        sel = (0,) * lead + tuple(slice(0, 1) if n2 == 1 else slice(None)
                                  for n2 in x2.shape)
        view = b1[sel]
    if mode == "negated":
        view = -view
    if x2.dtype.kind != "c" and view.dtype.kind == "c":
        view = view.real
    with np.errstate(all="ignore"):
        cast = view.astype(x2.dtype)
    parts = [cast.real, cast.imag] if cast.dtype.kind == "c" else [cast]
    kwargs = domain2(x2.dtype.name) if domain2 else {}
    ok = _is_special(view) & np.logical_and.reduce([_allowed(p, kwargs) for p in parts])
    return np.where(ok, cast, x2)


def _is_special(x):
    """Where ``x`` (floating) is NaN, infinite or zero (complex: in either part)."""
    with np.errstate(invalid="ignore"):
        return ~np.isfinite(x) | (x.real == 0) | (x.imag == 0 if x.dtype.kind == "c" else False)


def binary(name, oracle, group, *, result=same_dtype, domain=None, domain2=None, rtol=0.0,
           atol=0.0, ctol=None, signed_zeros=True, scalars=True, postfilter=None, pairs=None):
    """Spec of ``name(x1, x2)`` with broadcasting and (if ``scalars``) Python-scalar operands.

    ``domain2`` restricts ``x2`` (default: ``domain``); ``postfilter(x1, x2, expected)``
    gets the operands broadcast to the result shape; ``ctol`` may be a function of them
    too, returning per-element ulps; other arguments as for :func:`unary`.
    """
    pairs = pairs or promotable_pairs(group)
    domain2 = domain2 or domain

    def check(xp, data):
        d1, d2 = data.draw(S.by_kind(pairs, key=lambda p: S.kind_class(p[0])),
                           label="dtypes")
        shape1 = data.draw(S.shapes(), label="shape1")
        shape2 = data.draw(S.broadcastable_shapes(shape1), label="shape2")
        if data.draw(st.booleans(), label="swap"):
            shape1, shape2 = shape2, shape1
        x1 = _draw_array(data, d1, shape1, domain)
        use_scalar = scalars and data.draw(st.booleans(), label="scalar x2")
        mirror = _draw_mirror(data, d1, d1 if use_scalar else d2)
        if use_scalar:
            d2 = d1
            x2 = _draw_array(data, d2, (), domain2, "x2")[()]
            if mirror:
                x2 = _mirror_specials(x1, np.asarray(x2), mirror, domain2)[()]
            pyscalar = x2.item()
            arg2 = pyscalar
            x2 = np.asarray(pyscalar, dtype=d1)
            if np.dtype(d1).kind in "iu" and isinstance(pyscalar, bool):
                arg2 = int(pyscalar)
        else:
            x2 = _draw_array(data, d2, shape2, domain2, "x2")
            if mirror:
                x2 = _mirror_specials(x1, x2, mirror, domain2)
            arg2 = as_xp(xp, x2)
        with np.errstate(all="ignore"):
            expected = np.asarray(oracle(x1, x2))
        out = resolve(xp, name)(as_xp(xp, x1), arg2)
        assert_dtype(name, out, result(d1, d2))
        assert_shape(name, out, np.broadcast_shapes(x1.shape, x2.shape))
        got = to_numpy(out)
        b1, b2 = np.broadcast_to(x1, expected.shape), np.broadcast_to(x2, expected.shape)
        tols = _tols(np.result_type(x1.dtype, x2.dtype), rtol, atol, ctol)
        if callable(tols):
            tols = [np.broadcast_to(t, expected.shape) for t in tols(b1, b2)]
        keep = None
        if postfilter is not None:
            keep = postfilter(b1, b2, expected)
            got, expected = got[keep], expected[keep]
            tols = [t[keep] if np.ndim(t) else t for t in tols]
        _compare(name, got, expected, *tols, signed_zeros, keep)
    return register(Spec(name, check, S.DTYPE_GROUPS[group], kind="elementwise"))


__all__ = ["Spec", "SPECS", "register", "arrays_mutable", "mutable_arrays", "unary", "binary",
           "ConformanceError", "resolve", "as_xp", "same_dtype", "bool_result", "real_of",
           "promotable_pairs"]
