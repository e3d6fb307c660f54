"""``LAXARRAY_RECORD=FILE``: log each store lookup of a program as one JSON line, so that
``python -m laxarray.precompile --from FILE`` builds exactly those executables again (after
a jax upgrade, on a new machine, for a CI image).

A line names the kernel as its identity does (``kernel_id.KernelId``: an import path,
``module:qualname``, or a factory's path and arguments), its static arguments in a
tagged JSON form that keeps what JSON would lose (``-0.0``, NaN, a float vs an int, dtypes,
enums, module functions), whether the masked variant ran, the input avals (shape, dtype,
weak type), and the program that looked it up (``prefetch.program_label``: ``precompile
--portable`` writes each program's trace into the tier).  A replay (``laxarray.precompile.recorded.replay``) turns a line back into the
same binding and signature (:func:`target`, :func:`statics`, :func:`call_inputs`), so the
store key it builds is the key the recorded call looked up.  Calls the store cannot key
(committed or sharded arrays, kernels defined inside functions or whose statics name
objects of one process) are not recorded: there is nothing to rebuild.  A program with a
host callback is recorded (the line is written at the lookup, before the compile) though
the store keeps none: its replay compiles it and stores nothing, as the recorded call did.

Lines are appended with one ``write`` of a line opened in append mode, so processes
recording into one file at once do not interleave within a line; each process writes a
signature once.
"""

from __future__ import annotations

import enum
import importlib
import json
import struct
import threading

import jax
import numpy as np

from laxarray._core import jaxapi
from laxarray._core import env_vars as _env_vars
from laxarray._core.runtime import prefetch as _prefetch
from laxarray._core.runtime.serialize import home_device

#: The file named by ``LAXARRAY_RECORD`` when the process started (``None``: not recording).
PATH = _env_vars.value("LAXARRAY_RECORD") or None
#: The version of the line format; :func:`read` refuses other versions.
FORMAT = 1

_SEEN = set()
_LOCK = threading.Lock()


class Unrecordable(ValueError):
    """A static value, or a kernel, that has no text another process can turn back."""


def note(bound, masked, sig, device) -> None:
    """Append the line of one store lookup (``bound``'s kernel and statics, the masked
    variant or not, the call signature ``sig`` of ``call_key.signature``) to
    :data:`PATH`; never raises (a call that cannot be recorded is left out)."""
    if device not in (-1, jax.devices()[0].id):  # another device: this process's choice
        return
    try:
        line = json.dumps({
            "v": FORMAT, "kernel": kernel_path(bound.kernel),
            "items": [[k, encode(v)] for k, v in bound.items],
            "masked": bool(masked), "sig": [_encode_input(a) for a in sig],
            "prog": _prefetch.program_label()}, sort_keys=True)
    except (Unrecordable, AttributeError, TypeError, ValueError) as e:
        if _env_vars.value("LAXARRAY_RECORD_DEBUG"):
            print("NOTREC", bound.kernel.__name__, e)
        return
    with _LOCK:
        if line in _SEEN:
            return
        _SEEN.add(line)
        try:
            with open(PATH, "a", encoding="utf-8") as f:
                f.write(line + "\n")
        except OSError:
            pass


def kernel_path(kern):
    """How another process finds ``kern``: ``[path, args]`` of its identity (``kern.id``, a
    ``kernel_id.KernelId``): ``path`` names a module attribute that is ``kern`` (``args``
    empty), a factory that returns it from ``args``, or its owner's ``.on_host``;
    ``Unrecordable`` where it has none."""
    kid = kern.id
    if kid.path is None:
        raise Unrecordable(f"{kid.module}:{kid.name} has no path another process finds")
    return [kid.path, encode(kid.args)]


def _encode_input(a):
    if isinstance(a, type):                 # a Python scalar, by type
        return ["s", a.__name__]
    if isinstance(a, tuple) and len(a) == 3:   # a NumPy array: (shape, dtype.str, "numpy")
        return ["n", list(a[0]), a[1]]
    if isinstance(a, tuple):                # a jax array committed to the home device
        aval, sharding = a
        if sharding != jax.sharding.SingleDeviceSharding(home_device()):
            raise Unrecordable(f"an array committed to {sharding} (not the home device)")
        return ["c", list(aval.shape), aval.dtype.name, bool(aval.weak_type)]
    return ["a", list(a.shape), a.dtype.name, bool(a.weak_type)]


