"""Client tests: scikit-learn and SciPy dispatching to laxarray through the array API.

SciPy reads ``SCIPY_ARRAY_API`` once, when it is first imported (scikit-learn refuses
``array_api_dispatch=True`` unless SciPy saw it). Setting it here covers
``pytest tests/clients``; because another test module may import SciPy before this directory
is collected, ``tests/conftest.py`` sets it as well, before anything imports SciPy.
``test_scipy_array_api_is_enabled`` fails loudly if SciPy still missed it.
"""

import os

os.environ.setdefault("SCIPY_ARRAY_API", "1")
