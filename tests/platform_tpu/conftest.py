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
