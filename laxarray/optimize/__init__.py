"""Jittable minimizers (BFGS, L-BFGS) built on ``lax.while_loop``."""

from laxarray.optimize._linesearch import LineSearchResult, line_search  # noqa: F401
from laxarray.optimize._minimize import OptimizeResults, minimize  # noqa: F401

__all__ = ["minimize", "OptimizeResults", "line_search", "LineSearchResult"]
