"""What follows a Guildes action, for the game log, the board and the end screen.

``events`` writes the lines of what an action set off: the end of a drafting step, the
Redistribution, the cards revealed together (G3), Coup Tordu cards skipped (G7), the count
guild by guild with its arithmetic (G4, G6) and the next round's cards. ``marks`` says which
tableau cards the action put face up; ``ending`` tells the final count (G5). Everything
here is public (tableaux, counts, sizes), except the Redistribution card a player received,
told to that player alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from machiavel.core.contract import JsonDict
from machiavel.games.guildes.count import without_ties
from machiavel.games.guildes.data import (
    DEALT,
    EVENT_DIRECTIONS,
    EVENT_TITLES,
    GUILD_COUNT,
    GUILD_NAMES,
    MILICE,
    MILICE_VOTES,
    PLACES,
    PROTECTION,
    TRICK_GUILD,
    TRICK_LETTERS,
)
from machiavel.games.guildes.words import (
    EVENT_TITLES_EN,
    a_card,
    say,
    seat,
    seats,
    trick_name,
)

if TYPE_CHECKING:
    from machiavel.games.guildes.rules import GuildesState

DRAFT, REDISTRIBUTE, PLACE, TRICKS, OVER = range(5)  # as rules.PHASE_NAMES


# ---- the count, guild by guild (G4) ------------------------------------------------------
@dataclass(frozen=True)
class Group:
    """Players who hold as many cards of a guild and reach one place together."""

    players: tuple[int, ...]
    cards: int
    place: int  # 0 for first; for Milice unused
    values: tuple[int, ...]  # the values of the places the group covers (may be none)
    ignored: bool = False  # event "ties ignored": these cards do not count (G6)

    @property
    def share(self) -> int:
        if self.ignored or not self.values:
            return 0
        return sum(self.values) // len(self.players)


def count_groups(
    round_index: int, guild: int, cards: Sequence[int], ignore_ties: bool = False
) -> list[Group]:
    """The groups of one guild's count, best first, as ``count.share_places`` walks them;
    with the event "ties ignored", the tied groups first, marked ignored (G6)."""
    if guild == MILICE:
        return [
            Group((p,), c, 0, (MILICE_VOTES * c,))
            for p, c in enumerate(cards)
            if c  # per card
        ]
    groups: list[Group] = []
    counted = list(cards)
    if ignore_ties:
        counted = without_ties(cards)
        for number in sorted({c for c, k in zip(cards, counted, strict=True) if c and not k}):
            tied = tuple(p for p, c in enumerate(cards) if c == number)
            groups.append(Group(tied, number, 0, (), ignored=True))
        groups.reverse()
    places = PLACES[round_index][guild]
    place = 0
    for number in sorted({c for c in counted if c}, reverse=True):
        players = tuple(p for p, c in enumerate(counted) if c == number)
        groups.append(Group(players, number, place, places[place : place + len(players)]))
        place += len(players)
    return groups


def _ordinal(place: int, language: str) -> str:
    if language == "fr":
        return "1er" if place == 1 else f"{place}e"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place, 'th') }"


def _votes(votes: int, language: str) -> str:
    return say(language, f"{votes} vote" + ("" if votes == 1 else "s"), f"{votes} voix")


def _holding(group: Group, language: str) -> str:
    """``player 0 with 3 cards``, ``player 1 and player 2 with 1 card each``."""
    plural = "" if group.cards == 1 else "s"
    who = seats(group.players, language)
    if language == "fr":
        each = " chacun" if len(group.players) > 1 else ""
        return f"{who} avec {group.cards} carte{plural}{each}"
    each = " each" if len(group.players) > 1 else ""
    return f"{who} with {group.cards} card{plural}{each}"


def _group_text(group: Group, guild: int, language: str) -> str:
    holding = _holding(group, language)
    if guild == MILICE:
        return f"{holding} × {MILICE_VOTES} = {_votes(group.share, language)}"
    if group.ignored:
        return say(language, f"{holding}: tied, not counted", f"{holding} : à égalité, non compté")
    if not group.values:
        return say(language, f"{holding}: no place left", f"{holding} : plus de place")
    place = _ordinal(group.place + 1, language)
    if len(group.players) == 1:
        return f"{holding}, {place}{say(language, ':', ' :')} {_votes(group.share, language)}"
    added = "+".join(str(v) for v in group.values)
    if len(group.values) > 1:
        added = f"({added})"
    rounded = sum(group.values) % len(group.players) != 0
    return say(
        language,
        f"{holding}, tied {place}: {added}/{len(group.players)} = "
        f"{_votes(group.share, 'en')} each" + (" (rounded down)" if rounded else ""),
        f"{holding}, {place} ex æquo : {added}/{len(group.players)} = "
        f"{_votes(group.share, 'fr')} chacun" + (" (arrondi à l'inférieur)" if rounded else ""),
    )


def guild_line(
    round_index: int, guild: int, cards: Sequence[int], ignore_ties: bool, language: str
) -> str:
    """``Nobles (12/6): player 0 with 3 cards, 1st: 12 votes; ...``"""
    name = GUILD_NAMES[guild]
    if guild == MILICE:
        head = say(
            language, f"{name} ({MILICE_VOTES} a card)", f"{name} ({MILICE_VOTES} par carte)"
        )
    else:
        head = f"{name} ({'/'.join(str(v) for v in PLACES[round_index][guild])})"
    groups = count_groups(round_index, guild, cards, ignore_ties and guild != MILICE)
    parts = _separator(language).join(_group_text(g, guild, language) for g in groups)
    return f"{head}{say(language, ':', ' :')} {parts}"


def count_lines(state: GuildesState, language: str) -> list[str]:
    """The count just held: a heading, one line per guild held, the votes and totals."""
    entry, details = state.counts_log[-1], state.count_detail(-1)
    round_index = entry["round"] - 1
    counted = [[t.get(name, 0) for name in GUILD_NAMES] for t in entry["tableaux"]]
    ignore_ties = bool(details["ties_ignored"])
    heading = say(
        language,
        f"Count of round {round_index + 1}",
        f"Décompte du tour de scrutin {round_index + 1}",
    )
    if counted != state.tableau:  # F-I's virtual cards (the count changes no card)
        heading += say(
            language,
            " (with the Coup Tordu +1/−1 cards)",
            " (avec les cartes Coup Tordu +1/−1)",
        )
    if ignore_ties:
        heading += say(
            language,
            " (event: tied players are left out)",
            " (événement : les joueurs à égalité ne sont pas pris en compte)",
        )
    lines = [heading + say(language, ":", " :")]
    for guild in range(GUILD_COUNT):
        cards = [row[guild] for row in counted]
        if any(cards):
            lines.append(guild_line(round_index, guild, cards, ignore_ties, language))
    lines.append(_totals(entry["votes"], state.scores_, language))
    return lines


def _separator(language: str) -> str:
    return say(language, "; ", " ; ")


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


def _totals(votes: Sequence[int], totals: Sequence[float], language: str) -> str:
    this_round = ", ".join(f"{seat(p, language)} {v}" for p, v in enumerate(votes))
    overall = ", ".join(f"{seat(p, language)} {_number(t)}" for p, t in enumerate(totals))
    return say(
        language,
        f"Votes this round: {this_round}. Totals: {overall}.",
        f"Voix de ce tour : {this_round}. Totaux : {overall}.",
    )


# ---- the lines of what followed an action -------------------------------------------------
def events(
    state: GuildesState, before: GuildesState, player: int, viewer: int | None, language: str
) -> list[str]:
    """The lines of what ``player``'s action set off (``state`` after it, ``before`` as
    it was played on), in the order it happened."""
    lines: list[str] = []
    completed = before.waiting == (player,)  # this action was the last one awaited
    if before.phase == DRAFT and completed:
        lines += _draft_step(state, before, language)
    elif before.phase == REDISTRIBUTE and completed:
        lines += _redistribution(state, viewer, language)
    elif before.phase == PLACE and completed and before.seq_first < 0:
        lines += _reveal(state, before, language)
    if before.phase in (DRAFT, REDISTRIBUTE) and state.phase == PLACE:
        lines += _placing_begins(state, language)
    if before.phase == PLACE and state.phase != PLACE:
        lines += _placing_ends(state, before, language)
    if before.phase == TRICKS and len(before.drawn) == 2:
        lines.append(
            say(
                language,
                "the other drawn card goes back face down to the discard pile",
                "l'autre carte piochée retourne face cachée dans la défausse",
            )
        )
    if before.phase == TRICKS and not _still_drawing(state, before):
        lines += _skipped_tricks(state, before, before.trick_letter + 1, language)
    if len(state.counts_log) > len(before.counts_log):
        lines += count_lines(state, language)
    if state.round > before.round:
        lines += _round_begins(state, language)
    return lines


def _still_drawing(state: GuildesState, before: GuildesState) -> bool:
    """After D's draw the same card is still being played (a drawn card to place)."""
    return state.phase == TRICKS and state.trick_letter == before.trick_letter


