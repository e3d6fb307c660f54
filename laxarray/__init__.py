"""laxarray: the Python Array API standard (2025.12) and the NumPy surface on jax.lax.

laxarray's dtypes are NumPy's: the default dtypes are float64/int64/complex128 on the CPU;
a TPU has no float64 or complex128, and its defaults are float32/int64/complex64
(``laxarray._core.backend``; ``docs/accelerators.md``).  Importing laxarray changes nothing
of jax's configuration: laxarray runs its own work in jax's 64-bit mode, thread-locally, and
the user's own jax code keeps the mode the user chose (``docs/jax_interop.md``).  Arrays
are immutable values behind handles; see ``laxarray.Array``.
"""

import importlib as _importlib

from laxarray._core import env_vars as _env_vars

_env_vars.check_all()   # a bad LAXARRAY_* value warns once and uses the default

from laxarray._core.dtypes import (  # noqa: E402
    bfloat16, bool_ as bool, complex64, complex128, float16, float32, float64, int8, int16,
    int32, int64, uint8, uint16, uint32, uint64, finfo_object, iinfo_object)
from laxarray._core.modes import (  # noqa: E402,F401
    RankPromotionWarning, get_host_sort, get_matmul_precision, get_rank_promotion, host_sort,
    matmul_precision, rank_promotion, set_host_sort, set_matmul_precision, set_rank_promotion)
from laxarray._core.errors import AxisError, StoreHintWarning  # noqa: E402,F401
from laxarray.array_api import *  # noqa: E402,F401,F403
from laxarray.array_api import Array, __array_namespace_info__  # noqa: E402,F401
from laxarray import fft, linalg, optimize, typing  # noqa: E402,F401
from laxarray.numpy_api import *  # noqa: E402,F401,F403
from laxarray.transforms import (grad, hessian, jacfwd, jacrev, jit, jvp,  # noqa: E402,F401
                                 value_and_grad, vjp, vmap)

__array_api_version__ = "2025.12"


def _version() -> str:
    from importlib import metadata   # local: read once, here
    try:
        return metadata.version("laxarray")
    except metadata.PackageNotFoundError:   # a source tree on sys.path, not installed
        return "0+unknown"


__version__ = _version()

# Open the executable store now: its background thread loads, while the program goes on
# importing, the executables this program's last run used (laxarray._core.runtime.prefetch).
from laxarray._core.runtime.kernel import _open_store  # noqa: E402

_open_store()
del _open_store


def __getattr__(name):
    """``laxarray.precompile``: the package (callable: ``laxarray.precompile(...)`` fills the
    executable store), imported on first use only."""
    if name == "precompile":
        return _importlib.import_module("laxarray.precompile")
    raise AttributeError(f"module 'laxarray' has no attribute {name!r}")
