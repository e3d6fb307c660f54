"""Generate the package laxarray/conformance/special_cases_table from the Array API stubs.

The standard states special cases (NaN, infinities, signed zeros, ...) as bullet lists under
"Special cases" in the stubs of the elementwise functions, the array object (conversions
``__bool__``/``__complex__``/``__float__``/``__int__``), the statistical functions and
``linalg``.  This script turns every bullet into a machine-readable row -- or, where a
bullet states no checkable value (a rounding rule, "In the remaining cases ... must be
computed ..."), lists it as not machine-checkable with its text -- and writes the table into
the repository, so the conformance runner needs nothing outside the checkout.  It also reads
which elementwise function each operator of the array object must agree with.  Run it when
the standard changes:

    python tools/gen_special_cases.py STUBS_DIR [-o OUTPUT] [--check]

STUBS_DIR is the standard's stubs directory (array-api-2025.12/stubs);
``--check`` compares instead of writing (exit status 1 on a difference).

Row format (see laxarray/conformance/special_cases.py, which interprets it):
``(function, domain, when, result, text)``.  ``domain`` is the dtype family the bullet's
paragraph names ("real", "complex", "bool"); ``when`` is a tuple of alternatives (any may
hold), each a tuple of clauses that must all hold, each clause ``(operand, predicate,
*args)``; ``result`` is ``(kind, *args)``.  Later rows apply only to inputs no earlier row
of the same function and domain covers (the standard lists the more specific case first).

Readings beyond the literal text, each stated once here: a real zero written without a sign
("the result is ``0``") may have either sign; in a complex result an unsigned zero is ``+0``,
the real part's as the imaginary part's (``0 + 0j`` is ``+0 + 0j``, as the official test
suite reads it; a part whose sign is free says so: "(sign of ... is unspecified)");
a paragraph's "if ``x1_i`` is not ``NaN``" joins each of its bullets that says nothing of
``x1_i``; where a stub says ``f(conj(x))`` must equal ``conj(f(x))``, each complex row is
followed by its mirror image in ``b`` (text "By ``f(conj(x)) == conj(f(x))``, from: ...");
and :data:`ERRATA` lists the bullets read otherwise, with the reason.
"""

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "laxarray" / "conformance" / "special_cases_table"
FILES = ("elementwise_functions", "array_object", "statistical_functions", "linalg")

_TITLE = re.compile(r"^# \w+ \(Array API (\S+)\)$")
_HEADER = re.compile(r"^## `(?:_array\.)?(\w+)\(")
_EQUIVALENT = re.compile(r"equivalent element-wise function :func:`~array_api\.(\w+)`")

# ---- values --------------------------------------------------------------------------------
_VALUES = {
    "NaN": "NaN", "+infinity": "+inf", "-infinity": "-inf", "infinity": "+inf",
    "+0": "+0", "-0": "-0", "0": "+0", "1": "1", "+1": "1", "-1": "-1", "-1.0": "-1",
    "π/2": "π/2", "+π/2": "π/2", "-π/2": "-π/2", "π": "π", "+π": "π", "-π": "-π",
    "π/4": "π/4", "+π/4": "π/4", "-π/4": "-π/4", "3π/4": "3π/4", "+3π/4": "3π/4",
    "-3π/4": "-3π/4", "True": "True", "False": "False",
}
_TICK = r"``?([^`]+)``?"


def _value(token):
    """The canonical value of a literal of the text (``+infinity`` -> ``"+inf"``)."""
    token = token.strip().strip("`").strip()
    if token not in _VALUES:
        raise _Unparsed(f"value {token!r}")
    return _VALUES[token]


class _Unparsed(Exception):
    """A bullet (or part of it) the grammar does not cover."""


# ---- conditions ----------------------------------------------------------------------------
_OPERANDS = {"x_i": "x", "x1_i": "x1", "x2_i": "x2", "a": "a", "b": "b", "c": "c", "d": "d",
             "self": "self", "abs(x1_i)": "|x1|", "M": "M", "N": "N",
             "M - correction": "M-correction", "min_i": "min", "max_i": "max"}
