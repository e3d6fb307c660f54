"""Where a ``# MARK-...`` comment sits in a test file: the ``file:line`` checkify names."""


def marked_line(path, marker):
    """1-based number of the line of ``path`` that carries the comment ``# <marker>``."""
    with open(path) as fh:
        for n, text in enumerate(fh, 1):
            if f"# {marker}" in text:
                return n
    raise AssertionError(f"no '# {marker}' in {path}")
