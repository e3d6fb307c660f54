"""The signatures the runner draws from, and what a call of one tried (issue 74).

Every parameter of a function is drawn with every kind its signature allows: its *cells*
(:attr:`Param.cells`), read from the signature --

- the standard's functions: the 2025.12 signatures, shipped here as the stubs write them
  (:mod:`~laxarray.conformance.signatures_table`); a parameter's annotation gives its
  kinds (``Union[array, int, float, complex, bool]``: ``array``, ``int``, ``float``,
  ``complex``, ``bool``; ``Union[int, Tuple[int, ...]]``: ``int``, ``tuple``;
  ``Optional[...]``: ``None`` too; ``bool``: ``True`` and ``False``; ``Literal['left',
  'right']``: each value), a default adds ``omitted`` (the keyword not passed), and a
  parameter that may be passed by position or by keyword has both forms (``positional``,
  ``keyword``);
- the NumPy surface's functions: NumPy's own signatures (:func:`numpy_signature`, by
  :func:`inspect.signature`), which name no types: a parameter with a default is
  ``passed`` and ``omitted`` (``True`` and ``False`` where the default is a bool).

:func:`tried` reads, from the recorded calls of an example
(:class:`~laxarray.conformance.flushing.Call`), the cells each call met (the value of each
argument classified by :func:`kind_of`); the coverage record gathers them, and the
reports say, per function, the cells no example met (:func:`untried`).

>>> sig = signature("moveaxis")
>>> [(p.name, p.cells) for p in sig.params]
[('x', ('array',)), ('source', ('int', 'tuple')), ('destination', ('int', 'tuple'))]
>>> signature("diff").param("prepend").cells
('array', 'None', 'omitted')
>>> kind_of(2.5, signature("where").param("x2").cells)
'float'
"""

from __future__ import annotations

import ast
import functools
import inspect
import math
import pathlib
import re
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from .signatures_table import STANDARD

#: the kinds a Python scalar is filed under (``bool`` before ``int``: a bool is an int)
SCALARS = ("bool", "int", "float", "complex")
#: the form of an argument that may be passed by position or by keyword
FORMS = ("positional", "keyword")
#: the cell of a keyword not passed (its default)
OMITTED = "omitted"
#: the kinds of :func:`numpy_signature`'s parameters (no types: passed or not)
PASSED = "passed"

_NAMED = {"array": ("array",), "int": ("int",), "float": ("float",), "complex": ("complex",),
          "bool": ("bool",), "dtype": ("dtype",), "device": ("device",), "str": ("str",),
          "object": ("object",), "NestedSequence": ("nested sequence",),
          "SupportsBufferProtocol": ("buffer",), "None": ("None",)}


@dataclass(frozen=True)
class Param:
    """One parameter: its ``name``, ``kind`` (an :class:`inspect.Parameter` kind name),
    ``default`` (its source text, None where required), ``annotation`` (the stub's text,
    None for NumPy's) and ``cells``: the kinds that must be drawn (see the module
    docstring)."""

    name: str
    kind: str
    default: str | None
    annotation: str | None
    cells: tuple


