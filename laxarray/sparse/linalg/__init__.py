"""Iterative solvers on BCOO/BCSR matrices, dense arrays or linear-operator callables."""
