"""What follows a Tyrus election, in English and French: the tally with its arithmetic
(T5), the result (T6), the standing, the draw (T7), the next election, and why the game
ended (T8), in the rule books' words (block/counter, "contre"/"contre de contre").

Every tile named here was revealed by the tally just held (T7, T9) or is the viewer's own
(its draw), or stood in a hand shown once the game is over (T8); with ``memory_mode`` the
tally's tiles are not named at all, as the view keeps only the latest tally (T9).
Seats are always written "player N" / "joueur N": the page puts names on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from machiavel.games.tyrus.rules import Count, Decision

_BUILDINGS = {  # kind: (English plural, representative), (French singular, plural, representative)
    "citadel": (("citadels", "general"), ("citadelle", "citadelles", "le général")),
    "market": (("markets", "guildmaster"), ("marché", "marchés", "le chef des marchands")),
    "temple": (("temples", "high priest"), ("temple", "temples", "le grand prêtre")),
}
_PROFESSIONS = {
    "S": ("soldiers", "soldats"),
    "M": ("merchants", "marchands"),
    "P": ("priests", "prêtres"),
}
_FRENCH_ARTICLE = {"citadelle": "la", "marché": "le", "temple": "le"}


def _sum(values: Sequence[int]) -> str:
    """``10+8 = 18`` as the rule book adds, or the one value alone."""
    if len(values) == 1:
        return str(values[0])
    return f"{'+'.join(str(v) for v in values)} = {sum(values)}"


def _profession(letter: str, language: str) -> str:
    english, french = _PROFESSIONS[letter]
    return french if language == "fr" else english


# ---- the tally ----------------------------------------------------------------------
def tally_header(election: int, count: Count, language: str) -> str:
    """The election counted and what each profession does in it (T5)."""
    kind, elected, blocker, counter = count.kind, count.elected, count.blocker, count.counter
    if language == "fr":
        plural = _BUILDINGS[kind][1][1]
        return (
            f"Dépouillement de l'élection {election} dans les {plural} : les "
            f"{_profession(elected, 'fr')} votent, les {_profession(blocker, 'fr')} adverses les "
            f"contrent, les {_profession(counter, 'fr')} font contre de contre."
        )
    return (
        f"Election {election} is counted in the {_BUILDINGS[kind][0][0]}: "
        f"{_profession(elected, 'en')} vote, the rival's {_profession(blocker, 'en')} block "
        f"them, {_profession(counter, 'en')} counter the block."
    )


def count_line(count: Count, language: str) -> str:
    """One building's count: votes, blocks and counters added up, then the score (T5)."""
    if language == "fr":
        return _count_line_fr(count)
    rival = 1 - count.owner
    parts = [f"player {count.owner}'s {count.kind}: "]
    elected = _profession(count.elected, "en")
    parts.append(f"{elected} {_sum(count.votes)}" if count.votes else f"no {elected}")
    if count.blocks:
        parts.append(
            f"; player {rival}'s {_profession(count.blocker, 'en')} block {_sum(count.blocks)}"
        )
        if count.counters:
            parts.append(
                f", player {count.owner}'s {_profession(count.counter, 'en')} counter "
                f"{_sum(count.counters)}, so {_blocked_en(count)}"
            )
    parts.append(f"; score {_score(count, 'en')}")
    if count.idle:
        parts.append(f" (no effect: {_idle(count, 'en')})")
    return "".join(parts) + "."


def _idle(count: Count, language: str) -> str:
    """The tiles that count for nothing here, by placer: "player 1's S3, P2; player 0's M4"."""
    placers = sorted({placer for placer, _ in count.idle})
    groups = []
    for placer in placers:
        tiles = ", ".join(tile for who, tile in count.idle if who == placer)
        groups.append(
            f"{tiles} du joueur {placer}" if language == "fr" else f"player {placer}'s {tiles}"
        )
    return " ; ".join(groups) if language == "fr" else "; ".join(groups)


def _blocked_en(count: Count) -> str:
    if count.blocked == 0:
        return "nothing is blocked"
    return f"{sum(count.blocks)} − {sum(count.counters)} = {count.blocked} blocked"


def _count_line_fr(count: Count) -> str:
    rival = 1 - count.owner
    name = _BUILDINGS[count.kind][1][0]
    parts = [f"{_FRENCH_ARTICLE[name]} {name} du joueur {count.owner} : "]
    elected = _profession(count.elected, "fr")
    parts.append(f"{elected} {_sum(count.votes)}" if count.votes else f"aucun vote ({elected})")
    if count.blocks:
        blocker = _profession(count.blocker, "fr")
        parts.append(f" ; contre des {blocker} du joueur {rival} : {_sum(count.blocks)}")
        if count.counters:
            counter = _profession(count.counter, "fr")
            parts.append(
                f", contre de contre des {counter} du joueur {count.owner} : "
                f"{_sum(count.counters)}, {_blocked_fr(count)}"
            )
    parts.append(f" ; score {_score(count, 'fr')}")
    if count.idle:
        parts.append(f" (sans effet : {_idle(count, 'fr')})")
    return "".join(parts) + "."


