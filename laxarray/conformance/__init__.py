"""Property-based conformance of array namespaces against NumPy and SciPy.

``SPECS`` maps each public name to a :class:`Spec`; importing this package registers all
specs.  Run them with pytest (``tests/conformance``) or ``python -m laxarray.conformance``.
It imports nothing of laxarray (nor jax): the same tree installs on its own as the
distribution ``array-api-conformance`` (``dist/conformance``), whose top-level package is
this directory, ``python -m array_api_conformance``.
"""

from . import specs_creation  # noqa: E402,F401  (registers specs)
from . import specs_data_types  # noqa: E402,F401  (registers specs)
from . import specs_elementwise  # noqa: E402,F401  (registers specs)
from . import specs_linalg  # noqa: E402,F401  (registers specs)
from . import specs_linalg_products  # noqa: E402,F401  (registers specs)
from . import specs_fft  # noqa: E402,F401  (registers specs)
from . import specs_manipulation  # noqa: E402,F401
from . import specs_statistical  # noqa: E402,F401
from . import specs_indexing  # noqa: E402,F401
from . import special_cases_conversions  # noqa: E402,F401  (bool(x), int(x)...)
from . import specs_sets  # noqa: E402,F401
from . import specs_devices  # noqa: E402,F401  (device placement)
from . import specs_numpy_editing  # noqa: E402,F401
from . import specs_numpy_extras  # noqa: E402,F401
from . import specs_numpy_mathfuncs  # noqa: E402,F401
from . import specs_numpy_shaping  # noqa: E402,F401
from . import specs_numpy_statistics  # noqa: E402,F401
from . import specs_numpy_ufuncs  # noqa: E402,F401
from .compare import ConformanceError  # noqa: E402
from .spec import SPECS, Spec  # noqa: E402

__all__ = ["SPECS", "Spec", "ConformanceError"]
