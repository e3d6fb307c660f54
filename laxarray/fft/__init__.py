"""laxarray.fft: the Array API fft extension (2025.12) and numpy.fft's 2-d transforms,
on ``jax.lax.fft``, with NumPy 2's ``n``/``s``/``axes``/``norm`` semantics."""

from laxarray.fft.complex_transforms import fft, fft2, fftn, ifft, ifft2, ifftn
from laxarray.fft.helpers import fftfreq, fftshift, ifftshift, rfftfreq
from laxarray.fft.hermitian_transforms import hfft, ihfft
from laxarray.fft.real_transforms import irfft, irfft2, irfftn, rfft, rfft2, rfftn

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift", "fft2", "ifft2", "rfft2", "irfft2"]
