"""Off the CPU every host path declines and its lax path gives the result (issue 41).

The host paths (NumPy's sorting and selection, SciPy's sparse @ sparse and sparse +/-
sparse) run only where the operands live on one CPU device; on a GPU or TPU their callers
run the lax kernels.  These tests stand in for a GPU by making the one place that tells a
value's platform (``laxarray._core.runtime.host_path.platform``) answer ``'gpu'``, check that every gate
then declines, that nothing reaches a host path (each one is replaced by a function that
fails), and that the lax paths give NumPy's and SciPy's results, eager and under jax.jit.
"""

from __future__ import annotations

import operator

import jax
import numpy as np
import pytest
import scipy.sparse as sps

import laxarray as la
import laxarray.sparse as sp
from laxarray._core import backend
from laxarray._core.runtime import host_path as _host
from laxarray.array_api import _host_order
from laxarray.sparse.ops import dot as _dot
from laxarray.sparse.ops import union as _union
from laxarray.sparse.ops import spgemm_host


def _refuse(*args, **kwargs):
    raise AssertionError("a host path ran off the CPU")


@pytest.fixture
def off_cpu(monkeypatch):
    """Every value reads as living on a GPU; every host path fails if it is reached."""
    monkeypatch.setattr(_host, "platform", lambda raw: "gpu")
    for path in _host.declared():
        monkeypatch.setattr(path, "eager", _refuse)
    for module, name in ((_host_order, "host_call"), (spgemm_host, "host_call")):
        monkeypatch.setattr(module, name, _refuse)


