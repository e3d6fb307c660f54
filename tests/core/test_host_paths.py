"""The CPU host path is a declared property of a kernel (``laxarray/_core/runtime/host_path.py``): the
kernel helper alone decides host or XLA, the table in docs/performance.md is generated from
the declarations, and each function that can take a host path says so."""

import importlib
import importlib.util
import pathlib

import jax
import numpy as np
import pytest

import laxarray as lx
import laxarray.sparse  # noqa: F401  (its kernels declare host paths too)
from laxarray._core.runtime import host_path
from laxarray._core.runtime.kernel import compile_count
from laxarray.array_api.sorting import sort_kernel

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("host_table", ROOT / "tools" / "host_table.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_table_in_the_docs_is_the_declarations():
    tool = _tool()
    text = tool.DOC.read_text()
    assert tool.render(text, host_path.table()) == text, "run tools/host_table.py"


def _public(name):
    """The function a declaration names: an attribute of ``laxarray``, or a dotted name
    under it (``"sparse.matmul"``: ``matmul`` of the subpackage ``laxarray.sparse``)."""
    package, _, attr = ("laxarray." + name).rpartition(".")
    return getattr(importlib.import_module(package), attr)


def test_every_declared_function_says_so_in_its_docstring():
    names = [f for path in host_path.declared() for f in path.functions]
    assert names and len(names) == len(set(names))
    quiet = [f for f in names
             if "host path" not in " ".join((_public(f).__doc__ or "").split())]
    assert quiet == []
    assert _public("sparse.matmul") is lx.sparse.matmul


def test_each_declaration_is_complete():
    for path in host_path.declared():
        assert path.kernel is not None and path.reason and path.grad
        assert path.eager is not None or path.traced is not None
        assert (path.traced is None) == (path.kernel.on_host is None)


def test_the_gate_follows_the_switch_the_dtype_and_the_placement(monkeypatch):
    path = sort_kernel.host
    x = lx.asarray(np.arange(5.0))._value
    assert path.takes((x,), {})
    assert not path.takes((lx.asarray(np.arange(5.0) + 1j)._value,), {})
    assert not path.takes((lx.asarray(np.arange(5.0), dtype=lx.float16)._value,), {})
    with lx.host_sort(False):
        assert not path.takes((x,), {})
    monkeypatch.setattr(host_path, "platform", lambda raw: "gpu")
    assert not path.takes((x,), {})


def test_the_xla_body_stays_reachable():
    kern = sort_kernel
    x = lx.asarray(np.array([3.0, -0.0, np.nan, 0.0, 1.0]))
    program = str(jax.make_jaxpr(lambda v: kern.run_xla(v, axis=0, descending=False,
                                                    want_indices=False))(x._value))
    assert "callback" not in program and "sort" in program
    assert "callback" in str(jax.make_jaxpr(lambda v: lx.sort(v))(x))


@pytest.mark.parametrize("size", [0, 2, 7])
def test_eager_nonzero_with_a_size_compiles_nothing_and_is_the_kernels(size):
    x = lx.asarray(np.array([[0, 3, 0], [1, 0, 2]]))
    before = compile_count()
    got = [np.asarray(t) for t in lx.nonzero(x, size=size, fill_value=-1)]
    assert compile_count() == before
    with lx.host_sort(False):
        want = [np.asarray(t) for t in lx.nonzero(x, size=size, fill_value=-1)]
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.tobytes() == w.tobytes()
