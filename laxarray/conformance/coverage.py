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

The headings say which classes were met, not where: ties met on a 2-D input along an axis
say nothing of a 1-D input with ``axis=None``, and a bug on that path alone slips.  So a
record also counts **combinations** (:func:`combination`, :meth:`Record.table`): each
example files the value classes its arrays hold (:data:`VALUE_CLASSES`: ``ties``,
``NaN``, ``+inf``, ``-inf``, ``-0.0``, ``empty``, ``size 1``; ``any``: every example)
under the code path it took -- the rank of its first array (``0-d``, ``1-D``, ``n-D``),
its axis (``axis=None``, ``axis>=0``, ``axis<0``, ``axis tuple``, where it draws one) and
``keepdims`` (where it draws it) -- so that a report says "ties x 1-D x axis=None: 3" or
"not met", per function.  The values of its enumerated keywords (:data:`KEYWORDS`:
``descending``, ``side``, ``include_initial``, ``ord``, ...) are a second set of columns:
"ties x descending=True: 2".
"""

from __future__ import annotations

import numpy as np

from . import signatures

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


#: the value classes of the combination table, in report order (``any``: every example)
VALUE_CLASSES = ("any", "ties", "NaN", "+inf", "-inf", "-0.0", "empty", "size 1")
#: the separator of a path's parts (and of a combination's value class and path)
SEP = " x "
#: value classes no 0-d input can hold
_NOT_0D = frozenset(("ties", "empty"))
#: the labels of the enumerated keywords a spec draws (the standard's and NumPy's keyword
#: arguments that take one of a few values), filed as columns ``label=value`` of the
#: combination table (``keepdims`` is part of the path)
KEYWORDS = ("descending", "stable", "side", "include_initial", "ord", "mode", "norm",
            "correction", "invert", "full_matrices", "upper", "endpoint", "indexing",
            "copy", "equal_nan", "hermitian", "sparse", "return_index", "return_inverse",
            "return_counts", "return_indices", "assume_unique", "bitorder")
_KEYWORDS = frozenset(KEYWORDS)


def keyword(label, value):
    """The column of the combination table for a keyword's value: ``descending=True``,
    ``side='left'``, ``ord=inf``."""
    return f"{label}={value!r}" if isinstance(value, str) else f"{label}={value}"


def _value_classes(x, out):
    """Add to the set ``out`` the value classes of array ``x`` (NumPy)."""
    if x.size == 0:
        out.add("empty")
        return
    if x.size == 1:
        out.add("size 1")
    if x.dtype.kind not in "biufc":
        return
    flat = x.reshape(-1)
    if 2 <= flat.size <= 4096 and "ties" not in out:
        if x.dtype.kind in "fc":  # NaN and -0.0 by their bits, or equal by value
            if np.unique(flat.view(f"V{flat.dtype.itemsize}")).size < flat.size or \
                    np.unique(flat).size < flat.size:
                out.add("ties")
        elif np.unique(flat).size < flat.size:
            out.add("ties")
    if x.dtype.kind in "fc":
        found = {h: set() for h in HEADINGS}
        _specials(x, found)
        out.update(found["special values"])


def _rank(ndim):
    return "0-d" if ndim == 0 else "1-D" if ndim == 1 else "n-D"


def combination(drawn):
    """``(path, value classes)`` of one example's draws ``drawn`` (``(label, value)``
    pairs): ``path`` the tuple of its parts (the rank of its first array, its axis and
    keepdims where drawn; None where it drew no array), ``value classes`` the set of
    :data:`VALUE_CLASSES` its arrays hold (``any`` always).  An array drawn again as
    ``"<label> placed"`` (:func:`~laxarray.conformance.strategies.placed`) counts as
    placed, not as first drawn."""
    path, found, _ = _combination(drawn)
    return path, found


def _combination(drawn):
    """:func:`combination`'s ``(path, value classes)`` and the keyword columns (a list) of
    one example's draws."""
    arrays = {}
    axis, keepdims, keys = (), None, []
    for label, value in drawn:
        label = label or ""
        if isinstance(value, np.ndarray):
            base = label[:-len(" placed")] if label.endswith(" placed") else label
            arrays[base if base in arrays else label] = [value]
        elif isinstance(value, (tuple, list)) and value and \
                all(isinstance(v, np.ndarray) for v in value):
            arrays[label] = list(value)
        elif label == "explicit axis" and value is False and axis == ():
            axis = ("axis=None",)
        elif any(w in label for w in _AXIS_WORDS) and not label.endswith("given") and \
                axis == ():
            if value is None:
                axis = ("axis=None",)
            elif isinstance(value, tuple):
                axis = ("axis tuple",)
            elif isinstance(value, int) and not isinstance(value, bool):
                axis = ("axis<0" if value < 0 else "axis>=0",)
        elif label == "keepdims" and isinstance(value, (bool, np.bool_)):
            keepdims = "keepdims" if value else "no keepdims"
        elif label in _KEYWORDS and (value is None or
                                     isinstance(value, (bool, int, float, str))):
            keys.append(keyword(label, value))
    if not arrays:
        return None, set(), []
    first = next(iter(arrays.values()))[0]
    path = (_rank(first.ndim),) + axis + ((keepdims,) if keepdims else ())
    found = {"any"}
    for group in arrays.values():
        for x in group:
            _value_classes(x, found)
    return path, found, keys


