"""What each player (or a spectator) may know of a Guildes state.

Public: tableaux (face-up cards), how many cards each player holds, who has already made
the current simultaneous choice (not what), the event card, the Coup Tordu cards (they are
dealt face up), the counts held and the running scores. Private: one's own hand, kept
cards, pending choice, face-down cards, and the cards drawn with D.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from machiavel.core.contract import JsonDict
from machiavel.games.guildes.data import (
    EVENT_DIRECTIONS,
    EVENT_IDS,
    EVENT_TITLES,
    IN_TURN,
    REDISTRIBUTION,
    TRICK_GUILD,
    TRICK_LETTERS,
    TRICK_TITLES,
)
from machiavel.games.guildes.rules import (
    DRAFT,
    OVER,
    PHASE_NAMES,
    PLACE,
    TRICKS,
    named,
    names,
)

if TYPE_CHECKING:
    from machiavel.games.guildes.rules import GuildesState


def direction_name(direction: int) -> str:
    return "left" if direction == 1 else "right"


def view(state: GuildesState, player: int | None) -> JsonDict:
    """A viewer's view: the public part, then a player's own (``private_view``)."""
    data = public_view(state)
    if player is not None:
        data.update(private_view(state, player))
    return data


def public_view(state: GuildesState) -> JsonDict:
    """What every viewer sees alike (a spectator's whole view)."""
    n = state.n
    data: JsonDict = {
        "round": state.round + 1,
        "phase": PHASE_NAMES[state.phase],
        "options": {"events": state.events_on, "dirty_tricks": state.tricks_on},
        "event": {
            "id": EVENT_IDS[state.event],
            "title": EVENT_TITLES[state.event],
            "direction": direction_name(EVENT_DIRECTIONS[state.event]),
            "in_effect": state.events_on,
        },
        "past_events": [EVENT_IDS[e] for e in state.event_order[: state.round]],
        "direction": direction_name(state.direction),
        "deck_size": len(state.deck),
        "discard_size": sum(state.discard),
        "tableaux": [named(t) for t in state.tableau],
        "face_down": [len(f) for f in state.face_down],
        "hand_sizes": [sum(p) for p in state.packets] if state.phase == DRAFT else [0] * n,
        "kept_sizes": [sum(k) for k in state.kept],
        "chosen": [choice is not None for choice in state.pending],
        "placing": {
            "placed": state.place_done,
            "total": state.place_total,
            "cards_this_step": state.batch if state.phase == PLACE else 0,
            "in_turn_first": state.seq_first if state.event_in_effect(IN_TURN) else None,
        },
        "last_reveal": [names(r) for r in state.last_reveal],
        "counts": [
            count_view(entry, state.count_detail(index))
            for index, entry in enumerate(state.counts_log)
        ],
    }
    if state.tricks_on:
        data["dirty_tricks"] = tricks_view(state)
    return data


def count_view(entry: JsonDict, details: JsonDict) -> JsonDict:
    """One count held: the tableaux as counted and the votes, then guild by guild."""
    return {
        "round": entry["round"],
        "tableaux": [dict(t) for t in entry["tableaux"]],
        "votes": list(entry["votes"]),
        "ties_ignored": details["ties_ignored"],  # the event of that round (G6)
        "guild_votes": [dict(v) for v in details["guild_votes"]],
        "places": [dict(p) for p in details["places"]],
        "tied": [list(t) for t in details["tied"]],
        "ignored": [list(i) for i in details["ignored"]],
    }


def tricks_view(state: GuildesState) -> JsonDict:
    shielded = state.protected()
    turn = state.trick_letter if state.phase == TRICKS else -1
    return {
        "cards": [TRICK_LETTERS[c] if c >= 0 else None for c in state.tricks],
        "titles": [TRICK_TITLES[c] if c >= 0 else None for c in state.tricks],
        "previous": [TRICK_LETTERS[c] if c >= 0 else None for c in state.prev_tricks],
        "protected": shielded if shielded >= 0 and state.phase != OVER else None,
        "turn": TRICK_LETTERS[turn] if turn >= 0 else None,
        "modifiers": [
            {
                "card": TRICK_LETTERS[letter],
                "player": target,
                "delta": delta,
                "guild": names([TRICK_GUILD[letter]])[0],
            }
            for letter, target, delta in state.modifiers
        ],
        "log": [dict(entry) for entry in state.trick_log],
    }


def private_view(state: GuildesState, player: int) -> JsonDict:
    choice = state.pending[player]
    data: JsonDict = {
        "hand": named(state.packets[player]) if state.phase == DRAFT else {},
        "kept": named(state.kept[player]),
        "my_choice": names(choice) if choice is not None else None,
        "my_face_down": names(state.face_down[player]),
    }
    if state.phase == TRICKS and state.drawn and state.waiting == (player,):
        data["drawn"] = names(state.drawn)
    if state.event_in_effect(REDISTRIBUTION) and state.red_out[player] >= 0:
        data["redistribution"] = {
            "gave": names([state.red_out[player]])[0],
            "received": names([state.red_in[player]])[0],
        }
    return data
