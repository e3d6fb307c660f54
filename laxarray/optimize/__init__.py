"""Jittable minimizers (BFGS, L-BFGS) built on ``lax.while_loop``."""