#: phrases rewritten before a condition is split into clauses (they hold commas or "and")
_PHRASES = [
    (r"a positive \(i\.e\., greater than ``0``\) finite number", "a positive finite number"),
    (r"a negative \(i\.e\., less than ``0``\) finite number", "a negative finite number"),
    (r"any value \(including ``NaN``\)", "any value"),
    (r"any value, including ``NaN``", "any value"),
    (r"either a finite number or ``NaN``", "a finite number or NaN"),
    (r"a finite number or ``NaN``", "a finite number or NaN"),
]
_PREDICATES = [  # (regex on the predicate text, clause builder)
    (r"``NaN``", lambda m: ("nan",)),
    (r"(?:either )?``([^`]+)`` or ``([^`]+)``", lambda m: ("in", _value(m[1]), _value(m[2]))),
    (r"``-x1_i``", lambda m: ("neg_of", "x1")),
    (r"``([^`]+)``", lambda m: ("eq", _value(m[1]))),
    (r"a finite number", lambda m: ("finite",)),
    (r"a nonzero finite number", lambda m: ("nonzero_finite",)),
    (r"a positive finite number", lambda m: ("pos_finite",)),
    (r"a negative finite number", lambda m: ("neg_finite",)),
    (r"a nonzero number", lambda m: ("nonzero",)),
    (r"a finite number or NaN", lambda m: ("finite_or_nan",)),
    (r"any value", lambda m: ("any",)),
    (r"not ``NaN``", lambda m: ("not_nan",)),
    (r"not equal to ``([^`]+)``", lambda m: ("ne", _value(m[1]))),
    (r"greater than ``([^`]+)``", lambda m: ("gt", _value(m[1]))),
    (r"less than ``([^`]+)``", lambda m: ("lt", _value(m[1]))),
    (r"less than or equal to ``([^`]+)``", lambda m: ("le", _value(m[1]))),
    (r"an odd integer value", lambda m: ("odd_int",)),
    (r"not an odd integer value", lambda m: ("not_odd_int",)),
    (r"an integer value", lambda m: ("int",)),
    (r"not an integer value", lambda m: ("not_int",)),
    (r"already integer-valued", lambda m: ("int",)),
]
_OPERAND = r"``([^`]+)``"


def _predicate(text):
    for pattern, build in _PREDICATES:
        m = re.fullmatch(pattern, text.strip())
        if m:
            return build(m)
    raise _Unparsed(f"predicate {text!r}")


def _operand(token):
    if token not in _OPERANDS:
        raise _Unparsed(f"operand {token!r}")
    return _OPERANDS[token]


def _clause(text):
    """One clause: ``(operand, predicate, *args)``."""
    text = text.strip()
    m = re.fullmatch(r"the sign bit of ``([^`]+)`` is ``([01])``", text)
    if m:
        return (_operand(m[1]), "signbit", int(m[2]))
    if text == "two integers are equally close to ``x_i``":
        return ("x", "half")
    m = re.fullmatch(r"``([^`]+)`` (equals|does not equal) ``([^`]+)``", text)
    if m:
        return (_operand(m[1]), "equals" if m[2] == "equals" else "not_equals",
                _operand(m[3]))
    m = re.fullmatch(r"``([^`]+)`` is (.+)", text)
    if m:
        return (_operand(m[1]), *_predicate(m[2]))
    m = re.fullmatch(r"``([^`]+)`` (``[^`]+``)", text)  # "``a`` ``-infinity``" (a typo: no "is")
    if m:
        return (_operand(m[1]), *_predicate(m[2]))
    raise _Unparsed(f"clause {text!r}")


