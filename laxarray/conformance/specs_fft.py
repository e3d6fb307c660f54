"""Conformance specs of the fft extension (and numpy.fft's 2-d transforms) against numpy.fft.

Namespace-generic (``xp.fft.<name>``).  Transforms draw complex input for the complex and
Hermitian-input transforms and real input for ``rfft*``/``ihfft`` (what the standard
requires), ``n``/``s`` that pad or truncate (``s`` entries of -1 included, for the
standard's names), negative axes and every ``norm``.  Oracles run on the input upcast to
double precision; values compare normwise within the ``fft.*`` row of
:data:`laxarray.conformance.tolerances.BOUNDS`.  A namespace that flushes subnormals (XLA
on CPU) passes by the rule of :mod:`laxarray.conformance.flushing`.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from . import device_dtypes, strategies as S
from .compare import assert_dtype, assert_shape, assert_values, to_numpy
from .spec import as_xp
from .specs_linalg import (close, complex_name, draw_array, real_name,
                                               spec, upcast)

_NORMS = ["backward", "ortho", "forward", None]


def _norm_kwargs(data):
    norm = data.draw(st.sampled_from(_NORMS), label="norm")
    return {} if norm is None else {"norm": norm}


def _compare(name, out, x, oracle, result_dtype):
    expected = oracle(upcast(x))
    assert_dtype(name, out, result_dtype)
    assert_shape(name, out, expected.shape)
    close(name, to_numpy(out), expected)


def _one_d(name, real_input, half_output):
    """``fft ifft rfft irfft hfft ihfft``: one axis, optional ``n``."""
    def check(xp, data):
        dtype = data.draw(S.dtypes("real floating" if real_input else "complex floating"),
                          label="dtype")
        shape = data.draw(S.shapes(min_dims=1, max_dims=3, min_side=1, max_side=4),
                          label="shape")
        axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
        x = draw_array(data, dtype, shape)
        kwargs = _norm_kwargs(data)
        n = data.draw(st.one_of(st.none(), st.integers(1, 8)), label="n")
        if n is None and half_output and shape[axis] < 2:
            n = 2
        if n is not None:
            kwargs["n"] = n
        out = getattr(xp.fft, name)(as_xp(xp, x), axis=axis, **kwargs)
        result = real_name(dtype) if half_output else complex_name(dtype)
        _compare(f"fft.{name}", out, x,
                 lambda a: getattr(np.fft, name)(a, axis=axis, **kwargs), result)
    return check


for _name, _real_in, _real_out in (("fft", False, False), ("ifft", False, False),
                                   ("rfft", True, False), ("irfft", False, True),
                                   ("hfft", False, True), ("ihfft", True, False)):
    spec(f"fft.{_name}")(_one_d(_name, _real_in, _real_out))


def _n_d(name, real_input, real_output, two_d):
    """``fftn ifftn rfftn irfftn`` and the ``*2`` forms: ``s``/``axes`` with NumPy 2 rules."""
    def check(xp, data):
        dtype = data.draw(S.dtypes("real floating" if real_input else "complex floating"),
                          label="dtype")
        shape = data.draw(S.shapes(min_dims=2 if two_d else 1, max_dims=3, min_side=1,
                                   max_side=4), label="shape")
        nd = len(shape)
        x = draw_array(data, dtype, shape)
        kwargs = _norm_kwargs(data)
        if two_d:
            axes = tuple(data.draw(st.permutations(range(-nd, 0)), label="axes")[:2])
            if data.draw(st.booleans(), label="default axes"):
                axes = (-2, -1)
            else:
                kwargs["axes"] = axes
        elif data.draw(st.booleans(), label="default axes"):  # axes left out: every axis
            axes = tuple(range(nd))
        else:
            axes = tuple(data.draw(st.lists(st.integers(-nd, nd - 1), min_size=1,
                                            max_size=nd, unique_by=lambda a: a % nd),
                                   label="axes"))
            kwargs["axes"] = axes
        # an ``s`` entry of -1 ("all elements along axis i must be used") is the standard's
        # (and NumPy 2's): NumPy's 2-d forms, beyond the standard, get sizes only
        if data.draw(st.booleans(), label="with s"):
            sizes = [1, 2, 3, 4, 5] if two_d else [-1, 1, 2, 3, 4, 5]
            s = data.draw(st.lists(st.sampled_from(sizes), min_size=len(axes),
                                   max_size=len(axes)), label="s")
            kwargs["s"] = tuple(s)
            kwargs["axes"] = axes
        elif real_output and shape[axes[-1]] < 2:
            lead = tuple(shape[a] for a in axes[:-1]) if two_d else (-1,) * (len(axes) - 1)
            kwargs["s"] = lead + (2,)
            kwargs["axes"] = axes
        out = getattr(xp.fft, name)(as_xp(xp, x), **kwargs)
        result = real_name(dtype) if real_output else complex_name(dtype)
        _compare(f"fft.{name}", out, x, lambda a: getattr(np.fft, name)(a, **kwargs), result)
    return check


for _name, _real_in, _real_out, _two in (("fftn", False, False, False),
                                         ("ifftn", False, False, False),
                                         ("rfftn", True, False, False),
                                         ("irfftn", False, True, False),
                                         ("fft2", False, False, True),
                                         ("ifft2", False, False, True),
                                         ("rfft2", True, False, True),
                                         ("irfft2", False, True, True)):
    _notes = "NumPy extra" if _two else ""
    spec(f"fft.{_name}", notes=_notes)(_n_d(_name, _real_in, _real_out, _two))


def _freq(name):
    def check(xp, data):
        n = data.draw(st.integers(1, 10), label="n")
        d = data.draw(st.sampled_from([1.0, 0.5, 2.5, -1.0, 3]), label="d")
        dtype = data.draw(st.sampled_from([None, "float32", "float64"]), label="dtype")
        kwargs = {} if dtype is None else {"dtype": getattr(xp, dtype)}
        if data.draw(st.booleans(), label="pass device"):  # a device of the namespace's
            kwargs["device"] = as_xp(xp, np.zeros(1)).device  # arrays
        out = getattr(xp.fft, name)(n, d=d, **kwargs)
        # no dtype: the default real floating dtype (of the run's device)
        dtype = dtype or device_dtypes.default("real floating")
        expected = getattr(np.fft, name)(n, d).astype(dtype)
        assert_dtype(f"fft.{name}", out, dtype)
        assert_shape(f"fft.{name}", out, expected.shape)
        assert_values(f"fft.{name}", to_numpy(out), expected)
    return check


spec("fft.fftfreq", dtypes=S.REAL_FLOATING)(_freq("fftfreq"))
spec("fft.rfftfreq", dtypes=S.REAL_FLOATING)(_freq("rfftfreq"))


def _shift(name):
    # the standard: x "should have a floating-point data type" -- integers are not required
    # (array_api_strict rejects them with a TypeError)
    def check(xp, data):
        dtype = data.draw(S.dtypes("floating-point"), label="dtype")
        shape = data.draw(S.shapes(min_dims=1, max_dims=3, max_side=5), label="shape")
        x = data.draw(S.arrays(dtype, shape), label="x")
        axes = data.draw(S.axes(len(shape)), label="axes")
        kwargs = {} if axes is None else {"axes": axes}
        out = getattr(xp.fft, name)(as_xp(xp, x), **kwargs)
        assert_dtype(f"fft.{name}", out, dtype)
        assert_values(f"fft.{name}", to_numpy(out), getattr(np.fft, name)(x, **kwargs))
    return check


spec("fft.fftshift", dtypes=S.FLOATING)(_shift("fftshift"))
spec("fft.ifftshift", dtypes=S.FLOATING)(_shift("ifftshift"))
