"""A kernel's identity: what names one :class:`~laxarray._core.runtime.kernel.Kernel` in every
process, computed once per kernel (on first use) and read by everything that names it.

Three readers, one value (:class:`KernelId`):

* the executable store's key (``kernel.Bound``): :attr:`KernelId.store`, the kernel's body
  with what its closure holds and its bucket rules as ``call_key.describe`` text, to which
  a binding adds its static arguments;
* the recorder (``record.kernel_path``, ``LAXARRAY_RECORD``) and its replay: :attr:`KernelId.path`
  and :attr:`KernelId.args`, how another process finds the kernel (:func:`find`);
* the test spy (``kernel.spy``): :attr:`KernelId.module` and :attr:`KernelId.name`.

How another process finds a kernel is said where the kernel is made, never patched on after:

* a kernel decorated at a module's top level is that module's attribute of its name
  (``module:_sum_kernel``), checked to resolve back to the kernel (one defined inside a
  function, or stored under another name, has no path);
* a kernel built by a factory is given the factory's path and arguments (``Kernel(...,
  factory=(path, args))``): ``path`` names a function that returns the kernel from ``args``
  (``_ufunc.family_kernel``), checked to return this very kernel;
* a declared host path's traced body is a kernel its declaring kernel makes
  (``Kernel.on_host``): its owner's path followed by ``.on_host``.
"""

from __future__ import annotations

import dataclasses

from laxarray._core.runtime.call_key import describe
from laxarray._core.runtime.lookup_log import Unrecordable, resolve


@dataclasses.dataclass(frozen=True, slots=True)
class KernelId:
    """One kernel's identity (see the module docstring).

    ``module``, ``name``: the body's defining module and the kernel's name (what the test
    spy records).  ``path``, ``args``: ``module:qualname`` of the kernel as a module
    attribute (``args`` empty), of a factory that returns it from ``args``, or of its
    owner's ``.on_host``; ``path`` is ``None`` where no other process can find it.
    ``store``: the store's text of the kernel (body, closure, bucket rules), ``None`` where
    it names objects of this process only (then the store keeps none of its executables)."""

    module: str
    name: str
    path: str | None
    args: tuple
    store: str | None

    def find(self):
        """The kernel this identity names, found as another process finds it
        (:func:`find`); ``Unrecordable`` where it has no path."""
        if self.path is None:
            raise Unrecordable(f"{self.module}:{self.name} has no path another process "
                               "finds (a kernel made inside a function, or stored under "
                               "another name)")
        return find(self.path, self.args)


def identify(kern, factory=None, owner=None) -> KernelId:
    """The :class:`KernelId` of ``kern`` (a ``Kernel``): built by ``factory`` (``(path,
    args)``), the traced host body of ``owner`` (a ``Kernel``), or neither (a module
    attribute of its name)."""
    fn, name = kern.fn, kern.__name__
    store = describe((name, fn, kern.fills, kern.shape, kern.bucket, kern.unpadded,
                      kern.extents))
    if factory is not None:
        path, args = factory[0], tuple(factory[1])
    elif owner is None:
        path, args = f"{fn.__module__}:{name}", ()
    else:
        up = owner.id
        path, args = None if up.path is None or up.args else f"{up.path}.on_host", ()
    if path is not None and not _gives(path, args, factory is not None, kern):
        path = None     # what the path names now is another object: no process finds it
    return KernelId(fn.__module__, name, path, args, store)


def find(path, args=()):
    """The kernel ``path`` (``module:qualname``) names: the object there where it is a
    kernel (it has a :class:`KernelId`), else what that factory returns from ``args``;
    ``Unrecordable`` where the path is gone."""
    obj = resolve(path)
    return obj if isinstance(getattr(obj, "id", None), KernelId) else obj(*args)


def _gives(path, args, factory, kern) -> bool:
    """Whether ``path`` names ``kern`` (a factory there returns it from ``args``)."""
    try:
        obj = resolve(path)
        return obj is kern or factory and obj(*args) is kern
    except Exception:  # noqa: BLE001  (a factory that cannot give it back: no path)
        return False
