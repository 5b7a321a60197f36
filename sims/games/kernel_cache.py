"""numba's on-disk cache, keyed on a whole compiled-kernel package (shared by the games'
kernels: ``sims.games.nyslice.kernel``, ``sims.games.pieceocake.kernel``,
``sims.games.pizzatheory.kernel``).

numba checks a cached function against its own source file only. A kernel's functions
call and inline one another across its package's modules, and numba freezes the
module-level values they read (codes, and the tables a kernel takes from its game's rules
and data modules) into their machine code. So an edit to one module, or to a rule or data
table, would leave the functions of the other modules running stale code from the cache.
:func:`key_caches` adds one digest of the package's sources, of ``sims.core.fastrng``'s
(its draws are compiled in) and of every value the package's modules hold to each kernel
function's cache stamp: any such change recompiles the whole kernel, as it would if the
kernel were one file.

A kernel package calls it once, at the end of its ``__init__``, with its modules::

    _CACHE_KEY = key_caches(_MODULES)
"""

from __future__ import annotations

import hashlib
import importlib
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


def package_of(modules: list[ModuleType]) -> str:
    """The package the kernel ``modules`` belong to (all must share one).

    Raises
    ------
    ValueError
        For no modules, or modules of several packages.
    """
    parents = {mod.__name__.rpartition(".")[0] for mod in modules}
    if len(parents) != 1 or "" in parents:
        raise ValueError(f"kernel modules of one package expected, got packages {parents}")
    return parents.pop()


def _package_dir(package: str) -> Path:
    mod = importlib.import_module(package)  # already (being) imported by its __init__
    return Path(mod.__file__).parent


def digest(modules: list[ModuleType], package: str | None = None) -> str:
    """Digest of a kernel package's sources, fastrng's, and the values its modules hold.

    Parameters
    ----------
    modules : list of module
        The kernel's modules (whose module-level values are digested).
    package : str, optional
        The dotted name of the package whose ``*.py`` files are digested; default: the
        package of ``modules`` (:func:`package_of`).
    """
    h = hashlib.sha256()
    root = _package_dir(package or package_of(modules))
    for path in sorted(root.glob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    h.update(Path(sims.core.fastrng.__file__).read_bytes())
    for mod in sorted(modules, key=lambda m: m.__name__):
        for name, value in sorted(vars(mod).items()):
            canon = _canonical(value)
            if canon is not None and not name.startswith("__"):
                h.update(repr((mod.__name__, name, canon)).encode())
    return h.hexdigest()


def key_caches(modules: list[ModuleType], package: str | None = None) -> str:
    """Key the cache of every compiled function defined in ``modules`` on :func:`digest`
    (of ``package``, default the modules' own package); returns the key."""
    key = digest(modules, package)
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
