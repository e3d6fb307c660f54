"""Sphinx configuration of laxarray's documentation site (``make docs``; issue 55).

Built offline: no intersphinx, a theme installed as a Python package (furo), the Markdown
pages of docs/ read by MyST, the API reference generated from the code by the local
extension ``docs/_ext/laxarray_reference.py`` into ``docs/reference/`` (git-ignored).
"""

import pathlib
import sys

DOCS = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))
sys.path.insert(0, str(DOCS / "_ext"))

project = "laxarray"
author = "the laxarray developers"
copyright = "the laxarray developers"
release = version = "0.1.0"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "laxarray_reference",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store"]
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
html_title = "laxarray"
html_static_path = ["_static"]
html_css_files = ["laxarray.css"]
html_show_sourcelink = False