#: the ranks of an operand in a rank pair (:func:`rank_pairs`)
RANKS = ("0-d", "1-D", "2-D", "n-D")
#: the rank pairs of two broadcast operands that a binary function's examples must meet
#: (issue 74): every rank on each side, a 1-D operand against a 2-D one both with lengths
#: equal to its own (a square: broadcast along the wrong axis gives wrong values, not an
#: error) and unequal, and a size-1 axis stretched on either side
RANK_PAIRS = tuple(
    [f"{a} x {b}" + suffix for a in RANKS for b in RANKS
     for suffix in ((", equal lengths", ", unequal lengths") if {a, b} == {"1-D", "2-D"}
                    else ("",))] +
    ["size-1 axis stretched in the first", "size-1 axis stretched in the second"])


def _pair_rank(shape):
    return RANKS[min(len(shape), 3)]


def rank_pairs(shape1, shape2):
    """The cells of :data:`RANK_PAIRS` that operands of shapes ``shape1`` and ``shape2``
    meet (none where they do not broadcast)."""
    try:
        out_shape = np.broadcast_shapes(shape1, shape2)
    except ValueError:
        return set()
    a, b = _pair_rank(shape1), _pair_rank(shape2)
    cell = f"{a} x {b}"
    if {a, b} == {"1-D", "2-D"}:
        one, two = (shape1, shape2) if a == "1-D" else (shape2, shape1)
        equal = two[0] == two[1] == one[0] and one[0] > 1
        cell += ", equal lengths" if equal else ", unequal lengths"
    out = {cell}
    for word, shape in (("first", shape1), ("second", shape2)):
        lead = len(out_shape) - len(shape)
        if any(n == 1 and out_shape[lead + i] > 1 for i, n in enumerate(shape)):
            out.add(f"size-1 axis stretched in the {word}")
    return out


#: the operand pairs of the functions whose broadcast operands are more than two, each
#: pair's rank pairs cells of their own (issue 74): ``{function: ((first, second), ...)}``,
#: a side the parameter (or ``/``-joined parameters, broadcast together) it names --
#: ``where``'s condition against the shape ``x1`` and ``x2`` broadcast to, ``clip``'s ``x``
#: against each bound given as an array.  Each cell reads ``"condition against x1/x2: 1-D
#: x 2-D, equal lengths"``; ``where``'s ``x1`` against ``x2`` keeps the binary cells
OPERAND_PAIRS = {"where": (("condition", "x1/x2"),), "clip": (("x", "min"), ("x", "max"))}
#: the functions whose first two array operands are not a pair of :data:`RANK_PAIRS`
_NO_BINARY_PAIRS = frozenset(("clip",))


def pair_cells(names):
    """The rank pair cells of a broadcasting spec checking the functions ``names``:
    :data:`RANK_PAIRS` (its two operands, or ``where``'s ``x1`` and ``x2``), and those of
    :data:`OPERAND_PAIRS` (``"x against min: 0-d x 1-D"``)."""
    names = tuple(names or ())
    out = [] if names and all(n in _NO_BINARY_PAIRS for n in names) else list(RANK_PAIRS)
    for name in names:
        for first, second in OPERAND_PAIRS.get(name, ()):
            out += [f"{first} against {second}: {cell}" for cell in RANK_PAIRS]
    return out


def _operand_shape(bound, side):
    """The shape of side ``side`` of an operand pair (``"x1/x2"``: the parameters' arrays
    broadcast together) in the arguments ``bound`` (name -> value), or None where none is
    an array."""
    shapes = [tuple(bound[p].shape) for p in side.split("/")
              if p in bound and signatures._is_array(bound[p])]
    return np.broadcast_shapes(*shapes) if shapes else None


