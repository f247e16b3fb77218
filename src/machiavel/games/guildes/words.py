"""Guildes actions in words for the game log, in English and French (guildes.fr.txt's words).

Simultaneous choices are face down (G3): the others only learn that a choice was made,
and how many cards. Placing in turn ("Plus de pose simultanée") and the Coup Tordu cards
(G7) are played face up, for everyone to read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from machiavel.games.guildes import actions as act
from machiavel.games.guildes.data import GUILD_NAMES, TRICK_GUILD, TRICK_LETTERS

if TYPE_CHECKING:
    from machiavel.games.guildes.rules import GuildesState


def describe(
    state: GuildesState, phase: str, player: int, action: str, viewer: int | None, language: str
) -> str:
    """An action about to be applied in ``phase`` (a phase name of the view), in words."""
    hidden = viewer != player and phase != "tricks"
    if language != "fr":
        if not hidden:
            return f"player {player}: {action}"
        if phase == "draft":
            return f"player {player} keeps a card"
        if phase == "redistribute":
            return f"player {player} gives a card to the Redistribution pile"
        if phase == "place" and state.seq_first < 0:
            cards = "a card" if state.batch == 1 else f"{state.batch} cards"
            return f"player {player} places {cards} face down"
        return f"player {player}: {action}"
    who = f"joueur {player}"
    if phase == "draft":
        if hidden:
            return f"{who} garde une carte"
        return f"{who} garde une carte {_guilds(action)[0]}"
    if phase == "redistribute":
        if hidden:
            return f"{who} défausse une carte pour la Redistribution"
        return f"{who} défausse une carte {_guilds(action)[0]} pour la Redistribution"
    if phase == "place":
        if state.seq_first >= 0:  # placing in turn: the card is shown at once
            return f"{who} pose une carte {_guilds(action)[0]}"
        if hidden:
            cards = "une carte" if state.batch == 1 else f"{state.batch} cartes"
            return f"{who} pose {cards} face cachée"
        guilds = _guilds(action)
        if len(guilds) == 2 and guilds[0] == guilds[1]:
            cards = f"deux cartes {guilds[0]}"
        else:
            cards = " et ".join(f"une carte {g}" for g in guilds)
        return f"{who} pose {cards} face cachée"
    return _trick_fr(state, player, action)


def _guilds(action: str) -> list[str]:
    _, numbers = act.parse(action)
    return [GUILD_NAMES[g] for g in numbers]


def _tableau_of(player: int, owner: int) -> str:
    return "de son propre tableau" if owner == player else f"du tableau du joueur {owner}"


def _trick_fr(state: GuildesState, player: int, action: str) -> str:
    """G7: the Coup Tordu card of the letter whose turn it is, played face up."""
    who = f"joueur {player}"
    letter = TRICK_LETTERS[state.trick_letter] if state.trick_letter >= 0 else "?"
    verb, numbers = act.parse(action)
    if verb == "pass":
        return f"{who} n'applique pas sa carte Coup Tordu {letter}"
    if verb == "draw":
        drawn = min(2, sum(state.discard))
        cards = "une carte" if drawn == 1 else f"{drawn} cartes"
        return f"{who} pioche {cards} de la défausse (Coup Tordu {letter})"
    if verb == "place":  # one of the cards drawn with D
        return f"{who} pose dans son tableau une carte {GUILD_NAMES[numbers[0]]} piochée"
    if verb == "swap":
        a, ga, b, gb = numbers
        return (
            f"{who} échange une carte {GUILD_NAMES[ga]} {_tableau_of(player, a)} contre "
            f"une carte {GUILD_NAMES[gb]} {_tableau_of(player, b)} (Coup Tordu {letter})"
        )
    if verb == "sacrifice":
        own, target, victim = numbers
        return (
            f"{who} sacrifie une carte {GUILD_NAMES[own]} de son tableau pour éliminer "
            f"une carte {GUILD_NAMES[victim]} {_tableau_of(player, target)} (Coup Tordu {letter})"
        )
    if verb == "exchange":
        back, out = numbers
        return (
            f"{who} reprend en main une carte {GUILD_NAMES[back]} de son tableau et pose "
            f"à sa place une carte {GUILD_NAMES[out]} (Coup Tordu {letter})"
        )
    if verb in ("plus", "minus"):
        sign = "+1" if verb == "plus" else "−1"
        name = GUILD_NAMES[TRICK_GUILD[state.trick_letter]]
        on = "son propre tableau" if numbers[0] == player else f"le tableau du joueur {numbers[0]}"
        return f"{who} joue {sign} {name} sur {on} (Coup Tordu {letter})"
    return f"{who} : {action}"
