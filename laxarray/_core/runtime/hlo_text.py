"""Reading a compiled program as XLA prints it: its optimized HLO text, its platform, and
whether it needs machine code of its own (what ``serialize.serialize_compiled`` checks before
it writes an XLA:CPU executable that jax may have loaded without its code)."""

from __future__ import annotations

import re

#: An object file inside a serialized XLA:CPU executable: ELF (Linux), Mach-O (macOS).
_OBJECT_CODE = re.compile(rb"\x7fELF|\xcf\xfa\xed\xfe")

#: HLO instructions that XLA:CPU runs without code of the program's own (no kernel, no
#: comparator): a program made only of these has no object file, and needs none.  Only
#: certain ones: an instruction missing here (``dot``, ``fft``, library fusions) just keeps
#: its program out of the store in a process that had jax-cache hits.
_CODELESS = frozenset({"parameter", "constant", "tuple", "get-tuple-element", "bitcast",
                       "copy", "custom-call", "after-all", "add-dependency", "opt-barrier",
                       "partition-id", "replica-id", "copy-start", "copy-done", "domain"})
_INSTRUCTION = re.compile(r"^\s*(?:ROOT\s+)?%?[\w.\-]+\s*=\s*(.*)$")


def program_text(compiled):
    """The optimized HLO text of ``compiled`` (``None``: none to be had)."""
    try:
        text = compiled.as_text()
    except Exception:  # noqa: BLE001  (a backend without HLO text)
        return None
    return text if isinstance(text, str) else None


def platform_of(compiled):
    """The platform ``compiled`` runs on (``"cpu"``, ``"tpu"`` ...; ``None``: unknown)."""
    try:
        return compiled.runtime_executable().client.platform
    except Exception:  # noqa: BLE001
        return None


def has_object_code(payload: bytes) -> bool:
    """Whether a serialized executable's bytes hold an object file (its machine code)."""
    return _OBJECT_CODE.search(payload) is not None


def needs_no_code(text) -> bool:
    """Whether every instruction of HLO ``text`` is in :data:`_CODELESS` (an instruction
    whose opcode cannot be read counts as one that needs code)."""
    for line in text.splitlines():
        m = _INSTRUCTION.match(line)
        if m is None:
            continue
        if opcode(m.group(1)) not in _CODELESS:
            return False
    return True


def opcode(rest):
    """The opcode of an HLO instruction's right-hand side ``shape opcode(operands) ...``."""
    if rest.startswith("("):               # a tuple shape, perhaps nested
        depth, i = 0, 0
        while i < len(rest):
            depth += (rest[i] == "(") - (rest[i] == ")")
            i += 1
            if depth == 0:
                break
    else:
        i = rest.find(" ")
        if i < 0:
            return None
    m = re.match(r"\s*([a-z][\w\-]*)\(", rest[i:])
    return m.group(1) if m else None