def operand_pairs(name, args, kwargs):
    """The cells of :data:`OPERAND_PAIRS` that a call of ``name`` with ``args`` and
    ``kwargs`` met (none where they do not bind to its signature)."""
    pairs = OPERAND_PAIRS.get(name)
    sig = signatures.signature(name) if pairs else None
    if sig is None:
        return set()
    try:
        bound = sig._inspect.bind(*args, **kwargs).arguments
    except TypeError:
        return set()
    out = set()
    for first, second in pairs:
        s1, s2 = _operand_shape(bound, first), _operand_shape(bound, second)
        if s1 is not None and s2 is not None:
            out |= {f"{first} against {second}: {c}" for c in rank_pairs(s1, s2)}
    return out


class Record:
    """The coverage of one spec's examples, gathered one example at a time.

    ``functions``: the names whose calls are filed by their signatures' cells
    (:mod:`~laxarray.conformance.signatures`: which parameters were passed, with which
    kinds), the spec's own function as a rule; None: every call with a signature (the
    device specs check every call they make)."""

    def __init__(self, functions=(), broadcasting=False):
        self.classes = {h: set() for h in HEADINGS}
        self.functions = None if functions is None else frozenset(functions)
        #: ``{function: {(parameter, kind): examples}}``: the signature cells its calls met
        self.params = {}
        #: whether the spec's rank pairs are part of its cells (:data:`RANK_PAIRS`: a
        #: binary or ternary function that broadcasts)
        self.broadcasting = broadcasting
        #: ``{rank pair: examples}``: the rank pairs of its calls' last two array operands
        #: and of their :data:`OPERAND_PAIRS` (:func:`pair_cells`)
        self.pairs = {}
        #: examples run before the random phase (boundary examples)
        self.boundary = 0
        #: ``{(value class, path): examples}`` (:func:`combination`)
        self.combinations = {}
        #: ``{(value class, "label=value"): examples}``: the keywords' values met
        self.keyword_cells = {}
        #: ``{label: values}`` of the enumerated keywords the spec draws (the runner sets
        #: it from its boundary examples, :func:`~laxarray.conformance.boundaries.keywords`):
        #: each value is a column of the table, met or not
        self.keywords = {}

    def add(self, drawn, calls=()):
        """File one example's draws, and its namespace ``calls``
        (:class:`~laxarray.conformance.flushing.Call`) of :attr:`functions`; never raises
        (a record must not fail a spec)."""
        try:
            classes(drawn, self.classes)
        except Exception:  # noqa: BLE001 -- an odd draw is left out of the record
            pass
        try:
            self._add_calls(calls or ())
        except Exception:  # noqa: BLE001 -- as above
            pass
        try:
            path, found, keys = _combination(drawn)
        except Exception:  # noqa: BLE001 -- as above
            return
        if path is not None:
            for value in found:
                key = (value, path)
                self.combinations[key] = self.combinations.get(key, 0) + 1
                for column in keys:
                    key = (value, column)
                    self.keyword_cells[key] = self.keyword_cells.get(key, 0) + 1

    def _add_calls(self, calls):
        names = self.functions
        met, pairs = {}, set()
        for call in calls:
            if names is not None and call.path not in names:
                continue
            sig = signatures.signature(call.path)
            if sig is not None:
                met.setdefault(call.path, set()).update(sig.tried(call.args, call.kwargs))
            if self.broadcasting:
                tail = call.args[-2:]  # (where's condition is no operand of these, nor
                # is its condition and x2 where x1 is a Python scalar)
                if len(tail) == 2 and all(map(signatures._is_array, tail)) and \
                        call.path not in _NO_BINARY_PAIRS:
                    pairs |= rank_pairs(tuple(tail[0].shape), tuple(tail[1].shape))
                pairs |= operand_pairs(call.path, call.args, call.kwargs)
        for name, cells in met.items():
            counts = self.params.setdefault(name, {})
            for cell in cells:
                counts[cell] = counts.get(cell, 0) + 1
        for cell in pairs:
            self.pairs[cell] = self.pairs.get(cell, 0) + 1

    def untried(self, name, table=None):
        """What no example met, per kind of cell (empty kinds left out):
        ``{"parameters": ["prepend: array", ...]`` (the cells of ``name``'s signature,
        :func:`~laxarray.conformance.signatures.untried`), ``"rank pairs": ["1-D x 2-D,
        equal lengths", ...]`` (:func:`pair_cells`, for a broadcasting spec),
        ``"value classes": [...]}`` (the combination ``table``'s cells not met,
        :meth:`table`)."""
        out = {}
        params = signatures.untried(name, set(self.params.get(name, ())))
        if params:
            out["parameters"] = params
        if self.broadcasting:
            pairs = [c for c in pair_cells(self.functions) if c not in self.pairs]
            if pairs:
                out["rank pairs"] = pairs
        missing = list((table or {}).get("not met", ()))
        if missing:
            out["value classes"] = missing
        return out

    def tried(self):
        """``{function: {"parameter: kind": examples}}``: the cells of each function's
        signature its calls met (:mod:`~laxarray.conformance.signatures`), ordered as the
        signature; cells the signature does not list (a kind it does not allow) last."""
        out = {}
        for name, counts in sorted(self.params.items()):
            order = {cell: i for i, cell in enumerate(signatures.signature(name).cells())}
            out[name] = {f"{p}: {k}": n for (p, k), n in
                         sorted(counts.items(), key=lambda c: (order.get(c[0], len(order)),
                                                               c[0]))}
        return out

    def table(self):
        """The combination table: ``{"paths": [path, ...], "rows": {value class: {path:
        examples}}, "not met": ["ties x 1-D x axis=None", ...]}``, a path (``"1-D x
        axis=None x keepdims"``) for each one an example took, a row for each value class
        some example held, and the cells of those rows and paths no example met (a 0-d
        path has no ties and is never empty: not listed); ``{}`` where no example drew an
        array.  Where the spec draws enumerated keywords, also ``"keywords": ["descending=
        False", "descending=True", ...]`` (every value of :attr:`keywords`, and any other
        met) and ``"keyword rows": {value class: {"descending=True": examples}}``, their
        cells no example met in ``"not met"`` (``"ties x descending=True"``)."""
        if not self.combinations:
            return {}
        paths = sorted({p for _, p in self.combinations}, key=_path_order)
        values = [v for v in VALUE_CLASSES if any(k[0] == v for k in self.combinations)]
        rows = {v: {SEP.join(p): n for p in paths
                    for n in [self.combinations.get((v, p))] if n} for v in values}
        missing = [SEP.join((v,) + p) for v in values if v != "any" for p in paths
                   if (v, p) not in self.combinations and
                   not (p[0] == "0-d" and v in _NOT_0D)]
        columns = list(dict.fromkeys(
            [keyword(label, v) for label, vals in self.keywords.items()
             if label in _KEYWORDS for v in vals] +
            sorted({c for _, c in self.keyword_cells})))
        out = {"paths": [SEP.join(p) for p in paths], "rows": rows, "not met": missing}
        if columns:
            out["keywords"] = columns
            out["keyword rows"] = {v: {c: n for c in columns
                                       for n in [self.keyword_cells.get((v, c))] if n}
                                   for v in values}
            # (with "any": a value the spec draws that no example took)
            out["not met"] += [SEP.join((v, c)) for v in values for c in columns
                               if (v, c) not in self.keyword_cells]
        return out

    def as_dict(self):
        """``{heading: sorted list}`` of the non-empty headings, with ``boundary
        examples``: the number of boundary examples run."""
        out = {h: sorted(v, key=_order) for h, v in self.classes.items() if v}
        out["boundary examples"] = self.boundary
        return out


_PART_ORDER = {part: i for i, part in enumerate((
    "0-d", "1-D", "n-D", "axis=None", "axis>=0", "axis<0", "axis tuple", "no keepdims",
    "keepdims"))}


def _path_order(path):
    return tuple(_PART_ORDER.get(p, len(_PART_ORDER)) for p in path)


def met(table, value, *parts):
    """The examples of ``table`` (:meth:`Record.table`) that held value class ``value`` on
    a path with every one of ``parts`` (``met(t, "ties", "1-D", "axis=None")``), or with
    the keyword value ``parts`` names (``met(t, "ties", "descending=True")``: a column of
    the keywords)."""
    if len(parts) == 1 and parts[0] in table.get("keywords", ()):
        return table["keyword rows"].get(value, {}).get(parts[0], 0)
    return sum(n for path, n in table.get("rows", {}).get(value, {}).items()
               if set(parts) <= set(path.split(SEP)))


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


__all__ = ["HEADINGS", "VALUE_CLASSES", "KEYWORDS", "Record", "classes", "combination",
           "keyword", "met", "summary", "RANKS", "RANK_PAIRS", "rank_pairs", "OPERAND_PAIRS",
           "pair_cells", "operand_pairs"]
