"""What followed a Tyros action, for the log; why the game ended; the board marks of a move.

Everything told here is public (the board, the scores, hand and tile counts, tiles shown
by a player who could not expand), so every viewer reads the same lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from machiavel.core.contract import JsonDict
from machiavel.games.tyros.board import BOARD, TYROS, cell_token
from machiavel.games.tyros.cards import COLOURS
from machiavel.games.tyros.scoring import ALL_EMPIRES_BONUS, MAJORITY_BONUS, ScoreSheet
from machiavel.games.tyros.words import (
    CELL_INDEX,
    NODE_INDEX,
    cell_name,
    colour_name,
    empire,
    seat,
    seats,
    tiles_in_words,
)

if TYPE_CHECKING:
    from machiavel.games.tyros.rules import TyrosState

EXPAND, ACTIONS, KEEP, OVER = "expand", "actions", "keep", "over"  # as in rules.py
KEEP_AT_MOST = 3  # Y7

TEXT = {
    "en": {
        "tyros_joins": "Tyros joins {empire} too, as its neighbour {cell} did",
        "exhausted": "{empire} has placed all 20 of its markers and cannot grow any more",
        "sizes": "Empires by size: {sizes}",
        "size": "{colour} {cells} cell{s}",
        "pile_empty": "The pile of terrain tiles is now empty",
        "last_tile": "{who} has played their last terrain tile",
        "last_round": "{who} has played their last terrain tile: this round is the last",
        "stuck": "No terrain tile left can extend an empire: this round is the last",
        "no_tiles": "{who} has no terrain tile left and places no marker",
        "cannot": (
            "{who} cannot extend any empire and the pile is empty: shows terrain tiles "
            "{tiles} and places no marker"
        ),
        "actions": "Expansion over: the actions begin with {who}",
        "round_end": "Everyone passed in a row: round {round} ends",
        "standing": "Points after round {round}: {points}",
        "must_keep": "Each player holding more than 3 trade cards chooses 3 to keep: {who}",
        "new_round": "Round {round} begins with {who} as first player; {dealt}",
        "dealt_even": "{count} trade cards are dealt to each player",
        "dealt_uneven": "trade cards dealt: {counts}",
        "majority": "{who} now has the most cities in {empire} ({points} points at the end)",
        "majority_lost": "{who} no longer has the most cities in {empire}",
        "bonus": "{who} is the first with a city in each of the four empires: {points} points",
        "tyros_city": "From now on only {who} may build ships in Tyros",
        "deck_empty": "The deck of trade cards is empty until the next deal",
        "over": "Everyone passed in the last round: the game is over",
        "final": "Final scoring: {points}",
        "has": "{who} has {total} {points}{parts}",
        "scores": "{who} scores {total} {points}{parts}",
        "categories": ("cities", "ships", "majorities", "first in all four empires"),
        "ended_tile": "The game ended after round {round}, in which {who} played their last "
        "terrain tile.",
        "ended_tiles": "The game ended after round {round}, in which {who} played their last "
        "terrain tiles.",
        "ended_stuck": "The game ended after round {round}, as no terrain tile left could "
        "extend an empire.",
        "wins": "{who} wins with {total} points, {margin} ahead of {runners}.",
        "wins_alone": "{who} wins with {total} points.",
        "tie_broken": "{tied} tie on {total} points; {who} wins with more points in the "
        "largest empire, the {colour} one ({best} against {next}).",
        "shared": "{who} share the win with {total} points each, level in the largest empire too.",
    },
    "fr": {
        "tyros_joins": "Tyros rejoint aussi {empire}, comme sa voisine {cell}",
        "exhausted": "{empire} a posé ses 20 marqueurs et ne peut plus s'étendre",
        "sizes": "Empires par taille : {sizes}",
        "size": "{colour} {cells} case{s}",
        "pile_empty": "La pioche de tuiles de terrain est désormais épuisée",
        "last_tile": "{who} a joué sa dernière tuile de terrain",
        "last_round": "{who} a joué sa dernière tuile de terrain : ce tour est le dernier",
        "stuck": "Plus aucune tuile de terrain ne peut étendre un empire : ce tour est le dernier",
        "no_tiles": "{who} n'a plus de tuile de terrain et ne pose aucun marqueur",
        "cannot": (
            "{who} ne peut étendre aucun empire et la pioche est épuisée : montre ses tuiles "
            "de terrain {tiles} et ne pose aucun marqueur"
        ),
        "actions": "Fin de l'expansion : les actions commencent par {who}",
        "round_end": "Tous les joueurs ont passé à la suite : fin du tour {round}",
        "standing": "Points après le tour {round} : {points}",
        "must_keep": "Chaque joueur qui a plus de 3 cartes de commerce en garde 3 au choix : {who}",
        "new_round": "Début du tour {round}, {who} est premier joueur ; {dealt}",
        "dealt_even": "chaque joueur reçoit {count} cartes de commerce",
        "dealt_uneven": "cartes de commerce distribuées : {counts}",
        "majority": "{who} a désormais le plus de villes dans {empire} ({points} points à la fin)",
        "majority_lost": "{who} n'a plus le plus de villes dans {empire}",
        "bonus": "{who} est le premier à avoir une ville dans chacun des quatre empires : "
        "{points} points",
        "tyros_city": "Désormais seul {who} peut construire des bateaux à Tyros",
        "deck_empty": "La pioche de cartes de commerce est épuisée jusqu'à la prochaine "
        "distribution",
        "over": "Tous les joueurs ont passé lors du dernier tour : la partie est finie",
        "final": "Décompte final : {points}",
        "has": "{who} a {total} {points}{parts}",
        "scores": "{who} marque {total} {points}{parts}",
        "categories": ("villes", "bateaux", "majorités", "premier dans les quatre empires"),
        "ended_tile": "La partie s'est terminée après le tour {round}, où {who} a joué sa "
        "dernière tuile de terrain.",
        "ended_tiles": "La partie s'est terminée après le tour {round}, où {who} ont joué "
        "leur dernière tuile de terrain.",
        "ended_stuck": "La partie s'est terminée après le tour {round}, plus aucune tuile de "
        "terrain ne pouvant étendre un empire.",
        "wins": "{who} gagne avec {total} points, {margin} devant {runners}.",
        "wins_alone": "{who} gagne avec {total} points.",
        "tie_broken": "{tied} sont à égalité avec {total} points ; {who} l'emporte avec plus "
        "de points dans le plus grand empire, l'empire {colour} ({best} contre {next}).",
        "shared": "{who} se partagent la victoire avec {total} points chacun, à égalité "
        "aussi dans le plus grand empire.",
    },
}


def _say(language: str, key: str, **values: object) -> str:
    text = TEXT[language][key]
    assert isinstance(text, str)
    return text.format(**values)


# ---- events -------------------------------------------------------------------------------
def events(
    after: TyrosState, before: TyrosState, player: int, action: str, language: str
) -> list[str]:
    """Lines for what followed ``action`` (``after`` is the state it left)."""
    verb = action.split()[0]
    lines: list[str] = []
    if verb == "expand":
        lines += _expansion_events(after, before, player, language)
    elif verb == "city":
        lines += _city_events(after, before, player, language)
    if after.deck == [] and before.deck and after.round == before.round:
        lines.append(_say(language, "deck_empty"))
    lines += _flow_events(after, before, player, verb, language)
    return lines


def _expansion_events(
    after: TyrosState, before: TyrosState, player: int, language: str
) -> list[str]:
    lines = []
    if before.markers[TYROS] < 0 <= after.markers[TYROS]:  # Y3
        neighbour = next(c for c in BOARD.neighbours[TYROS] if after.markers[c] >= 0)
        lines.append(
            _say(
                language,
                "tyros_joins",
                empire=empire(after.markers[TYROS], language),
                cell=cell_name(neighbour, language),
            )
        )
    for colour in range(len(COLOURS)):
        if before._has_markers(colour) and not after._has_markers(colour):  # Y1
            lines.append(_capital(_say(language, "exhausted", empire=empire(colour, language))))
    if before.pile and not after.pile:
        lines.append(_say(language, "pile_empty"))
    if before.tiles[player] and not after.tiles[player]:  # Y7
        key = "last_tile" if before.final_round else "last_round"
        lines.append(_say(language, key, who=seat(player, language)))
    return lines


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def _sizes(sheet: ScoreSheet, language: str) -> str:
    sizes = [
        _say(
            language,
            "size",
            colour=colour_name(c, language),
            cells=sheet.sizes[c],
            s="s" if sheet.sizes[c] > 1 else "",
        )
        for c in sheet.ranking
    ]
    return _say(language, "sizes", sizes=", ".join(sizes))


def _majority_holder(state: TyrosState, colour: int) -> int:
    """Y8: who has strictly the most cities in the empire of ``colour`` (-1: nobody)."""
    counts = [0] * state.n
    for cell, owner in enumerate(state.cities):
        if owner >= 0 and state.markers[cell] == colour:
            counts[owner] += 1
    best = max(counts)
    return counts.index(best) if best and counts.count(best) == 1 else -1


def _city_events(after: TyrosState, before: TyrosState, player: int, language: str) -> list[str]:
    lines = []
    built = next(c for c, owner in enumerate(after.cities) if owner != before.cities[c])
    colour = after.markers[built]
    was = _majority_holder(before, colour)
    now = _majority_holder(after, colour)
    if now != was:
        if now >= 0:
            lines.append(
                _say(
                    language,
                    "majority",
                    who=seat(now, language),
                    empire=empire(colour, language),
                    points=MAJORITY_BONUS,
                )
            )
        else:
            lines.append(
                _say(
                    language,
                    "majority_lost",
                    who=seat(was, language),
                    empire=empire(colour, language),
                )
            )
    if before.bonus_owner < 0 <= after.bonus_owner:  # Y8
        lines.append(_say(language, "bonus", who=seat(player, language), points=ALL_EMPIRES_BONUS))
    if built == TYROS:  # Y6
        lines.append(_say(language, "tyros_city", who=seat(player, language)))
    return lines


def _flow_events(
    after: TyrosState, before: TyrosState, player: int, verb: str, language: str
) -> list[str]:
    """Turns skipped, phases and rounds that ended and began, the last round, the end."""
    lines = []
    new_round = after.round > before.round
    if before.phase == EXPAND and not new_round:
        start, count = (player + 1) % after.n, _turns_skipped_after(after, before)
        lines += _skipped(after, start, count, language)
    if verb == "pass" and (new_round or after.phase in (KEEP, OVER)):
        lines.append(_say(language, "round_end", round=before.round))
        if after.phase != OVER:
            lines.append(_points(before, "standing", language, round=before.round))
    if after.phase == KEEP and before.phase != KEEP:
        must = [p for p in range(after.n) if sum(after.hands[p]) > KEEP_AT_MOST]
        lines.append(_say(language, "must_keep", who=seats(must, language)))
    if new_round:
        lines.append(_new_round(after, before, language))
        lines += _skipped(after, after.first, _turns_skipped_at_start(after), language)
    last_tile = any(before.tiles[p] and not after.tiles[p] for p in range(after.n))
    if after.final_round and not before.final_round and not last_tile:
        lines.append(_say(language, "stuck"))
    if after.phase == ACTIONS and (before.phase == EXPAND or new_round):
        lines.append(_say(language, "actions", who=seat(after.first, language)))
        lines.append(_sizes(after.score_sheet(), language))
    if after.phase == OVER:
        lines.append(_say(language, "over"))
        lines.append(_points(after, "final", language))
    return lines


def _expansion_turns(state: TyrosState) -> int:
    return state.n * (2 if state.n == 3 or state.round == 1 else 1)  # Y5


def _turns_skipped_after(after: TyrosState, before: TyrosState) -> int:
    """Expansion turns that passed without a decision after the one just played."""
    left = after.expansion_left if after.phase == EXPAND else 0
    return before.expansion_left - 1 - left


def _turns_skipped_at_start(after: TyrosState) -> int:
    left = after.expansion_left if after.phase == EXPAND else 0
    return _expansion_turns(after) - left


def _skipped(after: TyrosState, start: int, count: int, language: str) -> list[str]:
    """Y5: turns with no tile, or no playable tile and an empty pile: nothing to decide."""
    lines = []
    for player in ((start + i) % after.n for i in range(max(0, count))):
        who, tiles = seat(player, language), after.tiles[player]
        if tiles:
            lines.append(_say(language, "cannot", who=who, tiles=tiles_in_words(tiles, language)))
        else:
            lines.append(_say(language, "no_tiles", who=who))
    return lines


def _new_round(after: TyrosState, before: TyrosState, language: str) -> str:
    dealt = [sum(after.hands[p]) - min(3, sum(before.hands[p])) for p in range(after.n)]
    if len(set(dealt)) == 1:
        cards = _say(language, "dealt_even", count=dealt[0])
    else:
        counts = ", ".join(f"{seat(p, language)} {d}" for p, d in enumerate(dealt))
        cards = _say(language, "dealt_uneven", counts=counts)
    return _say(
        language, "new_round", round=after.round, who=seat(after.first, language), dealt=cards
    )


def _parts(sheet: ScoreSheet, player: int, language: str) -> str:
    """`` (cities 24, ships 5)``: the categories that scored."""
    names = TEXT[language]["categories"]
    values = (sheet.city, sheet.ship, sheet.majority, sheet.bonus)
    parts = [f"{name} {value[player]}" for name, value in zip(names, values, strict=True)]
    scored = [part for part, value in zip(parts, values, strict=True) if value[player]]
    return f" ({', '.join(scored)})" if scored else ""


def _points(state: TyrosState, key: str, language: str, **values: object) -> str:
    sheet = state.score_sheet()
    totals = sheet.totals
    order = sorted(range(state.n), key=lambda p: (-totals[p], p))
    said = [
        _say(
            language,
            "has" if key == "standing" else "scores",
            who=seat(p, language),
            total=totals[p],
            points=_points_word(totals[p], language),
            parts=_parts(sheet, p, language),
        )
        for p in order
    ]
    separator = " ; " if language == "fr" else "; "
    return _say(language, key, points=separator.join(said), **values)


def _points_word(total: int, language: str) -> str:
    few = total < 2 if language == "fr" else total == 1  # French: 0 point, 1 point
    return "point" if few else "points"


# ---- the ending -----------------------------------------------------------------------------
def ending(state: TyrosState, language: str) -> str:
    """Why the game ended, who won by how much, and each player's points by category."""
    emptied = [p for p in range(state.n) if not state.tiles[p]]
    if emptied:
        key = "ended_tile" if len(emptied) == 1 else "ended_tiles"
        why = _say(language, key, round=state.round, who=seats(emptied, language))
    else:
        why = _say(language, "ended_stuck", round=state.round)
    sheet = state.score_sheet()
    scores = _points(state, "final", language)
    return f"{why} {_winner(state, sheet, language)} {scores}."


