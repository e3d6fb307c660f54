"""Public callables of laxarray (and its ``linalg`` and ``fft``) without a conformance spec,
each with the reason why; ``tests/conformance/test_spec_coverage.py`` requires every public
callable to have a spec in :data:`~laxarray.conformance.SPECS` or a row here.

:data:`UNSPECCED` gives the reason; NumPy's spellings of the standard's functions
(``laxarray.numpy_api.aliases.ALIASES``: the same objects) are checked by their specs.
"""

from __future__ import annotations

_TYPE = "a type, not a function of arrays (its behaviour is that of the functions' specs)"
_NUMPY_TYPE = "NumPy's scalar type or dtype class, re-exported: not laxarray's code"
_CONFIG = "laxarray's own configuration: no numeric output (tests/core, tests/array_api)"
_TRANSFORM = "a jax transformation of Array functions (tests/test_jax_transforms.py)"
_RESULT = "the named-tuple type of a linalg result (checked by that function's spec)"

#: name -> why it has no spec
UNSPECCED = {
    "Array": _TYPE, "ndarray": _TYPE + " (NumPy's name of Array)",
    "finfo_object": _TYPE + " (what finfo returns: finfo's spec)",
    "iinfo_object": _TYPE + " (what iinfo returns: iinfo's spec)",
    "dtype": _NUMPY_TYPE, "bool_": _NUMPY_TYPE, "int_": _NUMPY_TYPE, "uint": _NUMPY_TYPE,
    "single": _NUMPY_TYPE, "double": _NUMPY_TYPE, "csingle": _NUMPY_TYPE,
    "cdouble": _NUMPY_TYPE, "generic": _NUMPY_TYPE, "number": _NUMPY_TYPE,
    "integer": _NUMPY_TYPE, "signedinteger": _NUMPY_TYPE, "unsignedinteger": _NUMPY_TYPE,
    "inexact": _NUMPY_TYPE, "floating": _NUMPY_TYPE, "complexfloating": _NUMPY_TYPE,
    "character": _NUMPY_TYPE, "flexible": _NUMPY_TYPE, "object_": _NUMPY_TYPE,
    "ufunc": _TYPE + " (the ufunc methods have specs: add.reduce, ...)",
    "AxisError": "an exception class (tests/test_errors_match_numpy.py)",
    "RankPromotionWarning": "a warning class of the rank-promotion guard",
    "StoreHintWarning": "a warning class: the hint that the executable store is empty",
    "linalg.LinAlgError": "an exception class (linalg specs expect ValueError subclasses)",
    "linalg.EigResult": _RESULT, "linalg.EighResult": _RESULT, "linalg.QRResult": _RESULT,
    "linalg.SVDResult": _RESULT, "linalg.SlogdetResult": _RESULT,
    "linalg.LstsqResult": _RESULT,
    "get_host_sort": _CONFIG, "set_host_sort": _CONFIG, "host_sort": _CONFIG,
    "get_rank_promotion": _CONFIG, "set_rank_promotion": _CONFIG, "rank_promotion": _CONFIG,
    "get_matmul_precision": _CONFIG, "set_matmul_precision": _CONFIG,
    "matmul_precision": _CONFIG,
    "get_printoptions": "NumPy's own print options, re-exported: no numeric output",
    "set_printoptions": "NumPy's own print options, re-exported: no numeric output",
    "printoptions": "NumPy's own print options, re-exported: no numeric output",
    "iterable": "NumPy's own np.iterable, re-exported: not laxarray's code",
    "grad": _TRANSFORM, "value_and_grad": _TRANSFORM, "jacfwd": _TRANSFORM,
    "jacrev": _TRANSFORM, "jit": _TRANSFORM, "vmap": _TRANSFORM, "hessian": _TRANSFORM,
    "vjp": _TRANSFORM, "jvp": _TRANSFORM,
    "fromfile": ("reads a file on disk (a spec writes no files); the same NumPy reader as "
                 "frombuffer and fromstring, which have specs"),
    "frompyfunc": ("wraps a Python callable into an object ufunc: NumPy's object arrays, "
                   "which no array namespace of the standard has (tests/numpy_api)"),
}

__all__ = ["UNSPECCED"]