def _blocked_fr(count: Count) -> str:
    if count.blocked == 0:
        return "le contre est annulé"
    return f"reste {sum(count.blocks)} − {sum(count.counters)} = {count.blocked}"


def _score(count: Count, language: str) -> str:
    """The score's subtraction; below zero counts as zero (T5)."""
    votes = sum(count.votes)
    if count.blocked == 0 or votes == 0:
        return str(count.score)
    if count.blocked >= votes:
        below = "est négatif, donc 0" if language == "fr" else "is below zero, so 0"
        return f"{votes} − {count.blocked} {below}"
    return f"{votes} − {count.blocked} = {count.score}"


def result_line(kind: str, scores: Sequence[int], winner: int | None, language: str) -> str:
    """Who wins the representative, and by how much (T6: equal scores make it null)."""
    high, low = max(scores), min(scores)
    if language == "fr":
        representative = _BUILDINGS[kind][1][2]
        if winner is None:
            return f"L'élection est nulle, {high} à {low} : personne ne remporte {representative}."
        return f"joueur {winner} remporte {representative}, {high} à {low}."
    representative = _BUILDINGS[kind][0][1]
    if winner is None:
        return f"The election is null, {high} to {low}: nobody wins the {representative}."
    return f"player {winner} wins the {representative}, {high} to {low}."


def hidden_result_line(election: int, kind: str, winner: int | None, language: str) -> str:
    """The result without the tally's numbers, for ``memory_mode`` (T9)."""
    if language == "fr":
        representative = _BUILDINGS[kind][1][2]
        if winner is None:
            outcome = f"L'élection {election} est nulle : personne ne remporte {representative}"
        else:
            outcome = f"joueur {winner} remporte {representative} de l'élection {election}"
        return f"{outcome} (mode mémoire : le dépouillement reste visible jusqu'à l'élection suivante)."
    representative = _BUILDINGS[kind][0][1]
    if winner is None:
        outcome = f"Election {election} is null: nobody wins the {representative}"
    else:
        outcome = f"player {winner} wins the {representative} of election {election}"
    return f"{outcome} (memory mode: the tally stays on the board until the next election)."


# ---- between elections --------------------------------------------------------------
def standing_line(results: Sequence[int | None], language: str) -> str:
    """Elections won so far by each player, and the nulls."""
    wins = [results.count(0), results.count(1)]
    nulls = results.count(None)
    if language == "fr":
        null = f" ({nulls} nulle{'s' if nulls > 1 else ''})" if nulls else ""
        return f"Élections gagnées : {wins[0]} par le joueur 0, {wins[1]} par le joueur 1{null}."
    null = f" ({nulls} null)" if nulls else ""
    return f"Elections won: {wins[0]} by player 0, {wins[1]} by player 1{null}."


def threat_lines(results: Sequence[int | None], language: str) -> list[str]:
    """A player one win from the end of the game (T8): two wins in a row, or four wins."""
    lines = []
    tail = list(results[-2:])
    streaker = tail[0] if len(tail) == 2 and tail[0] == tail[1] else None
    for player in (0, 1):
        if player == streaker:
            lines.append(
                f"joueur {player} a gagné 2 élections d'affilée : une de plus lui donne la partie."
                if language == "fr"
                else f"player {player} has won 2 elections in a row: one more wins the game."
            )
        elif results.count(player) == 4:
            lines.append(
                f"joueur {player} a gagné 4 élections : une cinquième lui donne la partie."
                if language == "fr"
                else f"player {player} has won 4 elections: a fifth wins the game."
            )
    return lines


def draw_line(drawn: Sequence[Sequence[str]], viewer: int | None, language: str) -> str:
    """T7's draw: how many tiles each player drew, and which ones for the viewer's own."""
    counts = [len(tiles) for tiles in drawn]
    if not any(counts):
        if language == "fr":
            return "Les réserves sont épuisées : plus de pioche."
        return "The reserves are empty: no more tiles are drawn."
    if language == "fr":
        if counts[0] == counts[1]:
            line = f"Chaque joueur pioche {counts[0]} tuile{'s' if counts[0] > 1 else ''}"
        else:
            line = f"joueur 0 pioche {counts[0]} tuiles, joueur 1 en pioche {counts[1]}"
    elif counts[0] == counts[1]:
        line = f"Each player draws {counts[0]} tile{'s' if counts[0] > 1 else ''}"
    else:
        line = f"player 0 draws {counts[0]} tiles, player 1 draws {counts[1]}"
    if viewer is not None and drawn[viewer]:
        verb, semicolon = ("pioche", " ;") if language == "fr" else ("draws", ";")
        line += f"{semicolon} {_seat(viewer, language)} {verb} {', '.join(drawn[viewer])}"
    return line + "."


