"""``sparsify``: run a dense function on sparse (BCOO/BCSR) inputs via a jaxpr interpreter."""


def sparsify(f, *, densify=False):
    """Not yet implemented."""
    raise NotImplementedError("sparsify: not yet implemented")