def _condition(text):
    """The alternatives of a condition: a tuple of tuples of clauses."""
    for pattern, repl in _PHRASES:
        text = re.sub(pattern, repl, text)
    text = text.strip()
    m = re.fullmatch(r"``x1_i`` and ``x2_i`` have (the same mathematical sign|different "
                     r"mathematical signs)( and are both nonzero finite numbers)?", text)
    if m:
        rel = ("x1", "same_sign" if "same" in m[1] else "diff_sign", "x2")
        if m[2]:
            return ((rel, ("x1", "nonzero_finite"), ("x2", "nonzero_finite")),)
        return ((rel,),)
    m = re.fullmatch(r"``a``, ``b``, ``c``, (and|or) ``d`` (?:are all|is) (.+)", text)
    if m:
        pred = _predicate(m[2])
        clauses = tuple((op, *pred) for op in "abcd")
        return (clauses,) if m[1] == "and" else tuple((c,) for c in clauses)
    m = re.fullmatch(rf"either {_OPERAND} or {_OPERAND} is (.+)", text) or \
        re.fullmatch(rf"{_OPERAND} or {_OPERAND} is (.+)", text)
    if m:
        pred = _predicate(m[3])
        return (((_operand(m[1]), *pred),), ((_operand(m[2]), *pred),))
    m = re.fullmatch(rf"{_OPERAND} is ``NaN`` or {_OPERAND} is ``NaN``", text)
    if m:
        return (((_operand(m[1]), "nan"),), ((_operand(m[2]), "nan"),))
    m = re.fullmatch(r"the determinant is (zero|``0 \+ 0j``)", text)
    if m:
        return ((("det", "eq", "+0"),),)
    parts = re.split(r",\s*and\s+|\s+and\s+|,\s+", text)
    return (tuple(_clause(p) for p in parts),)


# ---- results -------------------------------------------------------------------------------
_FREE = {
    "sign of the imaginary component is unspecified": "im",
    "sign of imaginary component is unspecified": "im",
    "sign of the real component is unspecified": "re",
    "sign of real component is unspecified": "re",
    "signs of real and imaginary components are unspecified": "re,im",
}
_REAL_PART = r"(±?[+-]?(?:NaN|infinity|0|1|π/2|3π/4|π/4|π|self))"
_IMAG_PART = r"(NaN|infinity|0|πj/2|πj|3πj/4|πj/4)"
_EXPRESSIONS = {"x_i": "x", "x1_i": "x1", "x2_i": "x2", "-x1_i": "-x1", "|x1_i|": "|x1|",
                "-|x1_i|": "-|x1|", "abs(b)": "|b|", "abs(a)": "|a|", "abs(x1_i)": "|x1|",
                "abs(x2_i)": "|x2|"}


def _complex(text, free):
    """``("complex", re, im, free)`` from ``re ± im j`` text; "±" frees that part's sign."""
    compact = text.replace(" ", "")
    m = re.fullmatch(_REAL_PART + r"([+\-±])" + _IMAG_PART + r"j?", compact)
    if not m:
        raise _Unparsed(f"complex result {text!r}")
    frees = set(free.split(",")) - {""}
    re_text = m[1]
    if re_text.startswith("±"):
        frees.add("re")
        re_text = "+" + re_text[1:].lstrip("+")
    re_value = "self" if re_text.endswith("self") else _value(re_text)
    im_text = m[3].replace("j", "")
    if m[2] == "±":
        frees.add("im")
        op = "+"
    else:
        op = m[2]
    im_value = _value(im_text if im_text == "NaN" else op + im_text)
    return ("complex", re_value, im_value, ",".join(sorted(frees)))


