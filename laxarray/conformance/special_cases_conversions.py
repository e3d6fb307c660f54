"""Specs of the array object's conversions to Python scalars: ``bool(x)``, ``int(x)``,
``float(x)``, ``complex(x)`` of 0-d arrays (oracle: Python's conversion of the NumPy value).

The standard states their special cases (``bool(NaN)`` is True, ``int(inf)`` raises
OverflowError, ``complex(NaN)`` is ``NaN + NaN j``, ...); the runner checks those rows after
the hypothesis search, as for every function with rows
(:mod:`laxarray.conformance.special_cases_check`).  Here each example converts one drawn
0-d array of a dtype the standard allows for the conversion (``int``/``float`` of complex
arrays are left out: unspecified) and compares value and Python type; a real NaN's
``complex`` is left to the rows (Python gives ``nan + 0j``, the standard ``NaN + NaN j``).
"""

from __future__ import annotations

import math

import numpy as np

from . import strategies as S
from .compare import ConformanceError
from .spec import Spec, as_xp, register

#: conversion -> (the builtin, dtype group of the arrays it takes, Python type of its result)
CONVERSIONS = {"__bool__": (bool, "any", bool), "__complex__": (complex, "any", complex),
               "__float__": (float, "real", float), "__int__": (int, "real", int)}


def _same(got, want):
    """Equal Python scalars: NaN meets NaN, zeros by sign (complex: part by part)."""
    if isinstance(want, complex):
        return _same(got.real, want.real) and _same(got.imag, want.imag)
    if isinstance(want, float):
        if math.isnan(want):
            return math.isnan(got)
        return got == want and math.copysign(1.0, got) == math.copysign(1.0, want)
    return got == want


def _expected(name, v):
    """``(value, None)`` or ``(None, exception type)`` the standard gives for NumPy scalar
    ``v``; ``(None, None)`` where the rows decide."""
    builtin = CONVERSIONS[name][0]
    kind = np.asarray(v).dtype.kind
    if name == "__int__" and kind == "f" and not np.isfinite(v):
        return None, (ValueError if np.isnan(v) else OverflowError)
    if name == "__complex__" and kind == "f" and np.isnan(v):
        return None, None
    return builtin(v.item()), None


def _check(name):
    builtin, group, result_type = CONVERSIONS[name]

    def check(xp, data):
        dtype = data.draw(S.dtypes(group), label="dtype")
        x = data.draw(S.arrays(dtype, ()), label="x")
        want, raises = _expected(name, x[()])
        arr = as_xp(xp, x)
        shown = f"{builtin.__name__}(asarray({x[()].item()!r}, dtype={dtype}))"
        if raises is not None:
            try:
                got = builtin(arr)
            except raises:
                return
            raise ConformanceError(f"{name}: {shown} gave {got!r}, expected {raises.__name__}")
        if want is None:
            return
        got = builtin(arr)
        if type(got) is not result_type or not _same(got, want):
            raise ConformanceError(f"{name}: {shown} gave {got!r} ({type(got).__name__}), "
                                   f"expected {want!r} ({result_type.__name__})")
    check.__name__ = f"_{name.strip('_')}_check"
    return check


for _name in CONVERSIONS:
    register(Spec(_name, _check(_name), S.DTYPE_GROUPS[CONVERSIONS[_name][1]],
                  kind="array object"))
