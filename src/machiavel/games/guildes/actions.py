"""Action strings of Guildes: their canonical spelling and their parsed form.

Canonical actions (guild names with accents, as on the cards):

- ``keep Érudits``: drafting, keep one card of the hand you hold (G3);
- ``discard Nobles``: the Redistribution event, give one card to the shuffled pile;
- ``place Milice`` or ``place Artisans Nobles``: placing (two cards with the event
  "Pose d'une ou deux cartes"); also the card kept after the Coup Tordu D draw;
- ``pass``: decline one's Coup Tordu card;
- ``swap 0 Nobles 2 Milice`` (B): player 0's Nobles goes to player 2, player 2's Milice
  to player 0;
- ``sacrifice Nobles 2 Milice`` (C): discard one's own Nobles and player 2's Milice;
- ``draw`` (D): draw two cards from the discard pile;
- ``exchange Nobles Milice`` (E): take one's placed Nobles back in hand, place a Milice;
- ``plus 2`` / ``minus 2`` (F-I): the card's guild counts one more / one less for player 2.

Parsed actions are tuples: the verb, then numbers (guilds and players).
"""

from __future__ import annotations

from machiavel.core.parsing import number_problem, read_number
from machiavel.games.guildes.data import GUILD_ALIASES, GUILD_COUNT, GUILD_NAMES, plain

KEEP = tuple(f"keep {name}" for name in GUILD_NAMES)
DISCARD = tuple(f"discard {name}" for name in GUILD_NAMES)
PLACE = tuple(f"place {name}" for name in GUILD_NAMES)
PLACE_PAIR = tuple(
    tuple(f"place {GUILD_NAMES[a]} {GUILD_NAMES[b]}" if a <= b else "" for b in range(GUILD_COUNT))
    for a in range(GUILD_COUNT)
)
PASS = "pass"
DRAW = "draw"

# The actions taken thousands of times a game, parsed once: verb and guilds.
SIMPLE: dict[str, tuple[str, tuple[int, ...]]] = {PASS: ("pass", ()), DRAW: ("draw", ())}
for _g in range(GUILD_COUNT):
    SIMPLE[KEEP[_g]] = ("keep", (_g,))
    SIMPLE[DISCARD[_g]] = ("discard", (_g,))
    SIMPLE[PLACE[_g]] = ("place", (_g,))
    for _h in range(_g, GUILD_COUNT):
        SIMPLE[PLACE_PAIR[_g][_h]] = ("place", (_g, _h))

# argument kinds per verb: g = guild, p = player
SIGNATURES: dict[str, tuple[str, ...]] = {
    "keep": ("g",),
    "discard": ("g",),
    "place": ("g",),  # or ("g", "g")
    "pass": (),
    "draw": (),
    "swap": ("p", "g", "p", "g"),
    "sacrifice": ("g", "p", "g"),
    "exchange": ("g", "g"),
    "plus": ("p",),
    "minus": ("p",),
}
EXAMPLES = {
    "keep": "keep Érudits",
    "discard": "discard Nobles",
    "place": "place Milice",
    "pass": "pass",
    "draw": "draw",
    "swap": "swap 0 Nobles 2 Milice",
    "sacrifice": "sacrifice Nobles 2 Milice",
    "exchange": "exchange Nobles Milice",
    "plus": "plus 2",
    "minus": "minus 2",
}


class ActionError(ValueError):
    """A malformed action; the message says what is wrong in words a player understands."""


def guild_of(word: str) -> int:
    index = GUILD_ALIASES.get(plain(word))
    if index is None:
        raise ActionError(f"{word!r} is not a guild: the guilds are {', '.join(GUILD_NAMES)}")
    return index


def player_of(word: str) -> int:
    number = read_number(word)
    if number is None:
        raise ActionError(number_problem(word, "a player number") + " (players are 0, 1, 2...)")
    return number


def parse(action: str) -> tuple[str, tuple[int, ...]]:
    """The verb and the numbers of an action; ``ActionError`` says what is malformed."""
    simple = SIMPLE.get(action)
    if simple is not None:
        return simple
    words = action.split()
    if not words:
        raise ActionError("an empty action: write for example 'keep Érudits'")
    verb = plain(words[0])
    signature = SIGNATURES.get(verb)
    if signature is None:
        raise ActionError(
            f"{words[0]!r} is not an action of Guildes: actions begin with "
            + ", ".join(repr(v) for v in SIGNATURES)
        )
    if verb == "place" and len(words) == 3:
        signature = ("g", "g")
    if len(words) - 1 != len(signature):
        raise ActionError(f"{action!r} is malformed: write for example {EXAMPLES[verb]!r}")
    numbers = tuple(
        guild_of(word) if kind == "g" else player_of(word)
        for kind, word in zip(signature, words[1:], strict=True)
    )
    return verb, canonical_order(verb, numbers)


def canonical_order(verb: str, numbers: tuple[int, ...]) -> tuple[int, ...]:
    """Orders that mean the same thing get one spelling: two placed cards, the swap sides."""
    if verb == "place" and len(numbers) == 2 and numbers[0] > numbers[1]:
        return (numbers[1], numbers[0])
    if verb == "swap" and numbers[0] > numbers[2]:
        return (numbers[2], numbers[3], numbers[0], numbers[1])
    return numbers


def spell(verb: str, numbers: tuple[int, ...]) -> str:
    """The canonical text of a parsed action."""
    kinds = SIGNATURES[verb] if not (verb == "place" and len(numbers) == 2) else ("g", "g")
    words = [verb] + [
        GUILD_NAMES[n] if kind == "g" else str(n) for kind, n in zip(kinds, numbers, strict=True)
    ]
    return " ".join(words)


def normalize(action: str) -> str:
    """The canonical spelling, or the action with its spaces tidied if it does not parse."""
    if action in SIMPLE:
        return action
    try:
        verb, numbers = parse(action)
    except ActionError:
        return " ".join(action.split())
    return spell(verb, numbers)