def _winner(state: TyrosState, sheet: ScoreSheet, language: str) -> str:
    totals = sheet.totals
    best = max(totals)
    tied = [p for p in range(state.n) if totals[p] == best]
    winners = list(state.winners)
    if len(tied) == 1:
        rest = [t for p, t in enumerate(totals) if p != tied[0]]
        second = max(rest)
        runners = [p for p in range(state.n) if totals[p] == second]
        return _say(
            language,
            "wins",
            who=seat(tied[0], language),
            total=best,
            margin=best - second,
            runners=seats(runners, language),
        )
    if len(winners) == 1:  # Y8: the largest empire decided
        largest = sheet.largest_empire
        others = max(largest[p] for p in tied if p != winners[0])
        return _say(
            language,
            "tie_broken",
            tied=seats(tied, language),
            total=best,
            who=seat(winners[0], language),
            colour=colour_name(sheet.ranking[0], language),
            best=largest[winners[0]],
            next=others,
        )
    return _say(language, "shared", who=seats(winners, language), total=best)


# ---- board marks --------------------------------------------------------------------------
def marks(after: TyrosState, before: TyrosState, player: int, action: str) -> JsonDict:
    """Where the page marks the move: ``route`` (node tokens), ``cells`` (cell ids as in
    the map: "17", "tyros"), ``nodes`` (node tokens where a ship was placed)."""
    parts = action.split()
    verb = parts[0]
    if verb == "move":
        origin, target = parts[1].split(">")
        return {"route": route(origin, target)}
    if verb == "expand":
        cells = [parts[1]]
        if before.markers[TYROS] < 0 <= after.markers[TYROS]:
            cells.append(cell_token(TYROS))
        return {"cells": cells}
    if verb == "city":
        return {"cells": [parts[1]]}
    if verb == "ship":
        cell = CELL_INDEX[parts[1]]
        return {"cells": [parts[1]], "nodes": [BOARD.node_token[BOARD.built_node[cell]]]}
    return {}


def route(origin: str, target: str) -> list[str]:
    """One cheapest sea route between two nodes, as node tokens (the engine charges the
    cheapest; among equals, the one through the lowest-numbered nodes)."""
    node, goal = NODE_INDEX[origin], NODE_INDEX[target]
    distance = BOARD.distance
    path = [node]
    while node != goal:
        node = min(
            n for n in BOARD.sea_links[node] if distance[n][goal] == distance[node][goal] - 1
        )
        path.append(node)
    return [BOARD.node_token[n] for n in path]
