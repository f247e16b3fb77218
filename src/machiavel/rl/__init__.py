"""Research adapters, apart from the rules (docs/rl.md).

``ActionSpace`` and ``Observer`` give every game a fixed integer action space and a
numeric observation built from a player's view only. The environments (PettingZoo,
Gymnasium, OpenSpiel) sit on them in submodules that need the ``rl`` and ``openspiel``
extras.
"""

from machiavel.rl.spaces import ActionSpace, Observer

__all__ = ["ActionSpace", "Observer"]
