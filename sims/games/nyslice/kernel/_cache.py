"""numba's on-disk cache, keyed on the whole kernel.

numba checks a cached function against its own source file only. The kernel's functions
call and inline one another across this package's modules, and numba freezes the
module-level values they read (``layout.py``'s codes and the tables it takes from
``rules.py`` and ``deck.py``) into their machine code. So an edit to one module, or to a
rule or deck table, would leave the functions of the other modules running stale code
from the cache. ``key_caches`` adds one digest of the package's sources, of
``sims.core.fastrng``'s (its draws are compiled in) and of every value the kernel's modules
hold to each kernel function's cache stamp: any such change recompiles the whole kernel,
as it did when the kernel was one file.
"""

from __future__ import annotations

import hashlib
import warnings
from pathlib import Path
from types import ModuleType

import numpy as np
from numba.core.caching import NullCache
from numba.core.dispatcher import Dispatcher

import sims.core.fastrng


def _canonical(value: object) -> object:
    """A repr-able, process-independent form of a module-level value (or None to skip)."""
    if isinstance(value, bool | int | float | str):
        return repr(value)
    if isinstance(value, np.ndarray):
        return (str(value.dtype), value.shape, hashlib.sha256(value.tobytes()).hexdigest())
    if isinstance(value, tuple | list):
        return tuple(_canonical(v) for v in value)
    if isinstance(value, set | frozenset):
        return tuple(sorted(repr(_canonical(v)) for v in value))
    if isinstance(value, dict):
        return tuple(sorted((repr(_canonical(k)), repr(_canonical(v))) for k, v in value.items()))
    return None


def digest(modules: list[ModuleType]) -> str:
    """Digest of the kernel's sources, fastrng's, and the values its modules hold."""
    h = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    h.update(Path(sims.core.fastrng.__file__).read_bytes())
    for mod in sorted(modules, key=lambda m: m.__name__):
        for name, value in sorted(vars(mod).items()):
            canon = _canonical(value)
            if canon is not None and not name.startswith("__"):
                h.update(repr((mod.__name__, name, canon)).encode())
    return h.hexdigest()


def key_caches(modules: list[ModuleType]) -> str:
    """Key the cache of every compiled function defined in ``modules`` on ``digest``."""
    key = digest(modules)
    for mod in modules:
        for obj in vars(mod).values():
            if not isinstance(obj, Dispatcher) or obj.py_func.__module__ != mod.__name__:
                continue
            cache = getattr(obj, "_cache", None)
            if isinstance(cache, NullCache):
                continue  # not cached
            index = getattr(cache, "_cache_file", None)
            if index is None or not hasattr(index, "_source_stamp"):
                warnings.warn(
                    "numba's cache has changed shape: the kernel's cached functions are "
                    "checked against their own module only (clear __pycache__ after edits)",
                    stacklevel=2,
                )
                return key
            index._source_stamp = (index._source_stamp, key)
    return key
