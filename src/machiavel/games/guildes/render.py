"""A Guildes view as plain text for a terminal."""

from __future__ import annotations

from typing import Any

from machiavel.core.contract import JsonDict

PHASES = {
    "draft": "drafting (keep one card, pass the rest)",
    "redistribute": "Redistribution (give one card to the shuffled pile)",
    "place": "placing",
    "tricks": "Coup Tordu cards, in letter order",
    "over": "game over",
}


def cards_text(cards: dict[str, Any]) -> str:
    return ", ".join(f"{count} {guild}" for guild, count in cards.items()) or "-"


def render(view: JsonDict) -> str:
    lines = [header(view), event_line(view)]
    scores = "  ".join(f"P{p}: {s:g}" for p, s in enumerate(view["scores"]))
    lines.append(f"Scores  {scores}")
    lines.append("Tableaux:")
    lines.extend(player_line(view, p) for p in range(view["players"]))
    tricks = view.get("dirty_tricks")
    if tricks:
        lines.extend(tricks_lines(tricks))
    if view.get("viewer") is not None:
        lines.extend(private_lines(view))
    for count in view["counts"]:
        votes = "  ".join(f"P{p}: +{v}" for p, v in enumerate(count["votes"]))
        lines.append(f"Count of round {count['round']}: {votes}")
    lines.append(footer(view))
    return "\n".join(lines)


def header(view: JsonDict) -> str:
    text = f"Guildes - round {view['round']}/3 - {PHASES[view['phase']]}"
    placing = view["placing"]
    if view["phase"] == "place":
        text += f" ({placing['placed']}/{placing['total']} placed"
        if placing["cards_this_step"] == 2:
            text += ", 2 cards this step"
        text += ")"
    return text + f"  [deck {view['deck_size']}, discard {view['discard_size']}]"


def event_line(view: JsonDict) -> str:
    event = view["event"]
    effect = "in effect" if event["in_effect"] else "direction only"
    return f"Event: {event['title']} - pass to the {view['direction']} ({effect})"


def player_line(view: JsonDict, player: int) -> str:
    text = f"  P{player}{' (you)' if view.get('viewer') == player else ''}: "
    text += cards_text(view["tableaux"][player])
    if view["face_down"][player]:
        text += f" + {view['face_down'][player]} face down"
    held = view["hand_sizes"][player] + view["kept_sizes"][player]
    text += f"   | holds {held}"
    if view["chosen"][player]:
        text += "  (has chosen)"
    elif player in view["to_move"]:
        text += "  (to move)"
    return text


def tricks_lines(tricks: JsonDict) -> list[str]:
    cards = "  ".join(f"P{p}: {c}" for p, c in enumerate(tricks["cards"]))
    lines = [f"Coup Tordu cards  {cards}"]
    if tricks["protected"] is not None:
        lines.append(f"  P{tricks['protected']} is protected (A)")
    if tricks["turn"]:
        lines.append(f"  now: card {tricks['turn']}")
    for m in tricks["modifiers"]:
        lines.append(f"  {m['card']}: {m['delta']:+d} {m['guild']} for P{m['player']}")
    return lines


def private_lines(view: JsonDict) -> list[str]:
    lines = []
    if view["hand"]:
        lines.append(f"Your hand: {cards_text(view['hand'])}")
    lines.append(f"Your kept cards: {cards_text(view['kept'])}")
    if view["my_face_down"]:
        lines.append(f"Your face-down cards: {', '.join(view['my_face_down'])}")
    if view["my_choice"]:
        lines.append(f"Your choice (hidden from others): {', '.join(view['my_choice'])}")
    if view.get("drawn"):
        lines.append(f"Drawn from the discard: {', '.join(view['drawn'])}")
    if view.get("redistribution"):
        red = view["redistribution"]
        lines.append(f"Redistribution: you gave {red['gave']}, received {red['received']}")
    return lines


def footer(view: JsonDict) -> str:
    if view["is_over"]:
        winners = ", ".join(f"P{p}" for p in view["winners"])
        return f"Winner(s): {winners}"
    return "To move: " + ", ".join(f"P{p}" for p in view["to_move"])
