"""Namespaces whose arrays are immutable (jax.numpy): specs that write into arrays are
"unsupported: immutable arrays", not failures, and the rest run."""

import io
import re
import types

import numpy as np
import pytest

from laxarray.conformance import SPECS, runner
from laxarray.conformance.__main__ import main


def untried_stripped(text):
    """The closing line of a text report without its tail of untried cells (", with N
    untried": how many depends on the examples run)."""
    return re.sub(r", with \d+ untried$", "", text.rstrip().splitlines()[-1])

jnp = pytest.importorskip("jax.numpy")
cnp = pytest.importorskip("array_api_compat.numpy")


class _FrozenArray(np.ndarray):
    """A NumPy array that refuses item assignment (as jax's arrays do)."""

    def __setitem__(self, key, value):
        raise TypeError("immutable")


def _frozen(x):
    return x.view(_FrozenArray) if isinstance(x, np.ndarray) else x


def frozen_namespace():
    """array_api_compat.numpy whose ``asarray`` returns arrays refusing ``x[k] = v``."""
    ns = types.SimpleNamespace(**{k: getattr(cnp, k) for k in dir(cnp)
                                  if not k.startswith("_") or k == "__array_namespace_info__"})
    ns.asarray = lambda *args, **kwargs: _frozen(cnp.asarray(*args, **kwargs))
    return ns


def test_mutability_probe():
    assert runner.arrays_are_mutable(cnp)
    assert not runner.arrays_are_mutable(jnp)
    assert not runner.arrays_are_mutable(frozen_namespace())


@pytest.mark.parametrize("label", ["jax.numpy", "frozen"])
def test_mutation_specs_unsupported_rest_run(label):
    xp = jnp if label == "jax.numpy" else frozen_namespace()
    mutating = [s for s in SPECS.values() if s.needs_mutation]
    assert "__setitem__" in {s.name for s in mutating}
    specs = mutating + [SPECS["add"]]
    run = runner.run_namespace(xp, specs, namespace_label=label, max_examples=5, seed=0,
                               progress=False, shrink=False)
    status = {r.name: (r.status, r.message) for r in run.results}
    for spec in mutating:
        assert status[spec.name] == ("unsupported", runner.IMMUTABLE)
    assert status["add"][0] == "pass", status["add"]
    passed, failed, skipped = run.totals()
    assert (passed, failed) == (1, 0)  # the standard allows immutable arrays: not a failure
    assert skipped == len(mutating)


def test_mutable_namespace_runs_setitem():
    result = runner.run_spec(cnp, SPECS["__setitem__"], max_examples=5, seed=0)
    assert result.status == "pass", result.message


def test_copy_checks_left_out_on_immutable_arrays():
    # asarray's copy=True check writes into the source; without writes it is left out, and
    # the spec still checks the values (passes on a correct but immutable namespace)
    result = runner.run_spec(frozen_namespace(), SPECS["asarray"], max_examples=30, seed=0,
                             shrink=False)
    assert result.status == "pass", result.message


def test_cli_on_jax_numpy():
    out = io.StringIO()
    status = main(["--namespace", "jax.numpy", "--functions", "__setitem__,add",
                   "--max-examples", "3", "--seed", "0", "--no-progress", "--no-shrink"],
                  stdout=out)
    text = out.getvalue()
    assert status == 0, text
    row = next(line for line in text.splitlines() if line.startswith("__setitem__"))
    assert row.split()[1] == "unsupported"
    assert untried_stripped(text) == "1 passed, 0 failed, 1 skipped"
