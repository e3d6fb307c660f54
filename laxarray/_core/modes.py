"""The library's modes, per process or per context: the rank-promotion guard (``allow`` /
``warn`` / ``raise``), the host paths of sorting and sparse products (below), and the
matrix-product precision (last).

``set_*`` sets a setting for the process; the context managers (``rank_promotion``,
``host_sort``) set it for their ``with`` block in the current context only (a
``contextvars`` variable: another thread, or another asyncio task, keeps its own value).

Implicit rank promotion (broadcasting a rank-1 array against a rank-2 one, say) is
NumPy's rule and a frequent source of silent bugs; as in jax
(``jax_numpy_rank_promotion``), laxarray can warn or raise when an operation broadcasts
operands of different non-zero ranks.  Set it with the environment variable
``LAXARRAY_RANK_PROMOTION``, :func:`set_rank_promotion`, or the :func:`rank_promotion`
context manager.  0-d operands never count as promotion.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
import warnings

from laxarray._core.docstrings import fill
from laxarray._core.errors import fail, fail_text
from laxarray._core.validate import check_bool
from laxarray._core import env_vars as _env_vars

MODES = ("allow", "warn", "raise")

# ---- the docstring parts the three settings' get/set/block functions share ----------------

_TRACED = """
    Notes
    -----
    Static under ``jax.jit``: not applicable: the setting is read when a function is traced.
"""
_BLOCK = """
    Returns
    -------
    context manager
        For this thread (or asyncio task) only.
