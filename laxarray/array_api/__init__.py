"""The Array API standard's namespace, one module per chapter of the spec."""

from laxarray.array_api import _operators  # noqa: F401  (installs Array operators)
from laxarray.array_api._array import Array
from laxarray.array_api.constants import *  # noqa: F401,F403
from laxarray.array_api.creation import *  # noqa: F401,F403
from laxarray.array_api.data_types import *  # noqa: F401,F403
from laxarray.array_api.elementwise import *  # noqa: F401,F403
from laxarray.array_api.elementwise_math import *  # noqa: F401,F403
from laxarray.array_api.info import __array_namespace_info__  # noqa: F401
from laxarray.array_api.linear_algebra import *  # noqa: F401,F403
from laxarray.array_api.manipulation import *  # noqa: F401,F403
from laxarray.array_api.indexing_functions import *  # noqa: F401,F403
from laxarray.array_api.statistical import *  # noqa: F401,F403
from laxarray.array_api.sorting import *  # noqa: F401,F403
from laxarray.array_api.searching import *  # noqa: F401,F403
from laxarray.array_api.sets import *  # noqa: F401,F403
