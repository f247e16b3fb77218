"""One package per game; each exposes ``GAME``, its spec, and is found by the registry.

``machiavel.games()`` is the public list of game ids, yet Python binds the name
``machiavel.games`` to this package as soon as it is imported. So the package itself
answers a call with that list, whichever of the two the name holds.
"""

from __future__ import annotations

import sys
import types


class _CallablePackage(types.ModuleType):
    def __call__(self) -> tuple[str, ...]:
        from machiavel.core.registry import games

        return games()


sys.modules[__name__].__class__ = _CallablePackage
