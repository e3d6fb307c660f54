"""Sphinx configuration of laxarray's documentation site (``make docs``; issue 55).

Built offline: a theme installed as a Python package (furo), the Markdown pages of docs/
read by MyST, the API reference generated from the code by the local extension
``docs/_ext/laxarray_reference.py`` into ``docs/reference/`` (git-ignored), the docstrings'
numpydoc sections (Parameters, Returns, Raises, Notes, Examples) read by napoleon, and
NumPy's names linked to NumPy's pages through intersphinx with the inventory kept in the
repository (``docs/_intersphinx/numpy.inv``, written by ``tools/numpy_inventory.py``):
nothing is downloaded. The version shown on every page is the installed package's.
"""

import pathlib
import sys

DOCS = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))
sys.path.insert(0, str(DOCS / "_ext"))

import laxarray  # noqa: E402  (after the path above: this tree's laxarray)

project = "laxarray"
author = "the laxarray developers"
copyright = "the laxarray developers"
release = laxarray.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
    "laxarray_reference",
    "laxarray_numpy_gaps",   # docs/_generated/numpy_missing.md, for numpy_missing.md
]

# numpydoc docstrings (STYLE convention 6): NumPy's section names, no Google style
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
# a class's Attributes section as fields, not attribute directives: the reference documents
# the attributes themselves (a second description is a duplicate-object warning)
napoleon_use_ivar = True

# NumPy's pages for NumPy's names, from the inventory kept in the repository (offline)
intersphinx_mapping = {"numpy": ("https://numpy.org/doc/2.4/", "_intersphinx/numpy.inv")}
intersphinx_disabled_reftypes = ["std:doc", "std:label"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "_generated", "_intersphinx", "Thumbs.db", ".DS_Store"]
templates_path = []

# MyST: the pages are plain CommonMark with GitHub tables; headings get anchors so that
# links such as ``sparse.md#more-than-one-device`` resolve
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

# autodoc: signatures as the code has them; docstrings as written (reST-ish prose)
autodoc_member_order = "bysource"
autodoc_typehints = "none"
autodoc_inherit_docstrings = False

html_theme = "furo"
html_title = f"laxarray {release}"   # on every page (the sidebar's title)
html_static_path = ["_static"]
html_css_files = ["laxarray.css"]
html_show_sourcelink = False
