"""Conformance specs (extension "numpy") for laxarray.numpy_api.editing."""