def _draft_step(state: GuildesState, before: GuildesState, language: str) -> list[str]:
    passing = say(
        language,
        "the hands pass to the left" if before.direction == 1 else "the hands pass to the right",
        "les mains passent à gauche" if before.direction == 1 else "les mains passent à droite",
    )
    if before.packet_size == DEALT[before.n]:  # the round's first step: say who gets whose
        to = say(language, " to ", " à ")
        passing += say(language, ": ", " : ") + ", ".join(
            f"{seat(p, language)}{to}{seat((p + before.direction) % before.n, language)}"
            for p in range(before.n)
        )
    lines = [say(language, "everyone has kept a card; ", "chacun a gardé une carte ; ") + passing]
    if before.packet_size == 2:
        lines.append(
            say(
                language,
                "the last card of each hand is kept without choosing",
                "la dernière carte de chaque main est gardée sans choix",
            )
        )
    if state.phase != DRAFT:
        kept, placed = DEALT[state.n], state.place_total
        lines.append(
            say(
                language,
                f"the drafting is over: each player has kept {kept} cards, {placed} of them to be placed",
                f"la sélection est finie : chaque joueur a gardé {kept} cartes et en posera "
                f"{placed}",
            )
        )
    if state.phase == REDISTRIBUTE:
        lines.append(
            say(
                language,
                "Redistribution event: each player now gives one kept card",
                "événement Redistribution : chaque joueur défausse maintenant une carte",
            )
        )
    return lines