@dataclass(frozen=True)
class Signature:
    """The parameters of one function (``name``, dotted: ``linalg.solve``; ``source``:
    ``"standard"`` or ``"numpy"``)."""

    name: str
    params: tuple
    source: str = "standard"

    def param(self, name):
        """The :class:`Param` called ``name``."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(f"signature: expected a parameter of {self.name}; got {name!r}")

    @functools.cached_property
    def _inspect(self):
        params = []
        for p in self.params:
            kind = getattr(inspect.Parameter, p.kind)
            default = inspect.Parameter.empty if p.default is None else p.default
            params.append(inspect.Parameter(p.name, kind, default=default))
        return inspect.Signature(params)

    def cells(self):
        """``[(parameter, kind), ...]``: every cell of every parameter, in order."""
        return [(p.name, c) for p in self.params for c in p.cells]

    def tried(self, args, kwargs):
        """``{(parameter, kind)}``: the cells a call with ``args`` and ``kwargs`` met (empty
        where they do not bind to this signature)."""
        try:
            bound = self._inspect.bind(*args, **kwargs)
        except TypeError:
            return set()
        out = set()
        positional = len(args)
        at = 0
        for p in self.params:
            if p.kind == "VAR_KEYWORD":
                continue
            if p.name not in bound.arguments:
                if p.default is not None:
                    out.add((p.name, OMITTED))
                continue
            value = bound.arguments[p.name]
            if p.kind == "VAR_POSITIONAL":
                out.update((p.name, kind_of(v, p.cells)) for v in value)
                at += len(value)
                continue
            if p.kind == "POSITIONAL_OR_KEYWORD" and "positional" in p.cells:
                out.add((p.name, "positional" if at < positional else "keyword"))
            if p.kind != "KEYWORD_ONLY" and at < positional:
                at += 1
            if self.source == "numpy" and PASSED in p.cells:
                out.add((p.name, PASSED))
            else:
                out.add((p.name, kind_of(value, p.cells)))
        return out


def kind_of(value, cells=()):
    """The kind of an argument ``value`` among a parameter's ``cells``: ``None``, a
    Python scalar (``bool``, or ``True``/``False`` where the cells enumerate them; ``int``;
    ``float``, or ``inf``/``-inf`` where the cells list them; ``complex``), a string (its
    repr where the cells list it, else ``str``), ``tuple``/``list`` (``sequence`` where the
    cells say so), ``buffer``, ``dtype``/``device`` (what the cells allow of a value that
    is neither an array nor a Python value), else ``array`` (a NumPy scalar too)."""
    if value is None:
        return "None"
    if "object" in cells and not set(cells) & {"array", "int", "float", "complex", "bool"}:
        return "object"  # (from_dlpack's x: any object)
    if isinstance(value, bool):
        word = "True" if value else "False"
        return word if word in cells else "bool"
    if isinstance(value, np.generic) or _is_array(value):
        return "array"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        if math.isinf(value):
            word = "inf" if value > 0 else "-inf"
            if word in cells:
                return word
        return "float"
    if isinstance(value, complex):
        return "complex"
    if isinstance(value, str):
        return repr(value) if repr(value) in cells else "str"
    if isinstance(value, (tuple, list)):
        word = "tuple" if isinstance(value, tuple) else "list"
        if word in cells:
            return word
        if "sequence" in cells:
            return "sequence"
        return "nested sequence" if "nested sequence" in cells else word
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "buffer"
    for word in ("dtype", "device", "object"):
        if word in cells:
            return word
    return type(value).__name__


def _is_array(value):
    return hasattr(value, "shape") and hasattr(value, "dtype") and \
        not isinstance(value, (np.dtype, type))


# ---- the standard's signatures ----------------------------------------------------------------
def _kinds(node):
    """The kinds an annotation (an :mod:`ast` expression of the stubs' grammar) allows."""
    if isinstance(node, ast.Constant):
        if node.value is None:
            return ("None",)
        return (repr(node.value),)
    if isinstance(node, ast.Name):
        if node.id == "inf":  # (in a Literal)
            return ("inf",)
        if node.id not in _NAMED:
            raise ValueError(f"signatures: expected a known annotation; got {node.id!r}")
        return _NAMED[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and \
            isinstance(node.operand, ast.Name) and node.operand.id == "inf":
        return ("-inf",)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        head, inner = node.value.id, node.slice
        parts = inner.elts if isinstance(inner, ast.Tuple) else [inner]
        if head in ("Union", "Literal"):
            out = []
            for part in parts:
                out.extend(k for k in _kinds(part) if k not in out)
            return tuple(out)
        if head == "Optional":
            return tuple(dict.fromkeys(_kinds(parts[0]) + ("None",)))
        if head == "Tuple":
            return ("tuple",)
        if head == "List":
            return ("list",)
        if head == "Sequence":
            return ("sequence",)
    raise ValueError(f"signatures: expected an annotation of the stubs' grammar; got "
                     f"{ast.unparse(node)!r}")


def parse(text, name=None):
    """The :class:`Signature` of a stub's signature ``text`` (``"where(condition: array,
    x1: Union[array, int, float, complex, bool], ...) -> array"``)."""
    head = re.match(r"^(\w+)\((.*)\)(?: -> .*)?$", text.strip())
    if head is None:
        raise ValueError(f"signatures: expected 'name(params) -> type'; got {text!r}")
    node = ast.parse(f"def f({head.group(2)}): pass").body[0].args
    positional = node.posonlyargs + node.args
    defaults = [None] * (len(positional) - len(node.defaults)) + list(node.defaults)
    entries = []
    for i, (arg, default) in enumerate(zip(positional, defaults)):
        kind = "POSITIONAL_ONLY" if i < len(node.posonlyargs) else "POSITIONAL_OR_KEYWORD"
        entries.append((arg, kind, default))
    if node.vararg:
        entries.append((node.vararg, "VAR_POSITIONAL", None))
    entries += [(arg, "KEYWORD_ONLY", default)
                for arg, default in zip(node.kwonlyargs, node.kw_defaults)]
    params = []
    for arg, kind, default in entries:
        annotation = ast.unparse(arg.annotation) if arg.annotation is not None else None
        kinds = _kinds(arg.annotation) if arg.annotation is not None else ("object",)
        if set(kinds) <= {"bool", "None"}:  # a flag: each of its values
            kinds = tuple(k for k in ("True", "False", "None")
                          if k in kinds or (k != "None" and "bool" in kinds))
        cells = kinds + ((OMITTED,) if default is not None else ()) + \
            (FORMS if kind == "POSITIONAL_OR_KEYWORD" else ())
        params.append(Param(arg.arg, kind, None if default is None else ast.unparse(default),
                            annotation, cells))
    return Signature(name or head.group(1), tuple(params))


@functools.lru_cache(maxsize=None)
def signature(name):
    """The :class:`Signature` of function ``name`` of the standard (dotted for the
    extensions: ``"linalg.solve"``), else of NumPy (:func:`numpy_signature`); None where
    neither has one."""
    if name in STANDARD:
        return parse(STANDARD[name], name)
    return numpy_signature(name)


def standard_names():
    """The names of the standard's functions (2025.12), sorted."""
    return sorted(STANDARD)


@functools.lru_cache(maxsize=None)
def numpy_signature(name):
    """The :class:`Signature` of NumPy's ``name`` (``"nanmean"``, ``"add.reduce"``) by
    :func:`inspect.signature`, or None where NumPy has none (an index object, a class).
    Parameters name no types: a parameter with a default is ``passed`` and ``omitted``
    (``True``, ``False`` and ``omitted`` where the default is a bool); ``**kwargs`` is
    left out."""
    obj = np
    try:
        for part in name.split("."):
            obj = getattr(obj, part)
        sig = inspect.signature(obj)
    except (AttributeError, TypeError, ValueError):
        return None
    if isinstance(obj, type):
        return None
    params = []
    for p in sig.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            continue
        required = p.default is p.empty
        if p.kind is p.VAR_POSITIONAL:
            cells = (PASSED,)
        elif isinstance(p.default, bool):
            cells = ("True", "False", OMITTED)
        else:
            cells = (PASSED,) + (() if required else (OMITTED,))
        params.append(Param(p.name, p.kind.name, None if required else repr(p.default),
                            None, cells))
    return Signature(name, tuple(params), "numpy")


def tried(calls, names):
    """``{name: {(parameter, kind)}}``: the cells the recorded ``calls``
    (:class:`~laxarray.conformance.flushing.Call`) of the functions ``names`` met."""
    out = {}
    for call in calls:
        if call.path not in names:
            continue
        sig = signature(call.path)
        if sig is not None:
            out.setdefault(call.path, set()).update(sig.tried(call.args, call.kwargs))
    return out


def untried(name, met):
    """The cells of ``name``'s signature not among ``met`` (``{(parameter, kind)}``), as
    ``"parameter: kind"`` strings in the signature's order (``[]`` without a signature)."""
    sig = signature(name)
    if sig is None:
        return []
    return [f"{p}: {k}" for p, k in sig.cells() if (p, k) not in met]


# ---- the forms of a call ------------------------------------------------------------------------
#: the forms a spec's call of its own function is made in (:func:`reform`), drawn once per
#: example under the label :data:`FORM_LABEL`: as the spec wrote it; every keyword equal to
#: its default left out, every other argument that may be passed by keyword passed by
#: keyword, an axis-like int as a 1-tuple and a list of arrays as a tuple
#: (``"keywords"``); every default passed, and every argument that may be passed by
#: position passed by position, a tuple of arrays as a list, an int ``ord`` as its float
#: (``"positions"``); a NumPy-surface call only leaves out its defaults, by keyword.  A
#: conforming namespace gives the same result in each form.
CALL_FORMS = ("as written", "keywords", "positions")
#: the label of the draw of a call's form
FORM_LABEL = "call form"
#: the parameters whose int means the same as the 1-tuple of it (where the signature
#: allows both)
_TUPLE_WORDS = ("axis", "axes", "source", "destination", "shift")
_NO_LITERAL = object()


def _literal(text):
    """The value of a default's source text where it is a plain literal (None, a bool, an
    int, a float, a string), else :data:`_NO_LITERAL`."""
    if text is None:
        return _NO_LITERAL
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _NO_LITERAL
    return value if value is None or type(value) in (bool, int, float, str) \
        else _NO_LITERAL


def _is_default(value, default, name=None, values=None):
    """Whether ``value`` means the ``default`` (an int equal to a float default: ``0`` for
    ``0.0``; an axis ``ndim - 1`` for ``-1``, read against the first array argument)."""
    if default is _NO_LITERAL:
        return False
    if default is None:
        return value is None
    number = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)  # noqa: E731
    if number(value) and number(default):
        # (an int for a float default only: a float for an int one may change a dtype
        # the arguments decide, arange(0, 3, 1.0))
        if value == default and (type(value) is type(default) or isinstance(default, float)):
            return True
        if name == "axis" and default == -1 and isinstance(value, int) and values:
            ndim = _ndim(next(iter(values.values())))
            return ndim is not None and value == ndim - 1
        return False
    return type(value) is type(default) and value == default


def _ndim(value):
    try:
        return len(value.shape)
    except (AttributeError, TypeError):
        return None


def _as_tuple(sig, values, name):
    """``values[name]`` as the tuple form of its int (or None where there is none): an
    axis-like int as its 1-tuple (``shift`` only with an int ``axis`` beside it: a tuple
    of shifts needs a tuple of axes); ``tensordot``'s ``axes=n`` as the two lists of
    axes it contracts."""
    value = values[name]
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    if sig.name in ("tensordot", "linalg.tensordot") and name == "axes":
        ndim = _ndim(values.get("x1"))
        if ndim is None or value > ndim:
            return None
        return (list(range(ndim - value, ndim)), list(range(value)))
    if name not in _TUPLE_WORDS:
        return None
    if name == "shift":
        axis = values.get("axis")
        if isinstance(axis, bool) or not isinstance(axis, int):
            return None
    if name == "axis" and "shift" in values and (
            isinstance(values["shift"], bool) or not isinstance(values["shift"], int)):
        return None
    return (value,)


def reform(sig, form, args, kwargs):
    """``(args, kwargs)`` of a call of ``sig``'s function in ``form`` (one of
    :data:`CALL_FORMS`), meaning what the call ``(args, kwargs)`` means: only defaults,
    the ways of passing an argument and the int / tuple and list / tuple forms of one
    value change.  A call that does not bind to ``sig`` is left as it is.

    >>> reform(signature("sum"), "keywords", ("x",), {"axis": 1, "keepdims": False})
    (('x',), {'axis': (1,)})
    >>> reform(signature("clip"), "keywords", ("x", 0), {})
    (('x',), {'min': 0})
    >>> reform(signature("clip"), "positions", ("x",), {"max": 1})
    (('x', None, 1), {})
    """
    if form == "as written" or sig is None:
        return args, kwargs
    if sig.source == "numpy":  # NumPy's names and kinds of parameter are not every
        return _numpy_reform(sig, form, args, kwargs)  # implementation's: defaults only
    try:
        bound = sig._inspect.bind(*args, **kwargs)
    except TypeError:
        return args, kwargs
    values = dict(bound.arguments)
    params = [p for p in sig.params if p.kind != "VAR_KEYWORD"]
    varargs = any(p.kind == "VAR_POSITIONAL" for p in params)
    defaults = {p.name: _literal(p.default) for p in params}
    if form == "keywords":
        for p in params:
            if p.name not in values or p.kind == "VAR_POSITIONAL":
                continue
            if _is_default(values[p.name], defaults[p.name], p.name, bound.arguments):
                del values[p.name]
                continue
            cells = set(p.cells)
            if {"int", "tuple"} <= cells:
                as_tuple = _as_tuple(sig, bound.arguments, p.name)
                if as_tuple is not None:
                    values[p.name] = as_tuple
            if {"tuple", "list"} <= cells and isinstance(values[p.name], list):
                values[p.name] = tuple(values[p.name])
        by_position = lambda p: p.kind == "POSITIONAL_ONLY" or (  # noqa: E731
            varargs and p.kind == "POSITIONAL_OR_KEYWORD")
    else:
        for p in params:
            if p.name not in values and sig.source == "standard" and \
                    defaults[p.name] is not _NO_LITERAL:
                values[p.name] = defaults[p.name]
            if p.name in values and {"tuple", "list"} <= set(p.cells) and \
                    isinstance(values[p.name], tuple):
                values[p.name] = list(values[p.name])
            value = values.get(p.name)
            if p.name == "ord" and "float" in p.cells and isinstance(value, int) and \
                    not isinstance(value, bool):  # (a norm's order: 2.0 means 2)
                values[p.name] = float(value)
        by_position = lambda p: p.kind in ("POSITIONAL_ONLY",  # noqa: E731
                                           "POSITIONAL_OR_KEYWORD")
    new_args, new_kwargs, chain = [], {}, True
    for p in params:
        if p.name not in values:
            chain = False
            continue
        if p.kind == "VAR_POSITIONAL":
            if not chain:
                return args, kwargs
            new_args.extend(values[p.name])
        elif by_position(p) and chain:
            new_args.append(values[p.name])
        elif p.kind == "POSITIONAL_ONLY":
            return args, kwargs  # (a positional-only argument after a gap: as written)
        else:
            chain = False
            new_kwargs[p.name] = values[p.name]
    new_kwargs.update(bound.arguments.get(next((p.name for p in sig.params
                                                if p.kind == "VAR_KEYWORD"), ""), {}))
    return tuple(new_args), new_kwargs


def _numpy_reform(sig, form, args, kwargs):
    """A NumPy-surface call in ``form``: ``"keywords"`` leaves out the keywords equal to
    NumPy's defaults; the arguments are passed as written (an implementation of NumPy's
    surface may name a parameter otherwise, ``x`` for NumPy's ``a``, or make it positional
    only)."""
    if form != "keywords":
        return args, kwargs
    defaults = {p.name: _literal(p.default) for p in sig.params}
    return args, {k: v for k, v in kwargs.items()
                  if not _is_default(v, defaults.get(k, _NO_LITERAL))}


class Reform:
    """Makes a spec's calls of its own function (``names``) in one form of
    :data:`CALL_FORMS` per example, drawn from ``data`` at the first such call (after the
    spec's other draws, as a rule: the examples it drew before are unchanged); a stand-in
    ``data`` without the draw (a pinned example) keeps the calls as written."""

    def __init__(self, data, names):
        self._data, self._names, self.form = data, frozenset(names), None

    def __call__(self, path, args, kwargs):
        """``(args, kwargs)`` of the call of ``path`` in this example's form."""
        if path not in self._names:
            return args, kwargs
        sig = signature(path)
        if sig is None:
            return args, kwargs
        if self.form is None:
            try:
                self.form = self._data.draw(st.sampled_from(CALL_FORMS), label=FORM_LABEL)
            except ValueError:  # a pinned example: no such draw
                self.form = "as written"
        return reform(sig, self.form, args, kwargs)


def stub_signatures(directory):
    """``{name: signature text}`` of the function chapters and the linalg / fft
    extensions of the standard's stubs in ``directory`` (one markdown file per chapter,
    one ``## `name(params) -> type``` header per function): what
    :mod:`~laxarray.conformance.signatures_table` holds."""
    chapters = ("creation_functions", "data_type_functions", "elementwise_functions",
                "indexing_functions", "linear_algebra_functions", "manipulation_functions",
                "searching_functions", "set_functions", "sorting_functions",
                "statistical_functions", "utility_functions", "linalg", "fft")
    out = {}
    for path in sorted(pathlib.Path(directory).glob("*.md")):
        if path.stem not in chapters:
            continue
        prefix = f"{path.stem}." if path.stem in ("linalg", "fft") else ""
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.match(r"^## `((\w+)\(.*\)(?: -> .*)?)`$", line.strip())
            if m:
                out[prefix + m.group(2)] = m.group(1)
    return dict(sorted(out.items()))


__all__ = ["Param", "Signature", "SCALARS", "FORMS", "OMITTED", "PASSED", "kind_of",
           "parse", "signature", "standard_names", "numpy_signature", "tried", "untried",
           "stub_signatures", "CALL_FORMS", "FORM_LABEL", "reform", "Reform"]
