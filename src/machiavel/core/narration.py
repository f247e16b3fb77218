"""An action told to everyone at the table: the one place that plays an action and writes
what each viewer reads of it, so the server, replays and the tests tell a game alike.

A told action is its log entry: the line saying who did what, then one line per event
that followed (an election's result, a count, a death...), joined by newlines, as each
viewer (each player, then spectators) reads them in each language of ``LANGUAGES``; and
the marks the page draws on the board for it, which every viewer may see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from machiavel.core.contract import LANGUAGES, JsonDict, State

# What the log says of an action an engine cannot describe.
NEUTRAL_LINES = {"en": "player {player} played", "fr": "joueur {player} a joué"}


@dataclass(frozen=True, slots=True)
class Told:
    """One action's log entry for every viewer and language, and its board marks."""

    # lines[language] holds one text when all viewers read the same, else one per viewer
    # (players, then spectators).
    lines: tuple[tuple[str, ...], ...]
    marks: JsonDict = field(default_factory=dict)

    @classmethod
    def of(cls, lines: Sequence[Sequence[str]], marks: JsonDict | None = None) -> Told:
        return cls(tuple(_shared(each) for each in lines), marks or {})

    def for_viewer(self, viewer: int | None, players: int, language: int = 0) -> str:
        """The entry ``viewer`` (None: a spectator) reads in ``LANGUAGES[language]``."""
        lines = self.lines[language]
        if len(lines) == 1:
            return lines[0]
        return lines[players if viewer is None else viewer]


def _shared(lines: Sequence[str]) -> tuple[str, ...]:
    first = lines[0]
    return (first,) if lines.count(first) == len(lines) else tuple(lines)


def narrate(state: State, player: int, action: str) -> Told:
    """Play ``action`` of ``player`` on ``state`` and tell it.

    ``IllegalAction`` (and anything else ``apply`` raises) comes out with the state
    unchanged. An engine that cannot describe an action gets a neutral line, and one whose
    events or marks fail gets none: the log must never be why a legal action is refused.
    """
    before = state._before_action()  # what events and marks compare with
    said = describe_all(state, player, action)
    state.apply(player, action)
    played = state.history[-1][1]
    viewers: list[int | None] = [*range(state.players), None]
    try:
        followed = [
            state.events_for_all(before, player, played, viewers, language)
            for language in LANGUAGES
        ]
    except Exception:
        followed = []
    try:
        marks = state.marks(before, player, played)
    except Exception:
        marks = {}
    if any(events for followed_in in followed for events in followed_in):
        said = [
            [
                "\n".join([said_to, *events])
                for said_to, events in zip(said_in, followed_in, strict=True)
            ]
            for said_in, followed_in in zip(said, followed, strict=True)
        ]  # (most actions are followed by nothing: their lines are the action's alone)
    return Told.of(said, {"player": player, **marks})


def describe_all(state: State, player: int, action: str) -> list[list[str]]:
    """How the action about to be played reads for each player, then for spectators, in
    each language (a neutral line if the engine cannot say: apply() will say why)."""
    viewers: list[int | None] = [*range(state.players), None]
    try:
        return [state.describe_for_all(player, action, viewers, language) for language in LANGUAGES]
    except Exception:
        return [
            [NEUTRAL_LINES.get(language, NEUTRAL_LINES["en"]).format(player=player)] * len(viewers)
            for language in LANGUAGES
        ]
