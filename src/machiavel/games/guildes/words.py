"""Guildes actions in words for the game log, in English and French (guildes.fr.txt's words).

Simultaneous choices are face down (G3): the others only learn that a choice was made,
and how many cards. Placing in turn ("Plus de pose simultanée") and the Coup Tordu cards
(G7) are played face up, for everyone to read.

The rule book is French only: guild names are proper names in both languages, and the
event and Coup Tordu titles are translated here for English lines. Seats are always written
"player N" / "joueur N", which the page replaces with the seat's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from machiavel.games.guildes import actions as act
from machiavel.games.guildes.data import GUILD_NAMES, TRICK_GUILD, TRICK_LETTERS, TRICK_TITLES

if TYPE_CHECKING:
    from machiavel.games.guildes.rules import GuildesState

# The event cards (G6) in English, in the order of cards.json.
EVENT_TITLES_EN = (
    "One card fewer is placed",
    "Tied players are left out of the count",
    "No more simultaneous placing",
    "Redistribution",
    "Placing one or two cards",
    "Face-down card",
)
# The Coup Tordu cards (G7) A-I in English, in the third person: the log speaks of seats.
TRICK_TITLES_EN = (
    "Protection",
    "Swap a card between two players",
    "Sacrifice a card ≥ 10 of one's own to remove any card",
    "Draw two cards from the discard pile, play one, discard the other",
    "Exchange a card in hand for one of one's own tableau",
    "+1 Chevaliers −1",
    "+1 Nobles −1",
    "+1 Prêtres −1",
    "+1 Alchimistes −1",
)


def say(language: str, english: str, french: str) -> str:
    return french if language == "fr" else english


def seat(player: int, language: str) -> str:
    return say(language, f"player {player}", f"joueur {player}")


def seats(players: Sequence[int], language: str) -> str:
    """``player 0``, ``player 0 and player 2``, ``player 0, player 1 and player 3``."""
    named = [seat(p, language) for p in players]
    if len(named) < 2:
        return "".join(named)
    return ", ".join(named[:-1]) + say(language, " and ", " et ") + named[-1]


def a_card(guild: int, language: str) -> str:
    """One card of a guild: ``a Nobles card``, ``an Érudits card``, ``une carte Nobles``."""
    name = GUILD_NAMES[guild]
    article = "an" if name[0] in "AEIOUÉ" else "a"
    return say(language, f"{article} {name} card", f"une carte {name}")


def cards_of(guilds: Sequence[int], language: str) -> str:
    """One or two cards: ``two Nobles cards``, ``a Nobles card and a Milice card``."""
    if len(guilds) == 2 and guilds[0] == guilds[1]:
        name = GUILD_NAMES[guilds[0]]
        return say(language, f"two {name} cards", f"deux cartes {name}")
    return say(language, " and ", " et ").join(a_card(g, language) for g in guilds)


def count_of_cards(how_many: int, language: str) -> str:
    if how_many == 1:
        return say(language, "a card", "une carte")
    return say(language, f"{how_many} cards", f"{how_many} cartes")


def trick_name(letter: int, language: str) -> str:
    """``Coup Tordu card C (Sacrifice ...)``: the letter and what the card says."""
    titles = TRICK_TITLES if language == "fr" else TRICK_TITLES_EN
    card = say(language, "Coup Tordu card", "carte Coup Tordu")
    return f"{card} {TRICK_LETTERS[letter]} ({titles[letter]})"


def describe(
    state: GuildesState, phase: str, player: int, action: str, viewer: int | None, language: str
) -> str:
    """An action about to be applied in ``phase`` (a phase name of the view), in words."""
    who = seat(player, language)
    if phase == "tricks":
        return _trick(state, player, action, language)
    shown = viewer == player
    guilds = _guilds(action)
    if phase == "draft":
        what = a_card(guilds[0], language) if shown else count_of_cards(1, language)
        return say(language, f"{who} keeps {what}", f"{who} garde {what}")
    if phase == "redistribute":
        what = a_card(guilds[0], language) if shown else count_of_cards(1, language)
        return say(
            language,
            f"{who} gives {what} to the Redistribution pile",
            f"{who} défausse {what} pour la Redistribution",
        )
    if state.seq_first >= 0:  # placing in turn: the card is shown at once
        what = a_card(guilds[0], language)
        return say(language, f"{who} places {what} face up", f"{who} pose {what}")
    what = cards_of(guilds, language) if shown else count_of_cards(state.batch, language)
    return say(language, f"{who} places {what} face down", f"{who} pose {what} face cachée")


def _guilds(action: str) -> list[int]:
    return list(act.parse(action)[1])


def tableau_of(player: int, owner: int, language: str) -> str:
    if owner == player:
        return say(language, "their own tableau", "son propre tableau")
    return say(language, f"player {owner}'s tableau", f"le tableau du joueur {owner}")


def _from_tableau(player: int, owner: int, language: str) -> str:
    if owner == player:
        return say(language, "from their own tableau", "de son propre tableau")
    return say(language, f"from player {owner}'s tableau", f"du tableau du joueur {owner}")


def _trick(state: GuildesState, player: int, action: str, language: str) -> str:
    """G7: the Coup Tordu card of the letter whose turn it is, played face up."""
    who = seat(player, language)
    letter = state.trick_letter
    tag = f"(Coup Tordu {TRICK_LETTERS[letter]})"
    verb, numbers = act.parse(action)
    if verb == "pass":
        return say(
            language,
            f"{who} does not use their {trick_name(letter, language)}",
            f"{who} n'applique pas sa carte Coup Tordu {TRICK_LETTERS[letter]}",
        )
    if verb == "draw":
        drawn = count_of_cards(min(2, sum(state.discard)), language)
        return say(
            language,
            f"{who} draws {drawn} from the discard pile {tag}",
            f"{who} pioche {drawn} de la défausse {tag}",
        )
    if verb == "place":  # one of the cards drawn with D
        card = a_card(numbers[0], language)
        return say(
            language,
            f"{who} places a drawn card on their own tableau: {card} {tag}",
            f"{who} pose dans son tableau {card} piochée {tag}",
        )
    if verb == "swap":
        a, ga, b, gb = numbers
        first = f"{a_card(ga, language)} {_from_tableau(player, a, language)}"
        second = f"{a_card(gb, language)} {_from_tableau(player, b, language)}"
        return say(
            language,
            f"{who} swaps {first} with {second} {tag}",
            f"{who} échange {first} contre {second} {tag}",
        )
    if verb == "sacrifice":
        own, target, victim = numbers
        mine, theirs = a_card(own, language), a_card(victim, language)
        origin = _from_tableau(player, target, language)
        return say(
            language,
            f"{who} sacrifices {mine} from their own tableau to remove {theirs} {origin} {tag}",
            f"{who} sacrifie {mine} de son tableau pour éliminer {theirs} {origin} {tag}",
        )
    if verb == "exchange":
        back, out = numbers
        taken, placed = a_card(back, language), a_card(out, language)
        return say(
            language,
            f"{who} takes {taken} back from their own tableau into hand "
            f"and places {placed} instead {tag}",
            f"{who} reprend en main {taken} de son tableau et pose à sa place {placed} {tag}",
        )
    if verb in ("plus", "minus"):
        sign = "+1" if verb == "plus" else "−1"
        name = GUILD_NAMES[TRICK_GUILD[letter]]
        on = tableau_of(player, numbers[0], language)
        return say(
            language,
            f"{who} plays {sign} {name} on {on} {tag}",
            f"{who} joue {sign} {name} sur {on} {tag}",
        )
    return say(language, f"{who} plays {tag}", f"{who} joue {tag}")