def _result(text):
    """The row's result from the text after "the result is" (its notes stripped)."""
    free = ""
    m = re.search(r"\s*\(([^()]*unspecified)\)\s*$", text)
    if m:
        if m[1] not in _FREE:
            raise _Unparsed(f"note {m[1]!r}")
        free = _FREE[m[1]]
        text = text[:m.start()]
    text = re.sub(r"\s*\(i\.e\., [^()]*\)\s*$", "", text).strip()
    m = re.fullmatch(r"an implementation-dependent approximation to ``([^`]+)``", text)
    if m:
        return ("value", _value(m[1]))
    m = re.fullmatch(r"(?:equal to|equivalent to) ``([^`]+)``", text)
    if m and m[1] in _EXPRESSIONS:
        return ("expr", _EXPRESSIONS[m[1]])
    m = re.fullmatch(r"``NaN`` with a sign bit of ``([01])``", text)
    if m:
        return ("nan", int(m[1]))
    if text == "a signed infinity with the mathematical sign determined by the rule already " \
               "stated above":
        return ("signed_inf",)
    if text == "the even integer closest to ``x_i``":
        return ("round_even",)
    if text == "the integer part of ``self``":
        return ("int_part",)
    m = re.fullmatch(r"``\+(0|infinity) \* cis\(b\)( - 1\.0)?``", text)
    if m:
        return ("cis", "+0" if m[1] == "0" else "+inf", "-1" if m[2] else "")
    m = re.fullmatch(_TICK, text)
    if not m:
        raise _Unparsed(f"result {text!r}")
    token = m[1].strip()
    if token in _EXPRESSIONS:
        return ("expr", _EXPRESSIONS[token])
    if "j" in token:
        return _complex(token, free)
    if free:
        raise _Unparsed(f"a sign note on a real result {text!r}")
    return ("value", "±0" if token == "0" else _value(token))


_SUBJECTS = {  # what a reduction's or a component's sentence says the rule is about
    "real component of the result": "re", "imaginary component of the result": "im",
}


def _bullet(text):
    """``(when, result)`` of one bullet's text."""
    body = text.strip()
    body = re.sub(r"\s*\(\*\*note\*\*:[^()]*\)\s*$", "", body)
    body = re.sub(r"\s*\((?:\*\*note\*\*|note):.*\)\.?$", "", body)
    body = body.rstrip(".")
    m = re.fullmatch(r"(?:Similarly, )?[Ii]f (.+?), raise ``(\w+)``", body)
    if m:
        return _condition(m[1]), ("raises", m[2])
    m = re.fullmatch(r"(?:Similarly, )?[Ii]f (.+?), the result is (.+?)(?:, even if ``x1_i`` "
                     r"is ``NaN``)?", body)
    if m:
        return _condition(m[1]), _result(m[2])
    m = re.fullmatch(r"(?:Similarly, )?[Ii]f (.+?), the result has a (positive|negative) "
                     r"mathematical sign(, unless the result is ``NaN``\. If the result is "
                     r"``NaN``, the \"sign\" of ``NaN`` is implementation-defined)?", body)
    if m:
        return _condition(m[1]), ("sign", "+" if m[2] == "positive" else "-", bool(m[3]))
    m = re.fullmatch(r"(?:Similarly, )?[Ii]f (.+?), the (real component of the result|"
                     r"imaginary component of the result) (?:is|\*\*must\*\* be) (.+)", body)
    if m:
        value = _result(m[3])
        if value[0] != "value":
            raise _Unparsed(f"component {m[3]!r}")
        return _condition(m[1]), ("part", _SUBJECTS[m[2]], value[1])
    m = re.fullmatch(r"If (.+?), the ``sign`` should be ``([^`]+)`` and ``logabsdet`` should "
                     r"be ``([^`]+)``", body)
    if m:
        logabsdet = m[3].replace(" + 0j", "")  # logabsdet is real-valued for any input
        return _condition(m[1]), ("fields", ("sign", _sign_value(m[2])),
                                  ("logabsdet", _value(logabsdet)))
    m = re.fullmatch(r"If (.+?), the (arithmetic mean|sum|product|variance|standard "
                     r"deviation|minimum value|maximum value) (?:is|\*\*must\*\* be) (.+)", body)
    if m:
        result = _result(m[3].replace("`1`", "``1``"))
        return _condition(m[1]), result
    m = re.fullmatch(r"In the remaining cases, the result is (``True``|``False``)", body)
    if m:
        return ((("*", "remaining"),),), ("value", _value(m[1]))
    raise _Unparsed("sentence")


def _sign_value(text):
    """slogdet's ``sign`` value: a zero written without a sign may have either."""
    return ("complex", "+0", "+0", "re") if "j" in text else "±0" if text == "0" else \
        _value(text)


