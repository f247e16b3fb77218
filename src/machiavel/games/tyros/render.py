"""A Tyros view as plain text: the map grid with markers, ships and cities, then the rest.

Each cell is drawn as a box of three lines::

    +-----------+
    |12 Carthago|   number (or TYROS) and name
    |ORANGE C2  |   empire marker, city of player 2
    |s:01       |   ships by owner (Italy: e:0 w:1 for the two coasts)
    +-----------+
"""

from __future__ import annotations

from machiavel.core.contract import JsonDict

WIDTH = 11
CARD_ORDER = ("orange", "yellow", "green", "violet", "joker")


def render(view: JsonDict) -> str:
    lines = [_header(view), *_grid(view), *_empires(view), *_players(view), *_own(view)]
    return "\n".join(lines)


def _header(view: JsonDict) -> str:
    phase = {
        "expand": "expansion",
        "actions": "actions",
        "offer": "offer waiting for an answer",
        "keep": "end of round: keep 3 cards",
        "over": "game over",
    }[view["phase"]]
    text = f"Tyros - round {view['round']}, {phase}; first player {view['first_player']}"
    if view["final_round"]:
        text += " (last round: a player has played their last tile)"
    if view["is_over"]:
        winners = ", ".join(str(p) for p in view["winners"])
        text += f". Winner(s): player {winners}"
    elif view["to_move"]:
        text += f"; to move: player {', '.join(str(p) for p in view['to_move'])}"
    return text


def _grid(view: JsonDict) -> list[str]:
    cells = {(c["x"], c["y"]): c for c in view["map"]["cells"]}
    columns = 1 + max(x for x, _ in cells)
    rows = 1 + max(y for _, y in cells)
    joined = {frozenset(end.rstrip("ew") for end in pair) for pair in view["map"]["sea_routes"]}

    def apart(a: tuple[int, int], b: tuple[int, int]) -> bool:
        """Two land cells side by side with no sea between them (Y2)."""
        first, second = cells.get(a), cells.get(b)
        if first is None or second is None or "sea" in (first["id"], second["id"]):
            return False
        return frozenset((first["id"], second["id"])) not in joined

    ships: dict[str, list[str]] = {}
    for ship in view["ships"]:
        label = str(ship["owner"])
        if "coast" in ship:
            label = f"{ship['coast']}:{label}"
        ships.setdefault(ship["cell"], []).append(label)
    out = [_border([False] * columns)]
    for y in range(rows):
        boxes = [_box(cells.get((x, y)), view, ships) for x in range(columns)]
        walls = ["#" if apart((x, y), (x + 1, y)) else "|" for x in range(columns - 1)]
        for line in range(3):
            text = "|" + boxes[0][line]
            for x in range(1, columns):
                text += walls[x - 1] + boxes[x][line]
            out.append(text + "|")
        out.append(_border([apart((x, y), (x, y + 1)) for x in range(columns)]))
    out.append("In a cell: its empire, C<p> a city of player p, s:<the owner of each ship>.")
    out.append("'#' or '=' between two cells: no sea there, ships sail round (Y2).")
    coasts: dict[str, set[str]] = {}
    for pair in view["map"]["sea_routes"]:
        for end, other in (pair, pair[::-1]):
            if end[-1] in "ew" and end[:-1].isdigit():
                coasts.setdefault(end, set()).add(other.rstrip("ew"))
    for coast in sorted(coasts):
        ends = " and ".join(sorted(coasts[coast], key=lambda t: (len(t), t)))
        out.append(f"Coast {coast} joins {ends}.")
    return out


def _border(blocked: list[bool]) -> str:
    return "+" + "+".join(("=" if b else "-") * WIDTH for b in blocked) + "+"


def _box(cell: JsonDict | None, view: JsonDict, ships: dict[str, list[str]]) -> list[str]:
    if cell is None:
        return [" " * WIDTH] * 3
    cid = cell["id"]
    if cid == "sea":
        return [_fit("~ open sea"), _fit("~ ~ ~ ~ ~"), _fit("(no entry)")]
    title = "TYROS" if cid == "tyros" else f"{cid} {cell['name']}"
    marker = view["markers"].get(cid, "")
    city = view["cities"].get(cid)
    second = marker.upper() + (f" C{city}" if city is not None else "")
    here = sorted(ships.get(cid, []))
    if any(":" in label for label in here):
        third = " ".join(here)
    else:
        third = ("s:" + "".join(here)) if here else ""
    return [_fit(title), _fit(second), _fit(third)]


def _fit(text: str) -> str:
    return text[:WIDTH].ljust(WIDTH)


def _cards(counts: JsonDict) -> str:
    parts = [f"{counts[name]} {name}" for name in CARD_ORDER if counts.get(name)]
    return ", ".join(parts) or "none"


def _empires(view: JsonDict) -> list[str]:
    empires = sorted(view["empires"], key=lambda e: e["rank"])
    sizes = ", ".join(f"{e['colour']} {e['size']}" for e in empires)
    pile = f"{view['pile']} tiles"
    if view["pile_known"]:
        known = ", ".join(f"{tile} at depth {depth}" for depth, tile in view["pile_known"])
        pile += f" (known: {known})"
    return [
        f"Empires, largest first: {sizes}.",
        f"Deck: {view['deck']} cards; discard pile: {_cards(view['discard'])}; pile: {pile}",
    ]


def _players(view: JsonDict) -> list[str]:
    out = []
    for player, info in enumerate(view["player_info"]):
        score = view["scores"][player]
        text = (
            f"Player {player}: {score:g} points, {info['cards']} cards, {info['tiles']} tiles, "
            f"{info['ships_in_supply']} ships and {info['cities_in_supply']} cities in supply"
        )
        if info["shown_tiles"]:
            text += f"; shown tiles {', '.join(map(str, info['shown_tiles']))}"
        known = info.get("known_cards")
        if known and any(known.values()):
            text += f"; holds at least {_cards(known)}"
        if info["must_keep"]:
            text += "; has chosen" if info["has_kept"] else "; choosing cards to keep"
        out.append(text)
    if view["all_empires_bonus"] is not None:
        out.append(f"Player {view['all_empires_bonus']} has the bonus for a city in every empire.")
    offer = view["offer"]
    if offer is not None:
        out.append(
            f"Offer from player {offer['from']} to player {offer['to']}: gives "
            f"{_cards(offer['give'])}, asks {_cards(offer['ask'])}"
        )
    return out


def _own(view: JsonDict) -> list[str]:
    if view["viewer"] is None:
        return []
    out = [
        f"Your cards: {_cards(view['hand'])}",
        f"Your tiles: {', '.join(map(str, view['my_tiles'])) or 'none'}",
    ]
    if view["kept"] is not None:
        out.append(f"You keep: {_cards(view['kept'])}")
    return out
