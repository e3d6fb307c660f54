"""The coverage record of a spec: which classes of input its examples exercised.

A pass says what it covered: the runner reads every example's draws (boundary, random and
pinned alike; ``(label, value)`` pairs, :class:`~laxarray.conformance.flushing.Draws`) and
files them under a few headings (:data:`HEADINGS`):

- ``dtypes``: the dtype of each dtype draw; ``dtype pairs``: each pair a binary spec drew;
- ``ranks``: the rank of each array argument; ``sizes``: ``empty`` (no element),
  ``size 1``, ``batch`` (a batch draw of more than one element, or an array of rank 3 or
  more);
- ``axes``: ``None``, ``negative``, ``non-negative``, ``tuple`` for each draw whose label
  names an axis, and ``keepdims``;
- ``offsets``: the sign of ``k``/``offset`` (``k<0``, ``k=0``, ``k>0``);
- ``ties``: ``repeated values`` where an array of two or more elements repeats one;
- ``special values``: ``NaN``, ``+inf``, ``-inf``, ``-0.0`` found in a floating array.

:func:`classes` files one example; a :class:`Record` gathers them per spec.
"""

from __future__ import annotations

import numpy as np

#: the headings of a coverage record, in report order
HEADINGS = ("dtypes", "dtype pairs", "ranks", "sizes", "axes", "offsets", "ties",
            "special values")

_DTYPE_LABELS = ("dtype", "dtypes", "x dtype", "dtype given")
_AXIS_WORDS = ("axis", "axes", "source", "destination")
_OFFSETS = ("k", "offset")
_SPECIALS = ("NaN", "+inf", "-inf", "-0.0")
_NAMES = frozenset(("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                    "uint64", "float32", "float64", "complex64", "complex128"))


def _array_classes(x, out):
    """File array ``x`` (NumPy) under ``out`` (heading -> set)."""
    out["ranks"].add(str(x.ndim))
    if x.size == 0:
        out["sizes"].add("empty")
    elif x.size == 1:
        out["sizes"].add("size 1")
    if x.ndim >= 3 and x.size:
        out["sizes"].add("batch")
    if x.dtype.kind not in "biufc" or x.size < 2:
        if x.dtype.kind in "fc" and x.size:
            _specials(x, out)
        return
    flat = x.reshape(-1)
    if flat.size <= 4096 and not out["ties"]:   # (a record gains each class once: an
        # example's arrays are not searched again for what an earlier one showed)
        if x.dtype.kind in "fc":
            view = flat.view(f"V{flat.dtype.itemsize}")  # NaN and -0.0 by their bits
            if np.unique(view).size < flat.size or np.unique(flat).size < flat.size:
                out["ties"].add("repeated values")
        elif np.unique(flat).size < flat.size:
            out["ties"].add("repeated values")
    if x.dtype.kind in "fc":
        _specials(x, out)


def _specials(x, out):
    have = out["special values"]
    if len(have) == len(_SPECIALS):
        return
    parts = (x.real, x.imag) if x.dtype.kind == "c" else (x,)
    for p in parts:
        if "NaN" not in have and np.isnan(p).any():
            have.add("NaN")
        if "+inf" not in have and np.isposinf(p).any():
            have.add("+inf")
        if "-inf" not in have and np.isneginf(p).any():
            have.add("-inf")
        if "-0.0" not in have and ((p == 0) & np.signbit(p)).any():
            have.add("-0.0")


def classes(drawn, out=None):
    """``{heading: set}`` of the classes the draws ``drawn`` (``(label, value)`` pairs of
    one example) exercised, added to ``out`` when given."""
    out = out if out is not None else {h: set() for h in HEADINGS}
    for label, value in drawn:
        label = label or ""
        if label in _DTYPE_LABELS:
            if isinstance(value, str) and value in _NAMES:
                out["dtypes"].add(value)
            elif isinstance(value, (tuple, list)) and value and \
                    all(isinstance(v, str) and v in _NAMES for v in value):
                out["dtypes"].update(value)
                if len(value) == 2:
                    out["dtype pairs"].add(f"{value[0]}+{value[1]}")
        elif isinstance(value, np.ndarray):
            _array_classes(value, out)
        elif label.startswith("batch") and isinstance(value, tuple) and \
                all(isinstance(n, int) for n in value) and int(np.prod(value)) > 1:
            out["sizes"].add("batch")
        elif any(w in label for w in _AXIS_WORDS) and not label.endswith("given"):
            if value is None:
                out["axes"].add("None")
            elif isinstance(value, tuple):
                out["axes"].add("tuple")
            elif isinstance(value, int) and not isinstance(value, bool):
                out["axes"].add("negative" if value < 0 else "non-negative")
        elif label == "keepdims" and value is True:
            out["axes"].add("keepdims")
        elif label in _OFFSETS and isinstance(value, int) and not isinstance(value, bool):
            out["offsets"].add("k<0" if value < 0 else "k>0" if value > 0 else "k=0")
        elif isinstance(value, (tuple, list)) and value and \
                all(isinstance(v, np.ndarray) for v in value):
            for v in value:
                _array_classes(v, out)
    return out


class Record:
    """The coverage of one spec's examples, gathered one example at a time."""

    def __init__(self):
        self.classes = {h: set() for h in HEADINGS}
        #: examples run before the random phase (boundary examples)
        self.boundary = 0

    def add(self, drawn):
        """File one example's draws; never raises (a record must not fail a spec)."""
        try:
            classes(drawn, self.classes)
        except Exception:  # noqa: BLE001 -- an odd draw is left out of the record
            pass

    def as_dict(self):
        """``{heading: sorted list}`` of the non-empty headings, with ``boundary
        examples``: the number of boundary examples run."""
        out = {h: sorted(v, key=_order) for h, v in self.classes.items() if v}
        out["boundary examples"] = self.boundary
        return out


def _order(item):
    return (len(item), item) if item.isdigit() else (0, item)


def summary(record):
    """One line of a coverage record (a dict, :meth:`Record.as_dict`) for the text report:
    ``"13 dtypes, 72 pairs, ranks 0-3, empty, batch, axes None/negative/keepdims, ..."``."""
    if not record:
        return ""
    parts = []
    if record.get("dtypes"):
        parts.append(f"{len(record['dtypes'])} dtypes")
    if record.get("dtype pairs"):
        parts.append(f"{len(record['dtype pairs'])} pairs")
    ranks = record.get("ranks")
    if ranks:
        parts.append("ranks " + ",".join(ranks))
    for heading in ("sizes", "ties", "special values"):
        if record.get(heading):
            parts.append("/".join(record[heading]))
    if record.get("axes"):
        parts.append("axes " + "/".join(record["axes"]))
    if record.get("offsets"):
        parts.append("/".join(record["offsets"]))
    if record.get("boundary examples"):
        parts.append(f"{record['boundary examples']} boundary examples")
    return ", ".join(parts)


__all__ = ["HEADINGS", "Record", "classes", "summary"]