_SCALAR_TYPES = {t.__name__: (t, t()) for t in (bool, int, float, complex)}
_SCALAR_TYPES["NoneType"] = (type(None), None)


def _decode_input(obj):
    """``(signature entry, a stand-in argument)`` of one encoded input."""
    if obj[0] == "s":
        return _SCALAR_TYPES[obj[1]]
    if obj[0] == "n":
        shape, dtype = tuple(obj[1]), np.dtype(obj[2])
        return (shape, dtype.str, "numpy"), np.zeros(shape, dtype)
    aval = jaxapi.shaped(obj[1], np.dtype(obj[2]), obj[3])
    if obj[0] == "c":
        sharding = jax.sharding.SingleDeviceSharding(home_device())
        return (aval, sharding), jax.ShapeDtypeStruct(aval.shape, aval.dtype, sharding=sharding,
                                                      weak_type=aval.weak_type)
    return aval, jaxapi.shape_struct(aval)


def read(path) -> list[dict]:
    """The distinct entries of a record file, in first-seen order; ``ValueError`` naming the
    line for a line that is not a record entry."""
    out, seen = [], set()
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            text = text.strip()
            if not text or text in seen:
                continue
            seen.add(text)
            try:
                entry = json.loads(text)
                ok = _well_formed(entry)
            except json.JSONDecodeError:
                ok = False
            if not ok:
                raise ValueError(f"precompile: {path}, line {number}: expected a line "
                                 f"written by LAXARRAY_RECORD (format {FORMAT}); got "
                                 f"{text[:80]!r}")
            out.append(entry)
    return out


#: An encoded input's tag and its length: a scalar type, a NumPy array, a jax aval (of an
#: array committed to the home device: ``c``).
_INPUT_LENGTHS = {"s": 2, "n": 3, "a": 4, "c": 4}


def _well_formed(entry) -> bool:
    """Whether a decoded line has the layout :func:`note` writes (a hand-edited or cut
    line does not: :func:`label` and a replay read it without further checks)."""
    def pair(x, second):
        return isinstance(x, list) and len(x) == 2 and isinstance(x[0], str) and isinstance(
            x[1], second)
    return (isinstance(entry, dict) and entry.get("v") == FORMAT
            and pair(entry.get("kernel"), dict) and isinstance(entry.get("masked"), bool)
            and isinstance(entry.get("items"), list)
            and all(pair(item, dict) for item in entry["items"])
            and isinstance(entry.get("prog", ""), str) and isinstance(entry.get("sig"), list)
            and all(isinstance(a, list) and a and _INPUT_LENGTHS.get(a[0]) == len(a)
                    and (a[0] == "s" or isinstance(a[1], list)) for a in entry["sig"]))


def label(entry) -> str:
    """A short text for an entry: ``_add_kernel float64[32],float64[]``."""
    path, args = entry["kernel"]
    name = path.rpartition(":")[2]
    if args != encode(()):
        try:
            name += repr(decode(args))
        except (Unrecordable, ValueError, TypeError, KeyError, AttributeError):
            name += f"({json.dumps(args)})"  # a factory argument that names nothing now
    parts = []
    for a in entry["sig"]:
        parts.append(a[1] if a[0] == "s" else f"{a[-1] if a[0] == 'n' else a[2]}"
                     f"[{','.join(map(str, a[1]))}]")
    return f"{name}{' masked' if entry['masked'] else ''} {','.join(parts)}"


def target(entry):
    """``(path, args)`` of the entry's kernel, as :func:`kernel_path` wrote them (the
    arguments decoded): ``kernel_id.find(path, args)`` is the kernel; ``Unrecordable``
    where an argument names what is gone."""
    path, args = entry["kernel"]
    return path, decode(args)


