"""The chapter of the standard each spec belongs to, for reports grouped by chapter.

A chapter is one page of the standard's function reference (``elementwise_functions``,
``linalg`` ...), named here in short form, plus ``"numpy"`` for the NumPy surface beyond the
standard and ``"devices"`` for the checks of device placement (the standard's design
topic).  It is read from what a :class:`~laxarray.conformance.spec.Spec` already says: a
topic's kind (:data:`TOPICS`: ``"device"``), else its ``extension`` (``"numpy"``,
``"linalg"``, ``"fft"``), else its ``kind``; the few names whose kind says less than their
chapter (reductions that the standard files under utility or searching) are listed by
name.  A spec of a kind not listed falls back to :data:`FALLBACK`; a test requires that no
registered spec does.

>>> from laxarray.conformance import SPECS
>>> [chapter_of(SPECS[n]) for n in ("add", "sum", "all", "linalg.inv", "nanmean")]
['elementwise', 'statistical', 'utility', 'linalg', 'numpy']
"""

from __future__ import annotations

#: the chapters, in the order of the standard's reference (then devices, the NumPy surface).
CHAPTERS = ("array object", "constants", "creation", "data types", "elementwise",
            "indexing", "inspection", "linear algebra", "manipulation", "searching",
            "sets", "sorting", "statistical", "utility", "linalg", "fft", "devices", "numpy")

#: kinds whose chapter is theirs whatever the spec's extension (``device.fft`` is a device
#: check of an fft function).
TOPICS = {"device": "devices"}

#: the chapter of a spec that belongs to no extension, by its ``Spec.kind``.
BY_KIND = {
    "array object": "array object",
    "constant": "constants",
    "creation": "creation",
    "data type": "data types",
    "elementwise": "elementwise",
    "indexing": "indexing",
    "inspection": "inspection",
    "linear algebra": "linear algebra",
    "manipulation": "manipulation",
    "reduction": "statistical",
    "searching": "searching",
    "set": "sets",
    "sorting": "sorting",
    "utility": "utility",
}

#: names whose chapter is not their kind's (the standard's utility and searching pages).
BY_NAME = {"all": "utility", "any": "utility", "count_nonzero": "searching"}

#: the chapter of a spec of an unknown kind (reports still show it).
FALLBACK = "other"


def chapter_of(spec):
    """The chapter (one of :data:`CHAPTERS`, else :data:`FALLBACK`) of ``spec``."""
    if spec.kind in TOPICS:
        return TOPICS[spec.kind]
    if spec.extension is not None:
        return spec.extension if spec.extension in CHAPTERS else FALLBACK
    if spec.name in BY_NAME:
        return BY_NAME[spec.name]
    return BY_KIND.get(spec.kind, FALLBACK)


def chapter_of_name(name, specs):
    """The chapter of the spec called ``name`` in ``specs`` (:data:`FALLBACK` if none)."""
    spec = specs.get(name)
    return FALLBACK if spec is None else chapter_of(spec)


def order(chapters):
    """``chapters`` sorted as :data:`CHAPTERS` lists them (unknown ones last, by name)."""
    rank = {c: i for i, c in enumerate(CHAPTERS)}
    return sorted(set(chapters), key=lambda c: (rank.get(c, len(rank)), c))