# ---- reading the text otherwise than literally -----------------------------------------------
#: (function, bullet) -> (the row's result instead, or None: not machine-checkable; why).
#: Only where the text contradicts itself or IEEE 754 / C99, which it follows.
ERRATA = {
    ("not_equal", "In the remaining cases, the result is ``False``."): (
        None, "the bullets before it leave out a finite number against an infinity "
        "(``0 != inf`` is True by the bullet 'x1_i does not equal x2_i' and IEEE 754): "
        "'the remaining cases' would contradict them"),
}

_CONJ_NOTE = re.compile(r"``(\w+)\(conj\(x\)\)`` must equal ``conj\((\w+)\(x\)\)``")
_NEGATED = {"+0": "-0", "-0": "+0", "+inf": "-inf", "-inf": "+inf", "π/2": "-π/2",
            "-π/2": "π/2", "π": "-π", "-π": "π", "π/4": "-π/4", "-π/4": "π/4",
            "3π/4": "-3π/4", "-3π/4": "3π/4", "1": "-1", "-1": "1", "NaN": "NaN"}
_MIRRORED = {"pos_finite": "neg_finite", "neg_finite": "pos_finite", "gt": "lt", "lt": "gt"}


def _conj_clause(clause):
    """``clause`` with ``b`` (an imaginary part) negated."""
    operand, pred, *args = clause
    if operand != "b":
        return clause
    if pred in ("eq", "in"):
        negated = tuple(_NEGATED[a] for a in args)
        return clause if set(negated) == set(args) else (operand, pred, *negated)
    if pred in _MIRRORED:
        return (operand, _MIRRORED[pred], *(_NEGATED[a] for a in args))
    return clause


def _conj_row(row, fn):
    """The row the note ``f(conj(x)) == conj(f(x))`` implies from ``row`` (None: the same
    row, its condition being symmetric in ``b``)."""
    name, domain, when, result, text = row
    mirrored = tuple(tuple(_conj_clause(c) for c in alt) for alt in when)
    if domain != "complex" or mirrored == when:
        return None
    kind, *args = result
    if kind == "complex":
        result = ("complex", args[0], _NEGATED[args[1]], args[2])
    elif kind == "part" and args[0] == "im":
        result = ("part", "im", _NEGATED[args[1]])
    return (name, domain, mirrored, result,
            f"By ``{fn}(conj(x)) == conj({fn}(x))``, from: {text}")


# ---- the stubs -----------------------------------------------------------------------------
_INTRO = re.compile(r"^(For |Let |When |In general|\*\*Raises\*\*)")


def _paragraph_clauses(intro):
    """Clauses an introducing paragraph adds to each of its bullets ("..., and if
    ``x1_i`` is not ``NaN``,")."""
    m = re.search(r"if ``([^`]+)`` is not ``NaN``,$", intro)
    return (((_operand(m[1]), "not_nan"),) if m else ())


def _domain(intro, current):
    if intro.startswith("**Raises**"):
        return current
    if "complex floating-point" in intro and "real-valued" not in intro.split(",")[0]:
        return "complex"
    if intro.startswith("For complex"):
        return "complex"
    if intro.startswith("For boolean"):
        return "bool"
    if intro.startswith(("For real-valued", "For floating-point", "For both")):
        return "real"
    return current


def sections(stubs):
    """``(standard version, {function: [lines of its Special cases part]}, {operator:
    function})`` of the stubs in directory ``stubs``."""
    versions, found, operators, conj = set(), {}, {}, set()
    for stem in FILES:
        path = pathlib.Path(stubs) / f"{stem}.md"
        lines = path.read_text().splitlines()
        title = _TITLE.match(lines[0].strip())
        if title is None:
            raise ValueError(f"{path}: first line is not '# chapter (Array API version)'")
        versions.add(title.group(1))
        name, inside = None, False
        for line in lines:
            header = _HEADER.match(line)
            if header:
                name, inside = header[1], False
                if stem == "linalg":
                    name = f"linalg.{name}"
                continue
            if name is None:
                continue
            note = _CONJ_NOTE.search(line)
            if note and note[1] == note[2] == name:
                conj.add(name)
            eq = _EQUIVALENT.search(line)
            if eq and stem == "array_object" and name.startswith("__"):
                operators[name] = eq[1]
            if re.match(r"^\*\*Special [Cc]ases\*\*", line.strip()):
                inside = True
                found.setdefault(name, [])
                continue
            if inside:
                if line.strip() == "**Lazy implementations**" or line.startswith("Parameters"):
                    inside = False
                    continue
                found[name].append(line)
    if len(versions) != 1:
        raise ValueError(f"{stubs}: stubs of versions {sorted(versions)}, expected one")
    return versions.pop(), found, operators, conj


