"""The matrix-product precision: one setting of the kernel helper (issue 41).

XLA on GPU computes float32 products in TF32 by default; laxarray's default is NumPy's
grade (``'highest'``), with ``'tf32'`` and ``'default'`` to opt out.  On the CPU every
setting gives the same numbers, so these tests read the precision that reaches the
program: the ``precision`` of each ``dot_general``/``convolution`` in the lowered text of a
laxarray call under ``jax.jit``, and the eager executables each setting gets.
"""

from __future__ import annotations

import re

import jax
import numpy as np
import pytest
from jax import lax

import laxarray as la
from laxarray._core import modes
from laxarray._core.runtime import fingerprint, kernel

#: laxarray's setting -> the operand precision StableHLO prints
PRINTED = {"highest": "HIGHEST", "tf32": "HIGH", "default": "DEFAULT"}

_DOT = re.compile(r"stablehlo\.dot_general.*?precision = \[(\w+), (\w+)\]")
_CONV = re.compile(r"stablehlo\.convolution.*?precision_config = "
                   r"\[#stablehlo<precision (\w+)>, #stablehlo<precision (\w+)>\]")


def _f32(*shape, seed=0):
    return la.asarray(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def _precisions(fn, *args):
    """The operand precisions of every dot_general and convolution in ``fn``'s program
    (traced afresh: jax keeps the trace of a function it jitted before, and laxarray's
    setting, like every laxarray setting, is read when a function is traced)."""
    text = jax.jit(lambda *a: fn(*a)).lower(*args).as_text()
    found = [m.groups() for m in _DOT.finditer(text)] + [m.groups() for m in _CONV.finditer(text)]
    return found


@pytest.fixture(autouse=True)
def _restore_setting():
    previous = la.get_matmul_precision()
    yield
    la.set_matmul_precision(previous)


A, B, V = _f32(6, 6), _f32(6, 6, seed=1), _f32(6, seed=2)

CALLS = {
    "matmul": (lambda x, y: la.matmul(x, y), (A, B)),
    "operator @": (lambda x, y: x @ y, (A, B)),
    "tensordot": (lambda x, y: la.tensordot(x, y, axes=1), (A, B)),
    "einsum": (lambda x, y: la.einsum("ij,jk->ik", x, y), (A, B)),
    "dot": (lambda x, y: la.dot(x, y), (A, B)),
    "inner": (lambda x, y: la.inner(x, y), (A, B)),
    "linalg.multi_dot": (lambda x, y: la.linalg.multi_dot([x, y, x]), (A, B)),
    "linalg.matrix_power": (lambda x: la.linalg.matrix_power(x, 3), (A,)),
    "linalg.pinv": (lambda x: la.linalg.pinv(x), (A,)),
    "cov": (lambda x: la.cov(x), (A,)),
    "convolve": (lambda x, y: la.convolve(x, y), (V, V)),
}


def test_default_is_numpy_grade():
    assert modes.MATMUL_PRECISION in modes.MATMUL_PRECISIONS
    if "LAXARRAY_MATMUL_PRECISION" not in __import__("os").environ:
        assert la.get_matmul_precision() == "highest"


#: calls whose program holds an SVD: where the backend forms it from products (the TPU's
#: polar decomposition, ``Backend.polar_svd``), those name their own precision (jax's QDWH
#: needs HIGHEST); the rest of the program must take the setting
HOLDS_SVD = {"linalg.pinv"}


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("setting", sorted(PRINTED))
def test_setting_reaches_the_program(name, setting):
    fn, args = CALLS[name]
    with la.matmul_precision(setting):
        found = _precisions(fn, *args)
        if name in HOLDS_SVD:
            for own in _precisions(lambda x: la.linalg.svd(x, full_matrices=False), *args):
                found.remove(own)      # each of the SVD's products is in the call's program
    assert found, f"{name}: no dot_general or convolution in its program"
    assert set(found) == {(PRINTED[setting], PRINTED[setting])}, (name, found)


def test_a_precision_named_by_the_caller_is_kept():
    with la.matmul_precision("tf32"):
        found = _precisions(lambda x, y: la.einsum("ij,jk->ik", x, y,
                                                    precision=lax.Precision.HIGHEST), A, B)
    assert set(found) == {("HIGHEST", "HIGHEST")}


def test_each_setting_has_its_own_eager_executables():
    """A changed setting never runs an executable compiled under another one: the same
    call on the same shape builds (or loads) a new executable, and going back reuses the
    first."""
    x, y = _f32(5, 3, seed=3), _f32(3, 7, seed=4)
    expected = np.asarray(x) @ np.asarray(y)
    with la.matmul_precision("highest"):
        np.testing.assert_allclose(np.asarray(la.matmul(x, y)), expected, rtol=1e-5)
        before = kernel.compile_count()
        la.matmul(x, y)
        assert kernel.compile_count() == before            # warm
    with la.matmul_precision("tf32"):
        np.testing.assert_allclose(np.asarray(la.matmul(x, y)), expected, rtol=1e-2)
        assert kernel.compile_count() == before + 1        # its own executable
    with la.matmul_precision("highest"):
        la.matmul(x, y)
        assert kernel.compile_count() == before + 1        # the first one again


def test_store_key_names_the_setting():
    """The executable store's environment part differs per setting (an executable written
    under one is never loaded under another)."""
    prints = set()
    for setting in PRINTED:
        with la.matmul_precision(setting):
            prints.add(fingerprint.environment_fingerprint())
    assert len(prints) == len(PRINTED)


def test_setting_validation_and_context_restore():
    with pytest.raises(ValueError, match="set_matmul_precision"):
        la.set_matmul_precision("fp32")
    with pytest.raises(ValueError, match="^matmul_precision: "):  # the function called
        with la.matmul_precision(None):
            pass
    start = la.get_matmul_precision()
    with pytest.raises(RuntimeError):
        with la.matmul_precision("tf32"):
            assert la.get_matmul_precision() == "tf32"
            raise RuntimeError
    assert la.get_matmul_precision() == start
