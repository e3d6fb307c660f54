"""A kernel's identity (``laxarray._core.runtime.kernel_id``): the test spy, the recorder
(``LAXARRAY_RECORD``) and the executable store's key all read one ``KernelId`` per kernel,
and a recorded path finds the same kernel again."""

import dataclasses

import jax
import numpy as np
import pytest

import laxarray as lx
from checks import kernels_ran
from laxarray._core.runtime import call_key, exec_store, lookup_log
from laxarray._core.runtime import kernel as K
from laxarray._core.runtime.kernel_id import KernelId, find
from laxarray.array_api._ufunc import family_kernel
from laxarray.array_api.sorting import sort_kernel

_SORT = (("axis", 0), ("descending", False), ("want_indices", False))
_ARRAY = ["a", [7], "float64", False]       # a recorded float64[7] input
_X = np.array([3.0, -1.0, 2.5, 0.0, 7.0, -2.0, 1.0])

# (what made the kernel, the kernel, its statics, its recorded inputs, a call that runs it)
_CASES = {
    "factory": (lambda: family_kernel("laxarray.array_api.elementwise_math", "sin"), (),
                [_ARRAY], lambda: lx.sin(lx.asarray(_X))),
    "factory, an array and a Python scalar": (
        lambda: family_kernel("laxarray.array_api.elementwise", "add"), (),
        [_ARRAY, ["a", [], "float64", False]], lambda: lx.asarray(_X) + 1.5),
    "host path body": (lambda: sort_kernel.on_host, _SORT, [_ARRAY],
                       lambda: jax.jit(lx.sort)(lx.asarray(_X))),
    "module attribute": (lambda: sort_kernel, _SORT, [_ARRAY],
                         lambda: sort_kernel.run_xla(lx.asarray(_X)._value, **dict(_SORT))),
}


@pytest.mark.parametrize("case", list(_CASES))
def test_the_spy_the_record_and_the_store_key_read_one_identity(case, tmp_path, monkeypatch):
    make, items, inputs, call = _CASES[case]
    kern = make()
    kid = kern.id
    assert isinstance(kid, KernelId) and kern.id is kid            # computed once, kept
    assert (kid.module, kid.name) == (kern.fn.__module__, kern.__name__)

    # the spy records the kernel's identity itself
    assert any(entry is kid for entry in kernels_ran(call))

    # one store lookup, recorded: its line and its key both come from that identity
    keys = []
    store_key = K.store_key
    monkeypatch.setattr(K, "store_key", lambda *parts: keys.append(parts) or store_key(
        *parts))
    monkeypatch.setattr(K, "_STORE", [exec_store.ExecutableStore.open(tmp_path / "store")])
    monkeypatch.setattr(lookup_log, "PATH", str(tmp_path / "calls.jsonl"))
    monkeypatch.setattr(lookup_log, "_SEEN", set())
    sig, stand_ins, device = lookup_log.call_inputs({"sig": inputs})
    assert kern.bind(items).prepare(False, sig, stand_ins, device)
    (entry,) = lookup_log.read(tmp_path / "calls.jsonl")
    assert entry["kernel"] == lookup_log.kernel_path(kern) == [kid.path,
                                                                lookup_log.encode(kid.args)]
    assert [parts[:2] for parts in keys] == [(kid.store, call_key.describe(items))]

    # the recorded path finds the very kernel again (a replay binds this one)
    assert find(*lookup_log.target(entry)) is kern
    assert kid.find() is kern


def test_what_made_a_kernel_is_its_path():
    sin = family_kernel("laxarray.array_api.elementwise_math", "sin")
    assert (sin.id.path, sin.id.args) == ("laxarray.array_api._ufunc:family_kernel",
                                          ("laxarray.array_api.elementwise_math", "sin"))
    assert sort_kernel.id.path == "laxarray.array_api.sorting:sort_kernel"
    assert sort_kernel.on_host.id.path == "laxarray.array_api.sorting:sort_kernel.on_host"
    assert sort_kernel.on_host.id.store != sort_kernel.id.store    # another body
    with pytest.raises(dataclasses.FrozenInstanceError):
        sort_kernel.id.path = "elsewhere:k"


def _local_kernel():
    scale = 2.0

    @K.kernel()
    def _double_kernel(x):
        return x * scale
    return _double_kernel


renamed_kernel = K.kernel()(lambda x: x)


def test_a_kernel_no_other_process_finds_has_no_path_but_keeps_its_store_text():
    for kern in (_local_kernel(), renamed_kernel):
        assert kern.id.path is None
        with pytest.raises(lookup_log.Unrecordable, match="has no path"):
            lookup_log.kernel_path(kern)
        with pytest.raises(lookup_log.Unrecordable):
            kern.id.find()
    # a local kernel's closure holds a constant: the store still keys it, by its text
    assert "float:2.0" in _local_kernel().id.store
    assert renamed_kernel.id.store is not None


def test_two_elementwise_functions_of_one_name_keep_apart():
    # numpy's angle makes one function in radians, then one in degrees, both named angle:
    # each has its own family key, so a record of one replays that one, not the other
    module = "laxarray.numpy_api.mathfuncs._elementwise"
    rad, deg = family_kernel(module, "angle"), family_kernel(module, "angle~1")
    assert rad is not deg and rad.id.path == deg.id.path
    assert (rad.id.args, deg.id.args) == ((module, "angle"), (module, "angle~1"))
    assert "float:1.0" in rad.id.store and "float:1.0" not in deg.id.store
    assert rad.id.find() is rad and deg.id.find() is deg
    z = lx.asarray(np.array([1j, -1.0]))
    assert any(kid is deg.id for kid in kernels_ran(lambda: lx.angle(z, deg=True)))


def test_every_kernel_of_laxarray_is_found_back_and_none_is_patched():
    lx.asarray(_X) + 1.5
    kernels = [k for k in K._KERNELS if k.id.module.startswith("laxarray.")]
    assert len(kernels) > 100
    for kern in kernels:
        # every kernel laxarray makes can be recorded and replayed (precompile --from)
        assert kern.id.path is not None and kern.id.find() is kern, kern
        # the identity is said where the kernel is made, not patched on afterwards
        assert not {"recipe", "host_of"} & set(vars(kern)), kern