def _redistribution(state: GuildesState, viewer: int | None, language: str) -> list[str]:
    lines = [
        say(
            language,
            "the given cards are shuffled and one is dealt to each player",
            "les cartes défaussées sont mélangées et chaque joueur en reçoit une",
        )
    ]
    if viewer is not None and state.red_in[viewer] >= 0:  # the viewer's own card only
        who, card = seat(viewer, language), a_card(state.red_in[viewer], language)
        lines.append(say(language, f"{who} receives {card}", f"{who} reçoit {card}"))
    return lines


def _placing_begins(state: GuildesState, language: str) -> list[str]:
    if state.seq_first < 0:
        return []
    first = seat(state.seq_first, language)
    return [
        say(
            language,
            f"placing in turn, face up, beginning with {first}, then to the right",
            f"pose chacun son tour, face visible, en commençant par {first}, puis vers la droite",
        )
    ]


def _reveal(state: GuildesState, before: GuildesState, language: str) -> list[str]:
    """The cards a placing step turned face up: the tableaux grew by exactly them."""
    parts = [
        f"{seat(p, language)} {', '.join(GUILD_NAMES[g] for g in cards)}"
        for p, cards in enumerate(added_cards(state, before))
        if cards
    ]
    lines = []
    if parts:
        lines.append(
            say(language, "revealed: ", "cartes révélées : ") + _separator(language).join(parts)
        )
    if any(state.face_down):
        lines.append(
            say(
                language,
                "the cards just placed stay face down until the next step",
                "les cartes qui viennent d'être posées restent face cachée jusqu'à la suivante",
            )
        )
    return lines


def _placing_ends(state: GuildesState, before: GuildesState, language: str) -> list[str]:
    if not state.tricks_on:
        return [
            say(
                language,
                "the placing is over; the unplaced cards are discarded",
                "la pose est finie ; les cartes non posées sont défaussées",
            )
        ]
    lines = [
        say(
            language,
            "the placing is over; the Coup Tordu cards are played in letter order, each "
            "player's unplaced cards being discarded after their turn",
            "la pose est finie ; les cartes Coup Tordu sont jouées par ordre alphabétique, "
            "chacun défaussant ses cartes non posées après son tour",
        )
    ]
    return lines + _skipped_tricks(state, before, 0, language)


def _skipped_tricks(
    state: GuildesState, before: GuildesState, start: int, language: str
) -> list[str]:
    """The Coup Tordu cards passed over from letter ``start`` on: Protection, which asks
    nothing, and cards with no possible effect (G7). The holders are ``before``'s: after a
    count the next round has dealt new cards."""
    stop = state.trick_letter if state.phase == TRICKS else len(TRICK_LETTERS)
    lines = []
    for letter in range(start, stop):
        if letter not in before.tricks:
            continue
        who, card = seat(before.tricks.index(letter), language), trick_name(letter, language)
        if letter == PROTECTION:
            lines.append(
                say(
                    language,
                    f"{who} holds {card}: no other Coup Tordu card can touch them",
                    f"{who} a la {card} : aucune autre carte Coup Tordu ne peut le toucher",
                )
            )
        else:
            lines.append(
                say(
                    language,
                    f"{who}'s {card} can do nothing now and is skipped",
                    f"la {card} du {who} ne peut rien faire et est passée",
                )
            )
    return lines