def statics(entry) -> tuple:
    """The static arguments of an entry's binding, decoded (``Kernel.bind``'s items)."""
    return tuple((k, decode(v)) for k, v in entry["items"])


def call_inputs(entry):
    """``(signature, stand-in arguments, device)`` of an entry's call, as the recorded call
    had them (``call_key.signature``, ``call_key.placement``): placed on the
    default device, unless none of its inputs is an array."""
    sig, stand_ins = zip(*map(_decode_input, entry["sig"])) if entry["sig"] else ((), ())
    device = jax.devices()[0].id if any(a[0] in "ac" for a in entry["sig"]) else -1
    return tuple(sig), tuple(stand_ins), device


# ---- static values as tagged JSON ----------------------------------------------------------

def encode(v):
    """``v`` (a static argument) as JSON that :func:`decode` turns back into an equal value
    of the same type; ``Unrecordable`` for what has no such text."""
    if v is None or isinstance(v, (bool, str)):
        return {"x": v}
    if isinstance(v, np.generic):
        return {"g": [v.dtype.name, encode(v.item())]}
    if isinstance(v, int):
        return {"i": str(v)}
    if isinstance(v, float):
        return {"f": _float_text(v)}
    if isinstance(v, complex):
        return {"c": [_float_text(v.real), _float_text(v.imag)]}
    if isinstance(v, np.dtype):
        if v.fields is not None:
            raise Unrecordable(f"a structured dtype {v}")
        return {"d": v.name}
    if isinstance(v, enum.Enum):
        return {"e": [_path_of(type(v)), v.name]}
    if isinstance(v, slice):
        return {"s": [encode(v.start), encode(v.stop), encode(v.step)]}
    if type(v) in (tuple, list, frozenset):
        tag = {tuple: "t", list: "l", frozenset: "fs"}[type(v)]
        parts = [encode(x) for x in v]
        return {tag: sorted(parts, key=repr) if tag == "fs" else parts}
    if callable(v):
        return {"fn": _path_of(v)}
    raise Unrecordable(f"a static value of type {type(v).__name__}")


def decode(obj):
    """The value :func:`encode` wrote as ``obj``."""
    (tag, v), = obj.items()
    if tag == "x":
        return v
    if tag == "i":
        return int(v)
    if tag == "f":
        return _text_float(v)
    if tag == "c":
        return complex(_text_float(v[0]), _text_float(v[1]))
    if tag == "g":
        return np.dtype(v[0]).type(decode(v[1]))
    if tag == "d":
        return np.dtype(v)
    if tag == "e":
        return getattr(resolve(v[0]), v[1])
    if tag == "s":
        return slice(*map(decode, v))
    if tag in ("t", "l", "fs"):
        parts = [decode(x) for x in v]
        return {"t": tuple, "l": list, "fs": frozenset}[tag](parts)
    if tag == "fn":
        return resolve(v)
    raise Unrecordable(f"an unknown tag {tag!r}")


def _float_text(x: float) -> str:
    """``x`` exactly: ``float.hex``, but a NaN's bits (its hex is ``nan`` for every sign
    and payload)."""
    return x.hex() if x == x else "bits:" + struct.pack(">d", x).hex()


def _text_float(text: str) -> float:
    if text.startswith("bits:"):
        return struct.unpack(">d", bytes.fromhex(text[5:]))[0]
    return float.fromhex(text)


def _path_of(obj) -> str:
    """``module:qualname`` of a module-level object that resolves back to ``obj``."""
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if not module or not qualname or "<" in qualname:
        raise Unrecordable(f"{obj!r} has no import path")
    path = f"{module}:{qualname}"
    try:
        found = resolve(path)
    except Unrecordable:
        found = None
    if found is not obj:
        raise Unrecordable(f"{path} does not name {obj!r}")
    return path


def resolve(path):
    """The object ``path`` (``module:qualname``) names, its module imported;
    ``Unrecordable`` where it is gone."""
    module, _, qualname = path.partition(":")
    try:
        obj = importlib.import_module(module)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as err:
        raise Unrecordable(f"{path} is not importable ({err})") from None
    return obj