def table(stubs):
    """``(version, rows, unchecked, errata, operators, inplace)`` of the stubs in directory
    ``stubs``."""
    version, found, operators, conj = sections(stubs)
    rows, unchecked, errata = [], [], []
    for name in sorted(found):
        domain, extra = "real", ()
        for line in found[name]:
            stripped = line.strip()
            if not stripped or line.startswith(" "):
                continue  # notes and their bodies (indented) state no case
            if _INTRO.match(stripped):
                domain = _domain(stripped, domain)
                if not stripped.startswith("**Raises**"):
                    extra = _paragraph_clauses(stripped)
                continue
            if not re.match(r"^-\s+", stripped):
                continue
            text = re.sub(r"^-\s+", "", stripped)
            try:
                when, result = _bullet(text)
            except _Unparsed as why:
                unchecked.append((name, domain, text, str(why)))
                continue
            if (name, text) in ERRATA:
                instead, why = ERRATA[name, text]
                errata.append((name, domain, text, why))
                if instead is None:
                    unchecked.append((name, domain, text, f"erratum: {why}"))
                    continue
                result = instead
            if extra and when != ((("*", "remaining"),),):  # unless the bullet says otherwise
                when = tuple(alt + tuple(c for c in extra if c[0] not in {d[0] for d in alt})
                             for alt in when)
            rows.append((name, domain, when, result, text))
            derived = _conj_row(rows[-1], name) if name in conj else None
            if derived is not None:
                rows.append(derived)
    inplace = {}
    for op, fn in sorted(operators.items()):
        if op in _IN_PLACE:
            inplace[f"__i{op[2:]}"] = fn
    return version, rows, unchecked, errata, dict(sorted(operators.items())), inplace


#: operators that have an in-place form (the standard's "In-place operators": arithmetic
#: and bitwise; comparisons have none)
_IN_PLACE = {"__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__",
             "__pow__", "__and__", "__or__", "__xor__", "__lshift__", "__rshift__",
             "__matmul__"}


#: the table's families: module of the generated package -> (its title, its functions);
#: each module stays well under the house limit of 800 lines
FAMILIES = {
    "trigonometric": ("trigonometric and hyperbolic functions", (
        "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cos", "cosh", "sin",
        "sinh", "tan", "tanh")),
    "exponential": ("exponentials, logarithms, powers and roots", (
        "exp", "expm1", "log", "log1p", "log2", "log10", "logaddexp", "pow", "sqrt",
        "hypot")),
    "arithmetic": ("arithmetic, rounding, comparisons and predicates", (
        "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "copysign",
        "nextafter", "abs", "negative", "positive", "sign", "signbit", "round", "floor",
        "ceil", "trunc", "clip", "maximum", "minimum", "equal", "not_equal", "greater",
        "greater_equal", "less", "less_equal", "isfinite", "isinf", "isnan")),
}
#: rows of functions in no family above (conversions, reductions, anything new)
OTHER = ("other", "conversions of the array object, reductions and the rest")


def family_of(name):
    """The module of the generated package holding ``name``'s rows."""
    return next((f for f, (_, names) in FAMILIES.items() if name in names), OTHER[0])


