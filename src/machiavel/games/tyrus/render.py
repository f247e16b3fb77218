"""Tyrus views as text for a terminal."""

from __future__ import annotations

from machiavel.core.contract import JsonDict
from machiavel.games.tyrus.rules import ELECTED, KINDS, PROFESSION_NAMES

TITLES = {"citadel": "General", "market": "Guildmaster", "temple": "High Priest"}


def _who(player: int, viewer: int | None) -> str:
    return "you" if player == viewer else f"player {player}"


def _tile_text(entry: JsonDict, viewer: int | None) -> str:
    tile = entry["tile"] if entry["tile"] is not None else "??"
    return tile if entry["player"] == viewer else f"{tile}({entry['player']})"


def render(view: JsonDict) -> str:
    viewer = view["viewer"]
    lines = [_header(view, viewer), _score_sheet(view), ""]
    order = [1 - viewer, viewer] if viewer is not None else [1, 0]
    for owner in order:
        label = "Your buildings" if owner == viewer else f"Player {owner}'s buildings"
        lines.append(f"{label}:")
        for building in view["buildings"]:
            if building["owner"] != owner:
                continue
            tiles = " ".join(_tile_text(t, viewer) for t in building["tiles"]) or "-"
            marker = " <- election" if building["kind"] == view["election_kind"] else ""
            lines.append(f"  {building['kind']:<8} {tiles}{marker}")
    lines.append("")
    if view["hand"] is not None:
        lines.append("Your hand: " + " ".join(view["hand"]))
    counts = ", ".join(
        f"{_who(p, viewer)}: {view['hand_counts'][p]} in hand, {view['reserve_counts'][p]} in reserve"
        for p in range(2)
    )
    lines.append(f"Tiles: {counts}")
    lines.extend(_tally_lines(view, viewer))
    lines.extend(_result_lines(view, viewer))
    return "\n".join(lines)


def _header(view: JsonDict, viewer: int | None) -> str:
    kind = view["election_kind"]
    elected = PROFESSION_NAMES[ELECTED[kind]]
    left = ", ".join(f"{k} {view['cards_remaining'][k]}" for k in KINDS)
    text = (
        f"Tyrus - election {view['election']} of 9: {TITLES[kind]} in the {kind}s "
        f"({elected} vote). Election cards left: {left}."
    )
    if not view["is_over"]:
        mover = view["to_move"][0]
        text += f"\nTile {view['placed_this_election'] + 1} of 6; {_who(mover, viewer)} to place."
    return text


def _score_sheet(view: JsonDict) -> str:
    cells = []
    for result in view["results"]:
        winner = result["winner"]
        cells.append(f"{result['election']}:{'null' if winner is None else f'P{winner}'}")
    won = view["elections_won"]
    sheet = " ".join(cells) or "no election held yet"
    return f"Score sheet: {sheet}  (won: P0 {won[0]}, P1 {won[1]})"


def _tally_lines(view: JsonDict, viewer: int | None) -> list[str]:
    lines: list[str] = []
    for tally in view["tallies"][-3:]:
        winner = tally["winner"]
        outcome = "null" if winner is None else f"{_who(winner, viewer)} won"
        scores = tally["scores"]
        lines.append(
            f"Tally of election {tally['election']} ({tally['kind']}): "
            f"P0 {scores[0]}, P1 {scores[1]}: {outcome}"
        )
        for owner in (0, 1):
            shown = [
                f"{t['tile']}({t['player']})" for t in tally["tiles"] if t["building_of"] == owner
            ]
            lines.append(f"    in P{owner}'s {tally['kind']}: {' '.join(shown) or '-'}")
    return lines


def _result_lines(view: JsonDict, viewer: int | None) -> list[str]:
    if not view["is_over"]:
        return []
    winners = view["winners"]
    if len(winners) == 2:
        verdict = "The game is a draw."
    else:
        verdict = f"{_who(winners[0], viewer).capitalize()} won the game."
    hands = view.get("final_hands") or [[], []]
    return [verdict, f"Tiles left in hand: P0 {' '.join(hands[0])}; P1 {' '.join(hands[1])}"]
