"""sinh and cosh to within a few ulps of the extended-precision value.

From |x| = 1 on both come from one ``exp`` (XLA's own large-argument sinh, and the square of
``exp(|x|/2)``, were 3 ulps off), which SciPy's ``tanhsinh`` test of a complex ``sin``
integrand at ``rtol=1e-15`` needs.
"""

import numpy as np
import pytest

import laxarray as la


@pytest.mark.skipif(np.finfo(np.longdouble).nmant < 63,
                    reason="np.longdouble is no wider than float64 here")
@pytest.mark.parametrize("name", ["sinh", "cosh"])
def test_sinh_cosh_from_one_on_are_within_a_few_ulps(name):
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(1, 3, 3000), rng.uniform(3, 40, 3000),
                        rng.uniform(700, 710, 1000)])
    x = np.concatenate([x, -x])
    want = getattr(np, name)(x.astype(np.longdouble))
    got = np.asarray(getattr(la, name)(la.asarray(x)))
    ulps = np.abs(got - want) / np.spacing(np.abs(want).astype(np.float64))
    assert ulps.max() < 2.7, x[np.argmax(ulps)]
