"""Guard rails: the rank-promotion setting and laxarray.typing."""

import os
import subprocess
import sys
import typing
import warnings

import jax
import numpy as np
import pytest

import laxarray as la


def test_rank_promotion_raise_and_warn_and_allow():
    a, b = la.ones((2, 3)), la.ones(3)
    with la.rank_promotion("raise"):
        with pytest.raises(ValueError, match="add.*rank promotion"):
            la.add(a, b)
        with pytest.raises(ValueError, match="multiply.*rank promotion"):
            a * np.ones(3)  # the general (non-laxarray operand) path too
        # equal ranks, 0-d operands and Python scalars are not promotion
        np.testing.assert_array_equal(np.asarray(a + la.ones((1, 3))), np.full((2, 3), 2.0))
        np.testing.assert_array_equal(np.asarray(a + la.asarray(1.0) + 1), np.full((2, 3), 3.0))
        with pytest.raises(ValueError, match="rank promotion"):  # checked when traced too
            jax.jit(lambda x, y: x - y)(a, b)
    with la.rank_promotion("warn"):
        with pytest.warns(la.RankPromotionWarning, match="subtract"):
            la.subtract(a, b)
    assert la.get_rank_promotion() == "allow"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(np.asarray(a + b), np.full((2, 3), 2.0))


def test_rank_promotion_rejects_unknown_modes():
    with pytest.raises(ValueError, match="set_rank_promotion.*mode"):
        la.set_rank_promotion("sometimes")
    assert la.get_rank_promotion() == "allow"


def test_rank_promotion_environment_variable():
    code = ("import laxarray as la\n"
            "try:\n    la.ones((2, 3)) + la.ones(3)\nexcept ValueError as e:\n    print('raised')")
    env = dict(os.environ, LAXARRAY_RANK_PROMOTION="raise", JAX_PLATFORMS="cpu")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "raised"


def test_typing_names():
    assert la.typing.Array is la.Array
    members = typing.get_args(la.typing.ArrayLike)
    assert la.Array in members and np.ndarray in members and float in members
    assert np.dtype in typing.get_args(la.typing.DTypeLike)