"""
_MODE = """
    mode : {'allow', 'warn', 'raise'}
        What an implicit rank promotion (operands of different non-zero ranks broadcast
        together) does: nothing (the default, NumPy's rule), a ``RankPromotionWarning``, or
        a ``ValueError``.
"""
_ENABLED = """
    enabled : bool
        True (the default setting): sorting and selection (NumPy), ``bincount`` and sparse @
        sparse, sparse +/- sparse (SciPy) on the CPU backend take their declared host paths,
        in a callback under ``jax.jit``; False: every sort is ``lax.sort`` and every sparse
        product, sum and difference the lax kernel (what ``jax.export`` needs).
"""
_PRECISION = """
    precision : {'highest', 'tf32', 'default'}
        ``'highest'`` (the default: float32 products as accurate as NumPy's), ``'tf32'``
        (TensorFloat-32 on GPUs that have it: faster, about 1e-3 relative error) or
        ``'default'`` (the backend's default: TF32 on recent NVIDIA GPUs, one bfloat16 pass
        on a TPU).  On the CPU all three give the same results.
"""


class RankPromotionWarning(UserWarning):
    """An operation broadcast operands of different ranks (``rank_promotion('warn')``)."""


def _valid(fn, mode):
    if mode not in MODES:
        fail(ValueError, fn, f"'mode' one of {MODES}", mode)
    return mode


class _Scoped:
    """A process-wide value with a per-context override for ``with`` blocks (``contextvars``:
    each thread and asyncio task sees its own block's value).  ``open``: how many blocks are
    open in any context, so hot paths can skip the lookup while none is."""

    def __init__(self, name, value):
        self.value = value
        self.var = contextvars.ContextVar(f"laxarray_{name}", default=self)
        self.open = 0
        self._lock = threading.Lock()

    def get(self):
        found = self.var.get()
        return self.value if found is self else found

    @contextlib.contextmanager
    def block(self, value, changed=None):
        token = self.var.set(value)
        with self._lock:
            self.open += 1
        if changed is not None:
            changed()
        try:
            yield
        finally:
            self.var.reset(token)
            with self._lock:
                self.open -= 1
            if changed is not None:
                changed()


_RANK = _Scoped("rank_promotion", _env_vars.value("LAXARRAY_RANK_PROMOTION"))
#: whether any thread may need the check (the process' mode is not ``allow``, or a
#: ``rank_promotion`` block is open somewhere), read on the eager fast paths.
ACTIVE = _RANK.value != "allow"


def _rank_changed():
    global ACTIVE
    ACTIVE = _RANK.value != "allow" or _RANK.open > 0


@fill(traced=_TRACED)
def get_rank_promotion():
    """Return the rank-promotion mode in force here.

    jax: (the ``jax_numpy_rank_promotion`` setting, for laxarray only).

    Returns
    -------
    str
        ``'allow'``, ``'warn'`` or ``'raise'``: a :func:`rank_promotion` block's, else the
        process's setting.

    {traced}

    Examples
    --------
    >>> import laxarray as la
    >>> la.get_rank_promotion()
    'allow'
    """
    return _RANK.get()


@fill(mode=_MODE, traced=_TRACED)
def set_rank_promotion(mode):
    """Set the rank-promotion mode for the process.

    jax: (the ``jax_numpy_rank_promotion`` setting, for laxarray only).

    Parameters
    ----------
    {mode}

    Returns
    -------
    None
        From now on, in every thread, outside :func:`rank_promotion` blocks.

    Raises
    ------
    ValueError
        If ``mode`` is not one of the three.

    {traced}

    A :func:`rank_promotion` block still decides inside it.  jax's own configuration is not
    changed.

    Examples
    --------
    >>> import laxarray as la
    >>> la.set_rank_promotion("raise")
    >>> la.add(la.ones(3), la.ones((2, 3)))
    Traceback (most recent call last):
        ...
    ValueError: add: operands of shapes (3,), (2, 3) would broadcast by implicit rank
    promotion ...
    >>> la.set_rank_promotion("allow")
    """
    _RANK.value = _valid("set_rank_promotion", mode)
    _rank_changed()


@fill(mode=_MODE, block=_BLOCK, traced=_TRACED)
def rank_promotion(mode):
    """Set the rank-promotion mode inside a ``with`` block.

    jax: jax.numpy_rank_promotion (for laxarray only).

    Parameters
    ----------
    {mode}

    {block}

    Raises
    ------
    ValueError
        If ``mode`` is not one of the three.

    {traced}

    Examples
    --------
    >>> import laxarray as la
    >>> with la.rank_promotion("raise"):
    ...     la.add(la.ones(3), la.ones((2, 3)))
    Traceback (most recent call last):
        ...
    ValueError: add: operands of shapes (3,), (2, 3) would broadcast by implicit rank
    promotion ...
    >>> la.add(la.ones(3), la.ones((2, 3))).shape
    (2, 3)
    """
    return _RANK.block(_valid("rank_promotion", mode), _rank_changed)


def check_ranks(fn, *shapes):
    """Warn or raise (per the mode) if ``shapes`` of different non-zero ranks broadcast."""
    if not ACTIVE:
        return
    mode = _RANK.get()
    ranks = {len(s) for s in shapes if len(s)}
    if len(ranks) <= 1 or mode == "allow":
        return
    text = (f"operands of shapes {', '.join(str(tuple(s)) for s in shapes)} would broadcast "
            "by implicit rank promotion (rank_promotion is "
            f"{mode!r}); use expand_dims/reshape to make the ranks equal")
    if mode == "raise":
        fail_text(ValueError, fn, text)
    warnings.warn(f"{fn}: {text}", RankPromotionWarning, stacklevel=4)


# ---- host sorting ------------------------------------------------------------------------
#
# XLA's CPU sort is a comparison sort with a general comparator: on 10**6 float64 values it
# takes 10-30x NumPy's time.  On the CPU backend laxarray therefore sorts and selects with
# NumPy in a host callback (``jax_host_calls.host_call``), eagerly and under
# ``jax.jit``/``vmap``, and differentiates through the permutation.  The lax path stays for
# other backends, for arrays sharded over several devices, and when this switch is off --
# which ``jax.export`` needs, since a program with a host callback cannot be serialized.

_HOST_SORT = _Scoped("host_sort", _env_vars.value("LAXARRAY_HOST_SORT"))


@fill(traced=_TRACED)
def get_host_sort():
    """Return whether the CPU host paths (NumPy sorting, SciPy sparse products) are on here.

    Returns
    -------
    bool
        A :func:`host_sort` block's setting, else the process's (default True).

    {traced}

    Examples
    --------
    >>> import laxarray as la
    >>> la.get_host_sort()
    True
    """
    return _HOST_SORT.get()


@fill(enabled=_ENABLED, traced=_TRACED)
def set_host_sort(enabled):
    """Turn the CPU host paths (sorting, selection, sparse products) on or off for the process.

    Parameters
    ----------
    {enabled}

    Returns
    -------
    None
        From now on, in every thread, outside :func:`host_sort` blocks.

    Raises
    ------
    TypeError
        If ``enabled`` is not a bool.

    {traced}

    Every kernel's declared host path (``_core/runtime/host_path.py``; the table in
    ``docs/performance.md``), ``bincount``'s and the sparse products', sums' and
    differences'.  A :func:`host_sort` block still decides inside it.

    Examples
    --------
    >>> import laxarray as la
    >>> la.set_host_sort(False)
    >>> la.get_host_sort()
    False
    >>> la.set_host_sort(True)
    """
    _HOST_SORT.value = check_bool("set_host_sort", enabled, "enabled")


@fill(enabled=_ENABLED, block=_BLOCK, traced=_TRACED)
def host_sort(enabled):
    """Turn the CPU host paths on or off inside a ``with`` block.

    Parameters
    ----------
    {enabled}

    {block}

    Raises
    ------
    TypeError
        If ``enabled`` is not a bool.

    {traced}

    Examples
    --------
    >>> import laxarray as la
    >>> with la.host_sort(False):
    ...     la.sort(la.asarray([3, 1, 2]))
    Array([1, 2, 3])
    """
    return _HOST_SORT.block(check_bool("host_sort", enabled, "enabled"))


# ---- matrix-product precision ------------------------------------------------------------
#
# XLA's GPU backend computes float32 matrix products and convolutions in TF32 by default on
# recent NVIDIA chips (a 10-bit mantissa: about 1e-3 relative error, where NumPy's float32
# gives about 1e-7); TPUs default to one bfloat16 pass.  laxarray's default is NumPy's
# grade.  The kernel helper traces every kernel body under this setting
# (``numerics.with_matmul_precision``), so a product, einsum, linalg routine or convolution
# whose ``dot_general``/``conv_general_dilated`` names no precision takes it.

#: laxarray's names for the settings -> jax's ``jax_default_matmul_precision`` values.
MATMUL_PRECISIONS = {"highest": "highest", "tf32": "tensorfloat32", "default": "default"}


def _valid_precision(fn, name):
    if not isinstance(name, str) or name not in MATMUL_PRECISIONS:
        fail(ValueError, fn, f"'precision' one of {tuple(MATMUL_PRECISIONS)}", name)
    return name


#: the setting: the process' value (``PRECISION.value``) and a ``matmul_precision`` block's
#: per-context one; ``PRECISION.open`` says whether any block is open (the kernel helper
#: then looks the setting up per call)
PRECISION = _Scoped("matmul_precision", _env_vars.value("LAXARRAY_MATMUL_PRECISION"))
MATMUL_PRECISION = PRECISION.value  # the process' value (set_matmul_precision)


@fill(traced=_TRACED)
def get_matmul_precision():
    """Return the precision of floating-point matrix products in force here.

    jax: (the ``jax_default_matmul_precision`` setting, for laxarray only).

    Returns
    -------
    str
        ``'highest'``, ``'tf32'`` or ``'default'`` (see :func:`set_matmul_precision`): a
        :func:`matmul_precision` block's, else the process's setting.

    {traced}

    It governs matrix products, einsum, linalg and convolutions.

    Examples
    --------
    >>> import laxarray as la
    >>> la.get_matmul_precision()
    'highest'
    >>> with la.matmul_precision("default"):
    ...     la.get_matmul_precision()
    'default'
    """
    return PRECISION.get()


@fill(precision=_PRECISION, traced=_TRACED)
def set_matmul_precision(precision):
    """Set the precision of floating-point matrix products for the process.

    jax: (the ``jax_default_matmul_precision`` setting, for laxarray only).

    Parameters
    ----------
    {precision}

    Returns
    -------
    None
        From now on, in every thread, outside :func:`matmul_precision` blocks.

    Raises
    ------
    ValueError
        If ``precision`` is not one of the three.

    {traced}

    It governs matrix products, einsum, linalg and convolutions; a :func:`matmul_precision`
    block still decides inside it.  Also ``LAXARRAY_MATMUL_PRECISION`` at start-up.  Each
    setting has its own compiled kernels.  jax's own configuration is not changed.

    Examples
    --------
    >>> import laxarray as la
    >>> la.set_matmul_precision("default")
    >>> la.get_matmul_precision()
    'default'
    >>> la.set_matmul_precision("highest")
    """
    global MATMUL_PRECISION
    MATMUL_PRECISION = PRECISION.value = _valid_precision("set_matmul_precision", precision)
    for hook in _ON_PRECISION:
        hook(MATMUL_PRECISION)


_ON_PRECISION = []


def on_matmul_precision(hook) -> None:
    """Call ``hook(precision)`` after every change of the process' setting (the kernel
    helper switches its tables of executables)."""
    _ON_PRECISION.append(hook)


@fill(precision=_PRECISION, block=_BLOCK, traced=_TRACED)
def matmul_precision(precision):
    """Set the precision of floating-point matrix products inside a ``with`` block.

    jax: jax.default_matmul_precision (for laxarray only).

    Parameters
    ----------
    {precision}

    {block}

    Raises
    ------
    ValueError
        If ``precision`` is not one of the three.

    {traced}

    Examples
    --------
    >>> import laxarray as la
    >>> with la.matmul_precision("default"):
    ...     la.get_matmul_precision()
    'default'
    >>> la.get_matmul_precision()
    'highest'
    """
    return PRECISION.block(_valid_precision("matmul_precision", precision))