def next_election_line(election: int, kind: str, elected: str, first: int, language: str) -> str:
    """The card turned for the next election, who votes there and who places first (T2,
    T3)."""
    voters = _profession(elected, language)
    if language == "fr":
        plural = _BUILDINGS[kind][1][1]
        return (
            f"L'élection {election} aura lieu dans les {plural} (les {voters} votent) ; "
            f"joueur {first} pose en premier."
        )
    return (
        f"Election {election} will be held in the {_BUILDINGS[kind][0][0]} ({voters} vote); "
        f"player {first} places first."
    )


def _seat(player: int, language: str) -> str:
    return f"joueur {player}" if language == "fr" else f"player {player}"


# ---- the end ------------------------------------------------------------------------
def ending_line(
    decision: Decision,
    results: Sequence[int | None],
    hands: Sequence[Sequence[str]],
    language: str,
) -> str:
    """Why the game ended and the winner's margin (T8); the hands only when they decided."""
    wins = [results.count(0), results.count(1)]
    held = len(results)
    if language == "fr":
        return _ending_fr(decision, wins, held, hands)
    if decision.reason == "streak":
        (winner,) = decision.winners
        return (
            f"player {winner} won three elections in a row ({held - 2}, {held - 1} and {held}) "
            f"and wins the game at once, with {wins[winner]} elections won to {wins[1 - winner]}."
        )
    if decision.reason == "five":
        (winner,) = decision.winners
        return (
            f"player {winner} won a fifth election (election {held}) and wins the game at once, "
            f"{wins[winner]} elections to {wins[1 - winner]}."
        )
    if decision.reason == "more":
        (winner,) = decision.winners
        return (
            f"All nine elections were held: player {winner} won more of them, "
            f"{wins[winner]} to {wins[1 - winner]}, and wins the game."
        )
    totals = _hand_sums(hands)
    tied = f"All nine elections were held and each player won {wins[0]}, so the tiles left in hand decide"
    if decision.reason == "draw":
        return (
            f"{tied}: player 0 holds {totals[0]}, player 1 holds {totals[1]}; the game is a draw."
        )
    (winner,) = decision.winners
    return (
        f"{tied}: player 0 holds {totals[0]}, player 1 holds {totals[1]}; "
        f"player {winner} wins the game by {_margin(hands)}."
    )


def _ending_fr(
    decision: Decision, wins: list[int], held: int, hands: Sequence[Sequence[str]]
) -> str:
    if decision.reason == "streak":
        (winner,) = decision.winners
        return (
            f"joueur {winner} a gagné trois élections d'affilée ({held - 2}, {held - 1} et "
            f"{held}) et remporte aussitôt la partie, avec {wins[winner]} élections gagnées "
            f"contre {wins[1 - winner]}."
        )
    if decision.reason == "five":
        (winner,) = decision.winners
        return (
            f"joueur {winner} a gagné une cinquième élection (l'élection {held}) et remporte "
            f"aussitôt la partie, {wins[winner]} élections à {wins[1 - winner]}."
        )
    if decision.reason == "more":
        (winner,) = decision.winners
        return (
            f"Les neuf élections ont eu lieu : joueur {winner} en a gagné le plus, "
            f"{wins[winner]} à {wins[1 - winner]}, et remporte la partie."
        )
    totals = _hand_sums(hands)
    tied = (
        f"Les neuf élections ont eu lieu et chaque joueur en a gagné {wins[0]} : les tuiles "
        f"restées en main départagent"
    )
    held_by = f"joueur 0 a {totals[0]}, joueur 1 a {totals[1]}"
    if decision.reason == "draw":
        return f"{tied} : {held_by} ; la partie est nulle."
    (winner,) = decision.winners
    return f"{tied} : {held_by} ; joueur {winner} remporte la partie de {_margin(hands)}."


def _hand_sums(hands: Sequence[Sequence[str]]) -> list[str]:
    """Each hand's total as an addition of its tiles ("S9+M5+P3 = 17")."""
    return [
        f"{'+'.join(hand)} = {sum(int(t[1:]) for t in hand)}" if hand else "0" for hand in hands
    ]


def _margin(hands: Sequence[Sequence[str]]) -> int:
    totals = [sum(int(t[1:]) for t in hand) for hand in hands]
    return abs(totals[0] - totals[1])
