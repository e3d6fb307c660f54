"""NumPy surface: Splitting, stacking, block, index helpers (r_/c_/mgrid/ogrid/ix_/indices), insert/delete/append/resize/rot90, pad, apply_* / vectorize / piecewise / select / choose, unique and the 1-d set routines, diag/tri helpers, extra creation functions."""

__all__: list[str] = []
