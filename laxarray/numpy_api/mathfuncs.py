"""NumPy surface: einsum/einsum_path, convolve/correlate, products (kron/outer/inner/vdot/dot/cross/trace), polynomials, windows, extra elementwise functions, packbits/unpackbits, closeness tests."""

__all__: list[str] = []
