"""The TPU's semantics on the CPU: these tests run in their own pytest process (``make test``
starts it) with ``LAXARRAY_PLATFORM=tpu``, which makes laxarray read the TPU's backend record
(no float64 or complex128, float32 defaults, int32 indices, 32-bit tracing of 32-bit
programs) while XLA:CPU compiles.  tests/conftest.py leaves this folder out of a run without
the variable, and this file refuses a run where the record is not the TPU's (on a real TPU
it is, without the variable)."""

from laxarray._core import backend

if backend.current() is not backend.TPU:
    raise RuntimeError("tests/platform_tpu needs the TPU's backend record: run it on a TPU or "
                       "with LAXARRAY_PLATFORM=tpu set before laxarray is imported")


# ---- every program laxarray compiles here holds only the record's dtypes ----------------------

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from laxarray._core import jax_tracing as tracing  # noqa: E402
from laxarray._core.runtime import kernel as _kernel  # noqa: E402

#: kernels whose programs may hold a dtype the record lacks, each with its reason: the
#: quantiles' virtual indices from a Python float ``q`` are float64, as NumPy's (an
#: elementwise computation, which the TPU emulates; the exact positions past 2**24 elements
#: are NumPy's)
WIDE_ALLOWED = {"_quantile_kernel"}


@pytest.fixture(autouse=True)
def _no_program_holds_a_dtype_the_record_lacks(monkeypatch):
    """A float64 or complex128 value in a TPU program is at best emulated and at worst aborts
    XLA's TPU compiler (linear algebra, FFT, a complex128 convert: docs/accelerators.md):
    every program compiled in a test here is checked for the dtypes the record lists."""
    compile_program, seen = _kernel.compile_program, []
    record = backend.current()

    def checked(jitted, args):
        name = getattr(jitted, "__name__", "?")
        if name not in WIDE_ALLOWED:
            _, dtypes = tracing.program_contents(jitted.trace(*args).jaxpr)
            wide = sorted(str(d) for d in dtypes
                          if d is not None and np.dtype(d) not in record.dtypes)
            if wide:
                seen.append((name, wide))
        return compile_program(jitted, args)
    monkeypatch.setattr(_kernel, "compile_program", checked)
    yield
    assert not seen, f"programs holding dtypes the {record.platform} record lacks: {seen}"
