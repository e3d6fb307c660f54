"""NumPy surface: pad, insert/delete/append/resize, rot90/flips, trim_zeros, apply_along_axis/apply_over_axes/vectorize/piecewise/select/choose, put/place equivalents that return new arrays, unique and the 1-d set routines."""

__all__: list[str] = []
