"""The dtypes of the device under test: which ones a run draws, and which it expects.

The standard lets a conforming library support a subset of its dtypes per device, and
report them: ``__array_namespace_info__().dtypes(device=d)`` lists the dtypes of ``d``,
``default_dtypes(device=d)`` its default real floating, complex floating, integral and
indexing dtypes (laxarray's TPU record lists no float64 or complex128, and indexes in
int32).  :func:`probe` reads both for the run's device -- the device a run targets
(``--device``), else the namespace's default device -- into a :class:`Profile`; the runner
makes it current for the specs (:func:`using`), which draw only its dtypes
(:func:`~laxarray.conformance.spec.excluding_dtypes`; :func:`available` and
:func:`narrowed` for the specs that list dtypes themselves) and read from it every dtype
the standard leaves to the defaults:

- :func:`default`: the index dtype of ``argsort``, ``argmax``, ``nonzero``,
  ``searchsorted``, ``count_nonzero``, the ``unique_*`` counts and indices (and of the
  index arrays the specs pass); the default integer of ``sum``, ``prod``,
  ``cumulative_sum`` and ``linalg.trace`` of small integers and of ``linalg.matrix_rank``
  (the default *unsigned* integer, for unsigned inputs, is the unsigned type of the default
  integer's width); the default real floating dtype of ``fftfreq`` and of integer input to
  the norms (the creation specs read the namespace's defaults themselves);
- :func:`result_type`: the standard's promotion table (:mod:`.promotion`), on the device.
  Where the table's result is a dtype the device lacks (``int32`` with ``uint32`` is
  ``int64``), the standard states nothing -- its table presumes every dtype -- so the
  implementation decides.  The one answer accepted is the device's widest dtype of the
  table result's kind (int32 for int64, float32 for float64, complex64 for complex128),
  and only where the namespace's own ``result_type`` gives it for that pair (read by
  :func:`probe`): a function's result dtype must then agree with the namespace's declared
  promotion, which is what the standard's ``result_type`` is for.  Anything else (the
  namespace promotes to another dtype, or its ``result_type`` raises) keeps the table's
  answer, so a result that disagrees fails with it.

The NumPy-surface specs (extension ``"numpy"``) draw only the device's dtypes too, but
still expect NumPy's result dtypes (its int64 indices, its float64 of integer input).

Outside a run (a spec called directly, as ``tests/conformance`` does), and for a
namespace without an inspection API or whose ``dtypes()``/``default_dtypes()`` raise, the
profile is :data:`FULL`: the 13 dtypes and 64-bit defaults, what the runner assumed before
it read devices.

>>> FULL.defaults["indexing"], FULL.missing()
('int64', ())
>>> p = Profile(frozenset(("int32", "uint32", "float32")),
...             dict(FULL.defaults, integral="int32", indexing="int32"),
...             {("int32", "uint32"): "int32"})
>>> with using(p):
...     default("indexing"), default("unsigned"), result_type("int32", "uint32")
('int32', 'uint32', 'int32')
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from dataclasses import dataclass, field

import numpy as np

from . import promotion, strategies as S
from .compare import dtype_name

#: the kinds of ``default_dtypes()``
KINDS = ("real floating", "complex floating", "integral", "indexing")


@dataclass(frozen=True)
class Profile:
    """The dtypes of one device: ``dtypes`` (names), ``defaults`` (``{kind: name}`` for
    :data:`KINDS`), ``promotions`` (``{(a, b): name}``: the namespace's ``result_type`` of
    pairs of the device's dtypes, read only where the device lacks some dtype:
    :meth:`fit` consults it) and ``device`` (the device read: the run's, else the
    namespace's default device; None where it names none)."""

    dtypes: frozenset = frozenset(S.ALL)
    defaults: dict = field(default_factory=lambda: {
        "real floating": "float64", "complex floating": "complex128",
        "integral": "int64", "indexing": "int64"})
    promotions: dict = field(default_factory=dict)
    device: object = None

    def missing(self):
        """The names of :data:`~laxarray.conformance.strategies.ALL` the device lacks."""
        return tuple(d for d in S.ALL if d not in self.dtypes)

    def default(self, kind):
        """The default dtype name of ``kind`` (:data:`KINDS`, or ``"unsigned"``: the
        unsigned integer of the default integer's width, which the standard's ``sum``
        of unsigned integers returns)."""
        if kind == "unsigned":
            return "u" + self.defaults["integral"].lstrip("u")
        return self.defaults[kind]

    def widest(self, kind):
        """The device's widest dtype of NumPy ``kind`` (``"i"``, ``"u"``, ``"f"``,
        ``"c"``), or None."""
        have = [d for d in S.ALL if d in self.dtypes and np.dtype(d).kind == kind]
        return max(have, key=lambda d: np.dtype(d).itemsize, default=None)

    def fit(self, reference, *names):
        """``reference`` (a result dtype name for operands ``names``), or -- where the
        device lacks it -- the device's widest dtype of its kind if the namespace's
        ``result_type`` of ``names`` gives that (see the module docstring)."""
        reference = np.dtype(reference).name
        if reference in self.dtypes:
            return reference
        widest = self.widest(np.dtype(reference).kind)
        names = [np.dtype(n).name for n in names]
        if widest is None or len(names) < 2:
            return reference
        said = functools.reduce(lambda a, b: self.promotions.get((a, b), ""), names[1:],
                                names[0])
        return widest if said == widest else reference


#: every dtype, 64-bit defaults: the profile outside a run, and without an inspection API
FULL = Profile()

_PROFILE = contextvars.ContextVar("laxarray_conformance_profile", default=FULL)


def current():
    """The :class:`Profile` of the run's device (:data:`FULL` outside a run)."""
    return _PROFILE.get()


@contextlib.contextmanager
def using(profile):
    """Within this block :func:`current` is ``profile``."""
    token = _PROFILE.set(profile)
    try:
        yield
    finally:
        _PROFILE.reset(token)


def narrowed_range(*names):
    """``(min, max)`` of the integer dtype the current device promotes ``names`` to, where
    it is narrower than the table's (:func:`result_type`: ``int32`` for ``uint32`` with
    ``int8``); None where it is the table's.  An operand value outside it has no result
    the standard states: the table's dtype holds it, the device's cannot (``uint32``
    4294967295 is no ``int32``), so the implementation decides what it becomes.

    >>> p = Profile(frozenset(("int8", "int32", "uint32")), FULL.defaults,
    ...             {("uint32", "int8"): "int32"})
    >>> with using(p):
    ...     narrowed_range("uint32", "int8"), narrowed_range("int8", "int32")
    ((-2147483648, 2147483647), None)
    >>> narrowed_range("int8", "float32") is None      # mixed kinds: none
    True
    """
    if any(np.dtype(n).kind not in "iu" for n in names):
        return None      # (mixed kinds, a NumPy extension's pairs: the table has no entry)
    table = promotion.result_type(*names)
    got = result_type(*names)
    if got == table or np.dtype(got).kind not in "iu":
        return None
    info = np.iinfo(np.dtype(got))
    return int(info.min), int(info.max)


def beyond(names, *operands):
    """The elements (a bool array of the operands' broadcast shape) where an integer
    operand (NumPy) holds a value outside :func:`narrowed_range` of ``names``; None where
    the device's promotion is the table's."""
    bounds = narrowed_range(*names)
    if bounds is None:
        return None
    out = np.zeros(np.broadcast_shapes(*(np.shape(v) for v in operands)), bool)
    for v in operands:
        v = np.asarray(v)
        if v.dtype.kind in "iu":
            wide = v.astype(np.int64 if v.dtype.itemsize < 8 else object)
            out |= (wide < bounds[0]) | (wide > bounds[1])
    return out


def available(names):
    """The names among ``names`` (dtype names) that the current device has, in order."""
    have = current().dtypes
    return tuple(n for n in names if n in have)


def narrowed(options):
    """``options`` (dtype names, or tuples of them) with each dtype the current device
    lacks replaced by the device's widest dtype of its kind -- an option with one it has
    none of dropped --, repeats dropped, order kept: the draws of a spec written for
    64-bit dtypes (``float64`` matmul), on a device without them (``float32`` matmul).
    On a device with every dtype, ``options`` as they are."""
    profile = current()
    if profile.dtypes == FULL.dtypes:
        return tuple(options)

    def narrow(name):
        return name if name in profile.dtypes else profile.widest(np.dtype(name).kind)
    out = []
    for option in options:
        option = tuple(map(narrow, option)) if isinstance(option, tuple) else narrow(option)
        if None not in (option if isinstance(option, tuple) else (option,)) \
                and option not in out:
            out.append(option)
    return tuple(out)


def default(kind):
    """The current device's default dtype name of ``kind`` (:meth:`Profile.default`)."""
    return current().default(kind)


def result_type(*names):
    """The standard's result dtype name of ``names`` on the current device: the table's
    (:func:`promotion.result_type`), narrowed as :meth:`Profile.fit` says."""
    return current().fit(promotion.result_type(*names), *names)


def probe(xp, device=None):
    """The :class:`Profile` of ``xp``'s ``device`` (None: its default device) from its
    inspection API; :data:`FULL` where the namespace has none, or it raises."""
    try:
        info = xp.__array_namespace_info__()
        dtypes = frozenset(str(k) for k in info.dtypes(device=device))
        defaults = {k: dtype_name(v) for k, v in info.default_dtypes(device=device).items()}
    except Exception:  # noqa: BLE001 -- no inspection API: every dtype, 64-bit defaults
        return FULL
    if not dtypes or any(defaults.get(k) not in S.ALL for k in KINDS):
        return FULL  # an answer the runner cannot use: assume what it did before
    dtypes = dtypes & frozenset(S.ALL)
    promotions = {}
    if dtypes != FULL.dtypes:  # (a device with every dtype never needs the namespace's say)
        for a in sorted(dtypes):
            for b in sorted(dtypes):
                try:
                    said = dtype_name(xp.result_type(getattr(xp, a), getattr(xp, b)))
                except Exception:  # noqa: BLE001 -- no promotion of the pair: none recorded
                    continue
                if said in dtypes:
                    promotions[(a, b)] = said
    if device is None:
        try:
            device = info.default_device()  # (named in the report; None where it raises)
        except Exception:  # noqa: BLE001
            device = None
    return Profile(dtypes, {k: defaults[k] for k in KINDS}, promotions, device)


__all__ = ["FULL", "KINDS", "Profile", "available", "current", "default", "narrowed",
           "probe", "result_type", "using"]
