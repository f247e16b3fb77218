"""Djambi in a terminal: the 9x9 board with piece letters and colour initials, plain text."""

from __future__ import annotations

from machiavel.core.contract import JsonDict
from machiavel.games.djambi.board import FILES, KIND_INDEX, KIND_LETTERS, SIZE

CENTRE_NAME = "e5"
LEGEND = (
    "C Chief  A Assassin  R Reporter  D Diplomat  N Necromobile  M Militant\n"
    "r g y b: red green yellow blue   ## corpse   [  ] the centre e5"
)
PROMPTS = {
    "move": "move a piece: '<from>-<to>', e.g. c3-e5",
    "corpse": "put the corpse down on an empty square: 'corpse <square>'",
    "place": "put the relocated piece down on an empty square: 'place <square>'",
    "kill": "the Reporter kills: 'kill <square>'{scandal}",
    "exit": "the piece on the centre must leave it: 'e5-<square>'",
    "revive": "raise one of your dead pieces: 'revive <corpse square> <square>'",
}


def _cell(view: JsonDict, square: str) -> str:
    piece = view["pieces"].get(square)
    if piece is not None:
        colour, kind = piece.split()
        text = f"{KIND_LETTERS[KIND_INDEX[kind]]}{colour[0]}"
    elif square in view["corpses"]:
        text = "##"
    else:
        text = "  " if square == CENTRE_NAME else " ."
    return f"[{text}]" if square == CENTRE_NAME else f" {text} "


def _board(view: JsonDict) -> list[str]:
    header = "    " + "".join(f" {f}  " for f in FILES)
    lines = [header]
    for rank in range(SIZE, 0, -1):
        cells = "".join(_cell(view, f"{f}{rank}") for f in FILES)
        lines.append(f" {rank} |{cells}| {rank}")
    lines.append(header)
    return lines


def _sides(view: JsonDict) -> str:
    parts = []
    for player, colour in enumerate(view["colours"]):
        owned = [c for c, m in view["controllers"].items() if m == colour]
        if colour in view["in_game"]:
            parts.append(f"{colour} (player {player}): {', '.join(owned)}")
    vassals = [c for c, m in view["controllers"].items() if m is None]
    if vassals:
        parts.append(f"vassals: {', '.join(vassals)}")
    return "Sides - " + "; ".join(parts)


def _status(view: JsonDict) -> list[str]:
    lines = []
    if view["is_over"]:
        winners = ", ".join(view["colours"][p] for p in view["winners"])
        lines.append(f"Game over ({view['end']}). Winner(s): {winners}.")
    else:
        turn = view["turn"]
        extra = " (extra turn, holding the centre)" if view["extra_turn"] else ""
        colour = view["turn_colour"]
        # D8: a colour whose Chief is dead keeps its turn, played by its controller
        inherited = f" (playing {colour}'s turn)" if colour not in (None, turn) else ""
        you = " - your turn" if view["you"] == turn else ""
        lines.append(f"To move: {turn}{extra}{inherited}{you}")
        prompt = PROMPTS[view["step"]].format(
            scandal=", 'scandal' or 'pass'" if view["reporter"] == "scandal" else ""
        )
        acting = f" (piece on {view['acting']})" if view["acting"] else ""
        hand = f"; in hand: {view['in_hand']}" if view["in_hand"] else ""
        lines.append(f"Step: {prompt}{acting}{hand}")
    centre = view["centre"]
    lines.append(f"Centre: {'held by ' + centre if centre else 'not held'}")
    lines.append(_sides(view))
    limit = view["quiet_turn_limit"]
    lines.append(f"Regular turns without a death: {view['quiet_turns']} (the game ends at {limit})")
    if view["aggressivity"]:
        kills = ", ".join(f"{c} {n}" for c, n in view["kills"].items())
        lines.append(f"Kills: {kills}")
    return lines


def render(view: JsonDict) -> str:
    """The board and the state of play, as plain text."""
    return "\n".join([*_board(view), LEGEND, *_status(view)])