def _round_begins(state: GuildesState, language: str) -> list[str]:
    number = state.round + 1
    titles = EVENT_TITLES if language == "fr" else EVENT_TITLES_EN
    left = EVENT_DIRECTIONS[state.event] == 1
    direction = say(language, "left" if left else "right", "gauche" if left else "droite")
    dealt = DEALT[state.n]
    if state.events_on:
        event = say(
            language,
            f"event card “{titles[state.event]}” (hands pass to the {direction})",
            f"carte Événement « {titles[state.event]} » (les mains passent à {direction})",
        )
    else:
        event = say(language, f"hands pass to the {direction}", f"les mains passent à {direction}")
    lines = [
        say(
            language,
            f"Round {number} begins: {dealt} new cards each; {event}",
            f"Le tour de scrutin {number} commence : {dealt} nouvelles cartes chacun ; {event}",
        )
    ]
    if state.tricks_on:
        dealt_tricks = ", ".join(
            f"{seat(p, language)} {TRICK_LETTERS[c]}" for p, c in enumerate(state.tricks)
        )
        lines.append(say(language, "Coup Tordu cards: ", "cartes Coup Tordu : ") + dealt_tricks)
    return lines


# ---- board marks -------------------------------------------------------------------------
def added_cards(state: GuildesState, before: GuildesState) -> list[list[int]]:
    """Per player, the cards this action put face up on their tableau, in guild order."""
    return [
        [g for g in range(GUILD_COUNT) for _ in range(max(0, now[g] - then[g]))]
        for now, then in zip(state.tableau, before.tableau, strict=True)
    ]


def removed_cards(state: GuildesState, before: GuildesState) -> list[list[int]]:
    return added_cards(before, state)


def marks(state: GuildesState, before: GuildesState, player: int, action: str) -> JsonDict:
    """``cards`` put face up on ``tableau`` (the mover's when they got any); ``tableaux``
    when several tableaux got cards (a reveal of everyone's, B's swap); ``removed`` for
    cards taken off tableaux (C, E); ``modifier`` for F-I's virtual card."""
    added = added_cards(state, before)
    owners = [p for p, cards in enumerate(added) if cards]
    data: JsonDict = {}
    if owners:
        owner = player if added[player] else owners[0]
        data["cards"] = [GUILD_NAMES[g] for g in added[owner]]
        data["tableau"] = owner
        if len(owners) > 1:
            data["tableaux"] = [[GUILD_NAMES[g] for g in cards] for cards in added]
    removed = removed_cards(state, before)
    if any(removed):
        data["removed"] = [[GUILD_NAMES[g] for g in cards] for cards in removed]
    verb, _, target = action.partition(" ")
    if before.phase == TRICKS and verb in ("plus", "minus"):
        letter = before.trick_letter
        data["tableau"] = int(target)
        data["modifier"] = {
            "guild": GUILD_NAMES[TRICK_GUILD[letter]],
            "delta": 1 if verb == "plus" else -1,
        }
    return data


# ---- the end (G5) -------------------------------------------------------------------------
def ending(state: GuildesState, language: str) -> str:
    scores = state.scores_
    winners = list(state.winners)
    best = scores[winners[0]]
    others = [s for s in scores if s != best]
    final = ", ".join(f"{seat(p, language)} {_number(s)}" for p, s in enumerate(scores))
    totals = say(language, f"Final totals: {final}.", f"Totaux finaux : {final}.")
    after = say(
        language, "After the count of the third round, ", "Après le décompte du troisième tour, "
    )
    votes = _votes(int(best), language)
    if not others:
        return (
            after
            + say(
                language,
                f"all players share the win with {votes} each. ",
                f"tous les joueurs se partagent la victoire avec {votes} chacun. ",
            )
            + totals
        )
    second = max(others)
    runners = seats([p for p, s in enumerate(scores) if s == second], language)
    margin = _votes(int(best - second), language)
    if len(winners) == 1:
        won = say(
            language,
            f"{seat(winners[0], language)} wins with {votes}, {margin} more than "
            f"{runners} ({_number(second)}). ",
            f"{seat(winners[0], language)} l'emporte avec {votes}, {margin} de plus que "
            f"{runners} ({_number(second)}). ",
        )
    else:
        won = say(
            language,
            f"{seats(winners, language)} share the win with {votes} each, {margin} more than "
            f"{runners} ({_number(second)}). ",
            f"{seats(winners, language)} se partagent la victoire avec {votes} chacun, "
            f"{margin} de plus que {runners} ({_number(second)}). ",
        )
    return after + won + totals


__all__ = ["Group", "count_groups", "count_lines", "ending", "events", "guild_line", "marks"]
