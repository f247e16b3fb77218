"""Guildes for research environments: every action numbered, a view as a vector (docs/rl.md).

Actions come in blocks, each in guild order (the count card's) then player order; a block
exists only when the options allow its actions: ``discard`` and two-card placements need
``events`` (the Redistribution and "Pose d'une ou deux cartes" cards), the Coup Tordu
verbs need ``dirty_tricks``. Guilds absent from this player count's deck (the Alchimistes
with 3 players, G1) are left out.

The observation is laid out in ``FIELDS``: the same fields for every option mix (a field
of a variant not played stays 0), seats rotated so the viewer comes first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from machiavel.core.contract import JsonDict
from machiavel.games.guildes.actions import DISCARD, DRAW, KEEP, PASS, PLACE, PLACE_PAIR, spell
from machiavel.games.guildes.data import (
    COPIES,
    DEALT,
    EVENT_IDS,
    GUILD_COUNT,
    GUILD_INDEX,
    MILICE,
    MILICE_VOTES,
    PLACES,
    PLAYED,
    REMOVED,
    TEN_OR_MORE,
    TRICK_GUILD,
    TRICK_LETTERS,
)
from machiavel.games.guildes.rules import PHASE_NAMES, ROUNDS
from machiavel.rl.encoding import ListedEncoding, Vector

# The most cards one simultaneous choice, a reveal or a D draw can hold (two-card steps).
MOST_AT_ONCE = 2
EVENT_INDEX = {event: index for index, event in enumerate(EVENT_IDS)}
LETTER_INDEX = {letter: index for index, letter in enumerate(TRICK_LETTERS)}
# F-I: the Coup Tordu cards that leave a +1/-1 on a tableau for the round's count.
MODIFIER_LETTERS: tuple[str, ...] = tuple(
    letter for letter, guild in zip(TRICK_LETTERS, TRICK_GUILD, strict=True) if guild >= 0
)


@dataclass(frozen=True)
class Field:
    """A run of the observation: ``fixed + per_seat * players`` numbers."""

    name: str
    fixed: int
    per_seat: int
    meaning: str

    def length(self, players: int) -> int:
        return self.fixed + self.per_seat * players


G = GUILD_COUNT
FIELDS: tuple[Field, ...] = (
    Field("round", ROUNDS, 0, "one-hot: round 1, 2, 3"),
    Field("phase", len(PHASE_NAMES), 0, "one-hot: " + ", ".join(PHASE_NAMES)),
    Field("options", 2, 0, "1 if played: events, dirty_tricks"),
    Field(
        "event",
        len(EVENT_IDS),
        0,
        "one-hot: this round's event card (" + ", ".join(EVENT_IDS) + ")",
    ),
    Field("event_in_effect", 1, 0, "1 if the event's effect is played (option events)"),
    Field("direction_left", 1, 0, "1 if hands pass to the left (player + 1), 0 to the right"),
    Field("past_events", len(EVENT_IDS), 0, "1 for each event card of an earlier round"),
    Field("deck_size", 1, 0, "cards in the deck / the deck at the start"),
    Field("discard_size", 1, 0, "cards in the discard pile / the deck at the start"),
    Field("is_over", 1, 0, "1 once the game is over"),
    Field("to_move", 0, 1, "per seat: 1 if that player is to move"),
    Field("winners", 0, 1, "per seat: 1 if a winner (game over)"),
    Field("scores", 0, 1, "per seat: vote total / the most votes three counts can give"),
    Field("tableaux", 0, G, "per seat, per guild: face-up cards / that guild's copies in the deck"),
    Field("face_down", 0, 1, "per seat: placed cards still face down / 2"),
    Field("hand_sizes", 0, 1, "per seat: cards in the hand being drafted / cards dealt"),
    Field("kept_sizes", 0, 1, "per seat: kept, unplaced cards / cards dealt"),
    Field("chosen", 0, 1, "per seat: 1 if they made the current simultaneous choice"),
    Field("last_reveal", 0, G, "per seat, per guild: cards revealed at the last placing step / 2"),
    Field(
        "placing",
        3,
        0,
        "cards placed so far / cards played, total / cards played, cards this step / 2",
    ),
    Field("in_turn_first", 0, 1, "per seat: 1 for the first player of placing in turn"),
    Field(
        "counts",
        2 * ROUNDS,
        ROUNDS,
        "per count 1-3: held (1), ties ignored (1), per seat votes / that round's most",
    ),
    Field("tricks", 0, len(TRICK_LETTERS), "per seat: one-hot of the Coup Tordu card held (A-I)"),
    Field("previous_tricks", 0, len(TRICK_LETTERS), "per seat: one-hot of last round's card"),
    Field("protected", 0, 1, "per seat: 1 for the holder of Protection (A)"),
    Field("trick_turn", len(TRICK_LETTERS), 0, "one-hot: the Coup Tordu card being resolved"),
    Field(
        "modifiers",
        0,
        2 * len(MODIFIER_LETTERS),
        "per seat, per card F-I: 1 for its +1, 1 for its -1",
    ),
    Field("hand", G, 0, "per guild: the viewer's hand being drafted / cards dealt"),
    Field("kept", G, 0, "per guild: the viewer's kept, unplaced cards / cards dealt"),
    Field("my_choice", G, 0, "per guild: the viewer's pending face-down choice / 2"),
    Field("my_face_down", G, 0, "per guild: the viewer's placed face-down cards / 2"),
    Field("drawn", G, 0, "per guild: the two cards the viewer drew with D / 2"),
    Field("gave", G, 0, "one-hot: the card the viewer gave at the Redistribution"),
    Field("received", G, 0, "one-hot: the card the viewer received at the Redistribution"),
)


def guilds_in_deck(players: int) -> list[int]:
    """The guilds of which a game for ``players`` has at least one card (G1)."""
    return [g for g in range(GUILD_COUNT) if COPIES[g] > REMOVED[players][g]]


def most_votes(round_index: int, players: int) -> int:
    """A bound on one player's votes at a count: first in every guild, every Milice."""
    milice = COPIES[MILICE] - REMOVED[players][MILICE]
    firsts = sum(
        PLACES[round_index][g][0] for g in guilds_in_deck(players) if PLACES[round_index][g]
    )
    return firsts + MILICE_VOTES * milice