def _header(title):
    return [f'"""{title}',
            "",
            "GENERATED by tools/gen_special_cases.py from the standard's stubs -- do not edit.",
            "Regenerate with ``python tools/gen_special_cases.py STUBS_DIR`` (the standard's",
            "``stubs`` directory); laxarray/conformance/special_cases.py interprets the rows",
            "(its docstring describes the format).",
            '"""',
            ""]


def _rows_lines(rows):
    out = []
    for name, domain, when, result, text in rows:
        out.append(f"    ({name!r}, {domain!r}, {when!r},")
        out.append(f"     {result!r},")
        out.append(f"     {text!r}),")
    return out


def render(tab):
    """``{file name: Python source}`` of the table package: ``__init__.py`` (version,
    operators, unchecked bullets, errata, and ``ROWS`` joined from the families) and one
    module of rows per family (:data:`FAMILIES`), rows in the stubs' order."""
    version, rows, unchecked, errata, operators, inplace = tab
    titles = {**{f: t for f, (t, _) in FAMILIES.items()}, OTHER[0]: OTHER[1]}
    by_family = {f: [r for r in rows if family_of(r[0]) == f] for f in titles}
    by_family = {f: rs for f, rs in by_family.items() if rs}
    files = {}
    for family, rs in by_family.items():
        out = _header(f"Special cases of the Array API standard {version}: {titles[family]}.")
        out += ["#: (function, domain, when, result, text): one row per machine-checkable bullet",
                "ROWS = ("]
        files[f"{family}.py"] = "\n".join(out + _rows_lines(rs) + [")", ""])
    out = _header(f"The special cases of the Array API standard {version}, as data.")
    out += [f"from . import {', '.join(by_family)}",
            "",
            f"VERSION = {version!r}",
            "",
            "#: operator -> the elementwise function whose results, special cases included, it",
            "#: must equal (from the array object's stubs)",
            "OPERATORS = {"]
    out += [f"    {k!r}: {v!r}," for k, v in operators.items()]
    out += ["}", "", "#: in-place operator -> function (the arithmetic and bitwise operators')",
            "INPLACE = {"]
    out += [f"    {k!r}: {v!r}," for k, v in inplace.items()]
    out += ["}", "",
            "#: (function, domain, when, result, text): one row per machine-checkable bullet,",
            "#: the families' rows (each function's rows in the stubs' order)",
            "ROWS = " + " + ".join(f"{f}.ROWS" for f in by_family),
            "",
            "#: (function, domain, text, why): bullets that state no machine-checkable value",
            "UNCHECKED = ("]
    for name, domain, text, why in unchecked:
        out += [f"    ({name!r}, {domain!r},", f"     {text!r},", f"     {why!r}),"]
    out += [")", "",
            "#: (function, domain, text, why): bullets read otherwise than literally",
            "ERRATA = ("]
    for name, domain, text, why in errata:
        out += [f"    ({name!r}, {domain!r},", f"     {text!r},", f"     {why!r}),"]
    files["__init__.py"] = "\n".join(out + [")", ""])
    return files


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stubs", type=pathlib.Path)
    parser.add_argument("-o", "--output", default=OUTPUT, type=pathlib.Path,
                        help="the package directory to write")
    parser.add_argument("--check", action="store_true",
                        help="compare with OUTPUT instead of writing it")
    opts = parser.parse_args(argv)
    if not opts.stubs.is_dir():
        parser.error(f"no stubs directory at {opts.stubs}")
    tab = table(opts.stubs)
    files = render(tab)
    if opts.check:
        stale = [n for n, text in files.items()
                 if not (opts.output / n).is_file() or (opts.output / n).read_text() != text]
        print(f"{opts.output}: {'up to date' if not stale else 'differs: ' + ', '.join(stale)}")
        return 1 if stale else 0
    opts.output.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (opts.output / name).write_text(text)
    derived = sum(r[4].startswith("By ``") for r in tab[1])
    print(f"wrote {opts.output}: {len(tab[1]) - derived} rows from bullets, {derived} derived "
          f"by conjugate symmetry, {len(tab[2])} bullets not machine-checkable, "
          f"{len(tab[3])} errata")
    return 0


if __name__ == "__main__":
    sys.exit(main())
