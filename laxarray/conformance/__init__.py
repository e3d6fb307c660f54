"""Property-based conformance of array namespaces against NumPy and SciPy.

``SPECS`` maps each public name to a :class:`Spec`; importing this package registers all
specs.  Run them with pytest (``tests/conformance``) or ``python -m laxarray.conformance``.
"""

from laxarray.conformance import specs_creation  # noqa: F401  (registers specs)
from laxarray.conformance import specs_data_types  # noqa: F401  (registers specs)
from laxarray.conformance import specs_elementwise  # noqa: F401  (registers specs)
from laxarray.conformance import specs_linalg  # noqa: F401  (registers specs)
from laxarray.conformance import specs_linalg_products  # noqa: F401  (registers specs)
from laxarray.conformance import specs_fft  # noqa: F401  (registers specs)
from laxarray.conformance import specs_manipulation  # noqa: F401
from laxarray.conformance import specs_statistical  # noqa: F401
from laxarray.conformance import specs_indexing  # noqa: F401
from laxarray.conformance import special_cases_conversions  # noqa: F401  (bool(x), int(x)...)
from laxarray.conformance import specs_sets  # noqa: F401
from laxarray.conformance import specs_devices  # noqa: F401  (device placement)
from laxarray.conformance import specs_numpy_editing  # noqa: F401
from laxarray.conformance import specs_numpy_extras  # noqa: F401
from laxarray.conformance import specs_numpy_mathfuncs  # noqa: F401
from laxarray.conformance import specs_numpy_shaping  # noqa: F401
from laxarray.conformance import specs_numpy_statistics  # noqa: F401
from laxarray.conformance import specs_numpy_ufuncs  # noqa: F401
from laxarray.conformance.compare import ConformanceError
from laxarray.conformance.spec import SPECS, Spec

__all__ = ["SPECS", "Spec", "ConformanceError"]