# The fields with one number (or one guild row) per seat
_SEAT_FIELDS = (
    "to_move",
    "winners",
    "scores",
    "tableaux",
    "face_down",
    "hand_sizes",
    "kept_sizes",
    "chosen",
    "last_reveal",
)


class Encoding(ListedEncoding):
    """Guildes for 3 to 6 players, with or without the ``events`` and ``dirty_tricks``."""

    version = 1

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.events = bool(options.get("events", False))
        self.dirty_tricks = bool(options.get("dirty_tricks", False))
        self.guilds = guilds_in_deck(players)
        super().__init__(players, options)
        self.offsets: dict[str, tuple[int, int]] = {}  # field name: (offset, length)
        at = 0
        for field in FIELDS:
            self.offsets[field.name] = (at, field.length(players))
            at += field.length(players)
        self._size = at
        # What counts are divided by: the most they can be with this player count.
        self.deck = sum(COPIES) - sum(REMOVED[players])
        # (max 1: a guild removed by G1 has slots that stay 0, never divided by 0)
        self.copies = [max(1, COPIES[g] - REMOVED[players][g]) for g in range(GUILD_COUNT)]
        self.dealt = DEALT[players]
        self.played = PLAYED[players]
        self.round_most = [most_votes(r, players) for r in range(ROUNDS)]

    # ---- actions ----------------------------------------------------------------------
    def every_action(self) -> Sequence[str]:
        guilds = self.guilds
        actions = [KEEP[g] for g in guilds] + [PLACE[g] for g in guilds]
        if self.events:
            actions += [DISCARD[g] for g in guilds]
            actions += [PLACE_PAIR[a][b] for i, a in enumerate(guilds) for b in guilds[i:]]
        if self.dirty_tricks:
            actions += [PASS, DRAW, *self._swaps(), *self._sacrifices(), *self._exchanges()]
            seats = range(self.players)
            actions += [spell("plus", (p,)) for p in seats]
            actions += [spell("minus", (p,)) for p in seats]
        return actions

    def _swaps(self) -> list[str]:
        """B: a card of player a's tableau for another guild's card of player b's, a < b."""
        seats, guilds = range(self.players), self.guilds
        return [
            spell("swap", (a, ga, b, gb))
            for a in seats
            for b in seats
            if a < b
            for ga in guilds
            for gb in guilds
            if ga != gb
        ]

    def _sacrifices(self) -> list[str]:
        """C: one's own card of 10 or more, and any card of any tableau (one's own too)."""
        return [
            spell("sacrifice", (own, target, guild))
            for own in TEN_OR_MORE
            if own in self.guilds
            for target in range(self.players)
            for guild in self.guilds
        ]

    def _exchanges(self) -> list[str]:
        """E: a placed card back to hand for a kept card of another guild."""
        return [spell("exchange", (x, y)) for x in self.guilds for y in self.guilds if x != y]

    # ---- the observation --------------------------------------------------------------
    @property
    def observation_size(self) -> int:
        return self._size

    def slot(self, out: Vector, name: str) -> Vector:
        """The part of ``out`` that holds field ``name`` (a view: writes go to ``out``)."""
        at, length = self.offsets[name]
        return out[at : at + length]

    def seat(self, player: int, viewer: int | None) -> int:
        """Seats counted from the viewer (0), in player order: left stays player + 1."""
        return (player - (viewer or 0)) % self.players

    def observe(self, view: JsonDict, out: Vector) -> None:
        viewer = view.get("viewer")
        self._observe_game(view, out)
        self._observe_seats(view, out, viewer)
        self._observe_placing(view, out, viewer)
        self._observe_counts(view, out, viewer)
        tricks = view.get("dirty_tricks")
        if tricks is not None:
            self._observe_tricks(tricks, out, viewer)
        self._observe_private(view, out)

    def _observe_game(self, view: JsonDict, out: Vector) -> None:
        self.slot(out, "round")[view["round"] - 1] = 1
        self.slot(out, "phase")[PHASE_NAMES.index(view["phase"])] = 1
        options = view["options"]
        self.slot(out, "options")[:] = (options["events"], options["dirty_tricks"])
        event = view["event"]
        self.slot(out, "event")[EVENT_INDEX[event["id"]]] = 1
        self.slot(out, "event_in_effect")[0] = event["in_effect"]
        self.slot(out, "direction_left")[0] = view["direction"] == "left"
        past = self.slot(out, "past_events")
        for event_id in view["past_events"]:
            past[EVENT_INDEX[event_id]] = 1
        self.slot(out, "deck_size")[0] = view["deck_size"] / self.deck
        self.slot(out, "discard_size")[0] = view["discard_size"] / self.deck
        self.slot(out, "is_over")[0] = view["is_over"]

    def _observe_seats(self, view: JsonDict, out: Vector, viewer: int | None) -> None:
        """The per-player fields, each player at their seat counted from the viewer."""
        most = sum(self.round_most)
        at = {name: self.offsets[name][0] for name in _SEAT_FIELDS}
        to_move, winners, scores = view["to_move"], view["winners"], view["scores"]
        for player in range(self.players):
            seat = self.seat(player, viewer)  # below each field's length: it counts players
            out[at["to_move"] + seat] = player in to_move
            out[at["winners"] + seat] = player in winners
            out[at["scores"] + seat] = scores[player] / most
            tableau = at["tableaux"] + seat * G
            self._guild_counts(out[tableau : tableau + G], view["tableaux"][player], self.copies)
            out[at["face_down"] + seat] = view["face_down"][player] / MOST_AT_ONCE
            out[at["hand_sizes"] + seat] = view["hand_sizes"][player] / self.dealt
            out[at["kept_sizes"] + seat] = view["kept_sizes"][player] / self.dealt
            out[at["chosen"] + seat] = view["chosen"][player]
            reveal = at["last_reveal"] + seat * G
            for name in view["last_reveal"][player]:
                out[reveal + GUILD_INDEX[name]] += 1 / MOST_AT_ONCE

    @staticmethod
    def _guild_counts(slot: Vector, cards: Mapping[str, int], most: Sequence[int]) -> None:
        """``{guild: cards}`` as one number per guild, each divided by its ``most``."""
        for name, number in cards.items():
            guild = GUILD_INDEX[name]
            slot[guild] = number / most[guild]

    def _observe_placing(self, view: JsonDict, out: Vector, viewer: int | None) -> None:
        placing = view["placing"]
        self.slot(out, "placing")[:] = (
            placing["placed"] / self.played,
            placing["total"] / self.played,
            placing["cards_this_step"] / MOST_AT_ONCE,
        )
        first = placing["in_turn_first"]
        if first is not None:
            self.slot(out, "in_turn_first")[self.seat(first, viewer)] = 1

    def _observe_counts(self, view: JsonDict, out: Vector, viewer: int | None) -> None:
        """Per count held: a flag, the "ties ignored" event, each seat's votes."""
        counts = self.slot(out, "counts")
        width = 2 + self.players
        for count in view["counts"]:
            round_index = count["round"] - 1
            row = counts[round_index * width : (round_index + 1) * width]
            row[0] = 1
            row[1] = count["ties_ignored"]
            for player, votes in enumerate(count["votes"]):
                row[2 + self.seat(player, viewer)] = votes / self.round_most[round_index]

    def _observe_tricks(self, tricks: JsonDict, out: Vector, viewer: int | None) -> None:
        letters = len(TRICK_LETTERS)
        for name, key in (("tricks", "cards"), ("previous_tricks", "previous")):
            slot = self.slot(out, name)
            for player, letter in enumerate(tricks[key]):
                if letter is not None:
                    slot[self.seat(player, viewer) * letters + LETTER_INDEX[letter]] = 1
        if tricks["protected"] is not None:
            self.slot(out, "protected")[self.seat(tricks["protected"], viewer)] = 1
        if tricks["turn"] is not None:
            self.slot(out, "trick_turn")[LETTER_INDEX[tricks["turn"]]] = 1
        modifiers = self.slot(out, "modifiers")
        width = 2 * len(MODIFIER_LETTERS)
        for modifier in tricks["modifiers"]:
            card = MODIFIER_LETTERS.index(modifier["card"])
            sign = 0 if modifier["delta"] > 0 else 1
            modifiers[self.seat(modifier["player"], viewer) * width + 2 * card + sign] = 1

    def _observe_private(self, view: JsonDict, out: Vector) -> None:
        """The viewer's own cards; a spectator's view has none (the fields stay 0)."""
        dealt = [self.dealt] * GUILD_COUNT
        self._guild_counts(self.slot(out, "hand"), view.get("hand", {}), dealt)
        self._guild_counts(self.slot(out, "kept"), view.get("kept", {}), dealt)
        for name in ("my_choice", "my_face_down", "drawn"):
            slot = self.slot(out, name)
            for guild in view.get(name) or ():  # my_choice is null until chosen
                slot[GUILD_INDEX[guild]] += 1 / MOST_AT_ONCE
        redistribution = view.get("redistribution")
        if redistribution is not None:
            self.slot(out, "gave")[GUILD_INDEX[redistribution["gave"]]] = 1
            self.slot(out, "received")[GUILD_INDEX[redistribution["received"]]] = 1


__all__ = ["FIELDS", "Encoding", "Field"]