def _vec(n=257, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(n).astype(dtype)
    v[::17] = v[1]                     # ties
    v[5] = np.nan
    return v


def _sparse(shape, seed, density=0.15):
    rng = np.random.default_rng(seed)
    return sps.random_array(shape, density=density, rng=rng, format="csr").astype(np.float64)


# ---- the gates -------------------------------------------------------------------------

def test_platform_reads_the_device():
    x = la.asarray(np.arange(4.0))._value
    assert _host.platform(x) == "cpu"
    seen = []
    jax.make_jaxpr(lambda v: seen.append(_host.platform(v)) or v)(x)
    assert seen == [jax.default_backend()]


@pytest.mark.skipif(not backend.current().host,
                    reason="the host paths' gates on the CPU record (this backend has none)")
def test_every_gate_declines_off_the_cpu(monkeypatch):
    x = la.asarray(_vec())._value
    a = sp.BCOO.from_scipy_sparse(_sparse((8, 6), 1))
    b = sp.BCSR.from_scipy_sparse(_sparse((6, 5), 2))
    c = sp.BCOO.from_scipy_sparse(_sparse((8, 6), 3))
    f64 = np.dtype(np.float64)
    gates = {
        # the sparse kernels' gates on the leaves they read
        "sparse @ sparse": lambda: _dot._spsp_2d_kernel.host.takes(
            a._leaves() + b._leaves(), {"dtype": f64}),
        "sparse + sparse": lambda: _union._union_2d_kernel.host.takes(
            a._leaves() + c._leaves(), {"dtype": f64}),
    }
    for path in _host.declared():     # the gates of the declared host paths
        gates[path.kernel.__name__] = lambda path=path: path.takes((x, x), {"dtype": x.dtype})
    on_cpu = {name: gate() for name, gate in gates.items()}
    assert all(on_cpu.values()), on_cpu          # on the CPU each one takes its host path
    monkeypatch.setattr(_host, "platform", lambda raw: "gpu")
    off = {name: gate() for name, gate in gates.items()}
    assert not any(off.values()), off
    traced = []     # a traced value's gate asks the same question
    jax.make_jaxpr(lambda v: traced.append(_first_gate(v)) or v)(x)
    assert traced == [False]


def _first_gate(raw):
    path = _host.declared()[0]
    return path.takes((raw, raw), {"dtype": raw.dtype})


def test_a_value_on_several_devices_declines(monkeypatch):
    x = la.asarray(np.arange(3.0))._value
    assert _first_gate(x) == bool(backend.current().host)
    monkeypatch.setattr(_host, "platform", lambda raw: None)
    assert not _first_gate(x)


# ---- sorting and selection by lax ---------------------------------------------------------

SORTS = {
    "sort": (lambda x: la.sort(x), lambda v: np.sort(v)),
    "sort descending": (lambda x: la.sort(x, descending=True),
                        lambda v: np.sort(v)[::-1][np.r_[1:len(v), 0]]),
    "argsort": (lambda x: la.argsort(x, stable=True), lambda v: np.argsort(v, kind="stable")),
    "unique_values": (lambda x: la.unique_values(x), lambda v: np.unique(v, equal_nan=False)),
    "nonzero": (lambda x: la.nonzero(x > 0)[0], lambda v: np.nonzero(v > 0)[0]),
    "searchsorted": (lambda x: la.searchsorted(la.sort(x), x),
                     lambda v: np.searchsorted(np.sort(v), v)),
    "median": (lambda x: la.median(la.where(la.isnan(x), 0.0, x)),
               lambda v: np.median(np.where(np.isnan(v), 0.0, v))),
    "nanquantile": (lambda x: la.nanquantile(x, 0.3), lambda v: np.nanquantile(v, 0.3)),
    "partition": (lambda x: la.partition(la.where(la.isnan(x), 0.0, x), 40)[40],
                  lambda v: np.partition(np.where(np.isnan(v), 0.0, v), 40)[40]),
    "isin": (lambda x: la.isin(x, x[:9]), lambda v: np.isin(v, v[:9])),
}


@pytest.mark.parametrize("name", sorted(SORTS))
def test_sorting_and_selection_off_the_cpu(off_cpu, name):
    fn, oracle = SORTS[name]
    v = _vec()
    expected = oracle(v)
    got = fn(la.asarray(v))
    np.testing.assert_array_equal(np.asarray(got), expected)


@pytest.mark.parametrize("name", ["sort", "argsort", "median", "searchsorted", "isin"])
def test_sorting_under_jit_off_the_cpu(off_cpu, name):
    fn, oracle = SORTS[name]
    v = _vec(seed=1)
    program = jax.make_jaxpr(lambda x: fn(x))(la.asarray(v))
    assert "host_callback" not in str(program) and "callback" not in str(program)
    got = jax.jit(lambda x: fn(x))(la.asarray(v))
    np.testing.assert_array_equal(np.asarray(got), oracle(v))


def test_float32_sort_off_the_cpu(off_cpu):
    v = _vec(dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(la.sort(la.asarray(v))), np.sort(v))


# ---- sparse @ sparse and sparse +/- sparse by lax -------------------------------------------

FORMATS = [sp.BCOO, sp.BCSR]


@pytest.mark.parametrize("fa", FORMATS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("fb", FORMATS, ids=lambda f: f.__name__)
def test_sparse_product_off_the_cpu(off_cpu, fa, fb):
    a, b = _sparse((30, 20), 4), _sparse((20, 25), 5)
    out = fa.from_scipy_sparse(a) @ fb.from_scipy_sparse(b)
    assert isinstance(out, (sp.BCOO, sp.BCSR))
    np.testing.assert_allclose(np.asarray(out.todense()), (a @ b).toarray(), rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("op", [operator.add, operator.sub], ids=["add", "sub"])
@pytest.mark.parametrize("fa", FORMATS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("fb", FORMATS, ids=lambda f: f.__name__)
def test_sparse_sum_off_the_cpu(off_cpu, op, fa, fb):
    a, b = _sparse((30, 20), 6), _sparse((30, 20), 7)
    out = op(fa.from_scipy_sparse(a), fb.from_scipy_sparse(b))
    assert isinstance(out, (sp.BCOO, sp.BCSR))
    np.testing.assert_allclose(np.asarray(out.todense()), op(a, b).toarray(), rtol=1e-12,
                               atol=1e-12)


def test_sparse_under_jit_off_the_cpu(off_cpu):
    a, b = _sparse((12, 9), 8), _sparse((9, 7), 9)
    c = _sparse((12, 9), 10)
    A, B, C = (sp.BCOO.from_scipy_sparse(m) for m in (a, b, c))

    bound = a.shape[0] * b.shape[1]        # nse of a product under jax.jit: a static bound

    def f(x, y, z):
        return sp.matmul(x + z, y, nse=bound).todense()

    program = str(jax.make_jaxpr(f)(A, B, C))
    assert "callback" not in program
    np.testing.assert_allclose(np.asarray(jax.jit(f)(A, B, C)), ((a + c) @ b).toarray(),
                               rtol=1e-12, atol=1e-12)
