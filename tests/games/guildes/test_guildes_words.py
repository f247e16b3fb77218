"""The Guildes log in words (issue 15): every action a sentence in both languages, the events
that follow it (each count with its arithmetic, G4), the board marks and the ending (G5),
never naming a card a viewer may not know (G3)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.contract import LANGUAGES
from machiavel.core.narration import narrate
from machiavel.core.rng import Rng
from machiavel.games.guildes.count import guild_votes
from machiavel.games.guildes.data import GUILD_COUNT, GUILD_NAMES, MILICE
from machiavel.games.guildes.rules import DRAFT, PLACE, REDISTRIBUTE, TRICKS, GuildesState
from machiavel.games.guildes.telling import count_groups, guild_line

GAME = machiavel.game("guildes")
VERBS = ("keep", "discard", "place", "swap", "sacrifice", "exchange", "plus", "minus")
GUILD_WORDS = "|".join(re.escape(name) for name in GUILD_NAMES)
# A verb of the action syntax followed by one of its arguments: "keep Nobles", "minus 1".
RAW = re.compile(rf"\b(?:{'|'.join(VERBS)}) (?:\d|{GUILD_WORDS})", re.IGNORECASE)
OLD_PREFIX = re.compile(r"^(?:player \d+: |joueur \d+ : )")  # "player 1: swap ..."
SEAT = re.compile(r"\b(?:player|joueur) (\d+)")
SECOND_PERSON = re.compile(r"\b(?:you|your|yours)\b", re.IGNORECASE)


def new_game(players: int, seed: int, variants: bool) -> GuildesState:
    options = {"events": variants, "dirty_tricks": variants}
    state = GAME.new(players, seed=seed, options=options)
    assert isinstance(state, GuildesState)
    return state


def hidden_choice(state: GuildesState) -> bool:
    """The action about to be played is made face down (G3, G6)."""
    return state.phase in (DRAFT, REDISTRIBUTE) or (state.phase == PLACE and state.seq_first < 0)


def named_guilds(text: str) -> set[str]:
    return {name for name in GUILD_NAMES if re.search(rf"\b{re.escape(name)}\b", text)}


def played_games(
    players: int, seed: int, variants: bool
) -> Iterator[tuple[GuildesState, int, str]]:
    """Each state of a random game with the move about to be played on it."""
    state = new_game(players, seed, variants)
    rng = Rng(seed)
    while not state.is_over:
        player = rng.choice(list(state.to_move))
        action = rng.choice(state.legal_actions(player))
        yield state, player, action
        narrate(state, player, action)  # plays it


def entries(state: GuildesState, player: int, action: str) -> dict[tuple[int | None, str], str]:
    """The log entry of ``action`` (its line and events) for every viewer and language,
    exactly as ``narrate`` writes it; the state is left unchanged."""
    told = narrate(state.clone(), player, action)
    return {
        (viewer, language): told.for_viewer(viewer, state.n, index)
        for index, language in enumerate(LANGUAGES)
        for viewer in [*range(state.n), None]
    }


CASES = [(players, variants) for players in (3, 4, 5, 6) for variants in (False, True)]


@pytest.mark.parametrize(("players", "variants"), CASES)
def test_every_line_is_a_sentence_without_action_syntax(players: int, variants: bool) -> None:
    """No line of a whole game spells an action as the engine does ("keep Nobles", "swap 0
    ...", "player 1: minus 1"); seats are "player N" of this table; never "you"."""
    checked = 0
    for state, player, action in played_games(players, 300 + players, variants):
        legal_with_arguments = [a for a in state.legal_actions(player) if " " in a]
        for (viewer, language), entry in entries(state, player, action).items():
            for line in entry.split("\n"):
                assert line.strip(), (viewer, language, action)
                assert not OLD_PREFIX.search(line), line
                assert not RAW.search(line), line
                assert not any(a in line for a in legal_with_arguments), line
                assert all(int(n) < players for n in SEAT.findall(line)), line
                assert not SECOND_PERSON.search(line), line
                if language == "fr":
                    assert "player" not in line and " card" not in line, line
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize(("players", "variants"), CASES)
def test_a_face_down_choice_names_no_card_to_the_others_g3(players: int, variants: bool) -> None:
    """Drafting, the Redistribution and simultaneous placing name the chosen cards to their
    author only; the events then name only what the tableaux show, and the card a player
    received at the Redistribution to that player alone."""
    for state, player, action in played_games(players, 400 + players, variants):
        if not hidden_choice(state):
            continue
        after = state.clone()
        after.apply(player, action)
        for (viewer, language), entry in entries(state, player, action).items():
            line, *events = entry.split("\n")
            chosen = named_guilds(line)
            if viewer == player:
                assert chosen, line
            else:
                assert not chosen, (viewer, line)
            for event in events:
                named = named_guilds(event)
                if not named:
                    continue
                if re.search(r"\b(receives|reçoit)\b", event):
                    assert viewer is not None and event.startswith(SEAT_OF[language](viewer))
                    continue
                public = set().union(*(set(t) for t in after.view(None)["tableaux"]))
                assert named <= public | {GUILD_NAMES[MILICE]}, event


SEAT_OF = {"en": lambda p: f"player {p} ", "fr": lambda p: f"joueur {p} "}


def last_choices(players: int, variants: bool, seed: int) -> Iterator[GuildesState]:
    """States where one choice is awaited: the action that ends a step, setting events off."""
    for state, _, _ in played_games(players, seed, variants):
        if len(state.to_move) == 1:
            yield state


@pytest.mark.parametrize(("players", "variants"), CASES)
def test_an_entry_tells_a_viewer_no_more_than_their_view(players: int, variants: bool) -> None:
    """Two moves leaving a viewer's view the same read the same to that viewer, events
    included: the log never says what the view hides (the conformance test, with events)."""
    compared = 0
    for index, state in enumerate(last_choices(players, variants, 500 + players)):
        if index % 3:  # a third of them is enough, and keeps the test short
            continue
        mover = state.to_move[0]
        seen: dict[tuple[int | None, str, str], str] = {}
        for action in state.legal_actions(mover)[:12]:
            after = state.clone()
            after.apply(mover, action)
            for (viewer, language), entry in entries(state, mover, action).items():
                if viewer == mover:
                    continue
                key = (viewer, language, json.dumps(after.view(viewer), sort_keys=True))
                assert seen.setdefault(key, entry) == entry, (viewer, entry, seen[key])
                compared += 1
    assert compared > 100


# ---- the count (G4) ----------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(
    round_index=st.integers(0, 2),
    guild=st.integers(0, GUILD_COUNT - 1),
    cards=st.lists(st.integers(0, 4), min_size=3, max_size=6),
    ignore_ties=st.booleans(),
)
def test_the_count_groups_add_up_to_the_votes_counted_g4_g6(
    round_index: int, guild: int, cards: list[int], ignore_ties: bool
) -> None:
    """The arithmetic the log shows is the count's: each player's share is their votes."""
    ignore = ignore_ties and guild != MILICE
    shares = [0] * len(cards)
    for group in count_groups(round_index, guild, cards, ignore):
        for player in group.players:
            assert cards[player] == group.cards
            shares[player] += group.share
    assert shares == guild_votes(round_index, guild, cards, ignore)
    for language in LANGUAGES:
        line = guild_line(round_index, guild, cards, ignore_ties, language)
        assert line.startswith(GUILD_NAMES[guild])
        assert {int(n) for n in SEAT.findall(line)} == {p for p, c in enumerate(cards) if c}


ARTISANS, CHEVALIERS = GUILD_NAMES.index("Artisans"), GUILD_NAMES.index("Chevaliers")


def test_the_books_examples_read_with_their_arithmetic_g4() -> None:
    # Round 3, example 1: two tied first at Artisans share 7 + 4, the next one takes 1.
    assert guild_line(2, ARTISANS, [2, 2, 1, 0], False, "en") == (
        "Artisans (7/4/1): player 0 and player 1 with 2 cards each, tied 1st: (7+4)/2 = "
        "5 votes each (rounded down); player 2 with 1 card, 3rd: 1 vote"
    )
    # Example 3: four tied first at Chevaliers share 11 + 5 + 3, the others get nothing.
    assert guild_line(2, CHEVALIERS, [1, 1, 1, 1, 0], False, "fr") == (
        "Chevaliers (11/5/3) : joueur 0, joueur 1, joueur 2 et joueur 3 avec 1 carte chacun, "
        "1er ex æquo : (11+5+3)/4 = 4 voix chacun (arrondi à l'inférieur)"
    )
    # G6, "ties ignored", example 1: the two tied players do not count, the third wins.
    assert guild_line(1, ARTISANS, [2, 2, 1], True, "en") == (
        "Artisans (7/4): player 0 and player 1 with 2 cards each: tied, not counted; "
        "player 2 with 1 card, 1st: 7 votes"
    )
    assert guild_line(0, MILICE, [3, 0, 1], True, "en") == (
        "Milice (3 a card): player 0 with 3 cards × 3 = 9 votes; player 2 with 1 card × 3 = 3 votes"
    )


@pytest.mark.parametrize(("players", "variants"), CASES)
def test_each_count_is_told_with_the_votes_and_totals_of_the_view_g4(
    players: int, variants: bool
) -> None:
    counts = 0
    for state, player, action in played_games(players, 600 + players, variants):
        held = len(state.counts_log)
        after = state.clone()
        after.apply(player, action)
        if len(after.counts_log) == held:
            continue
        counts += 1
        count = after.view(None)["counts"][-1]
        for (_, language), entry in entries(state, player, action).items():
            heading = {"en": "Count of round", "fr": "Décompte du tour de scrutin"}[language]
            lines = entry.split("\n")
            start = next(i for i, line in enumerate(lines) if line.startswith(heading))
            modified = count["tableaux"] != after.view(None)["tableaux"]  # F-I's +1/-1
            assert ("+1/−1" in lines[start]) == modified, lines[start]
            guilds = [g for g in GUILD_NAMES if any(g in t for t in count["tableaux"])]
            told = lines[start + 1 : start + 1 + len(guilds)]
            assert [line.split(" (")[0] for line in told] == guilds
            totals = lines[start + 1 + len(guilds)]
            numbers = [int(n) for n in re.findall(r"(?:player|joueur) \d+ (\d+)", totals)]
            assert numbers == count["votes"] + [int(s) for s in after.scores]
    assert counts == 3


# ---- marks and the ending ------------------------------------------------------------------
@pytest.mark.parametrize(("players", "variants"), CASES)
def test_marks_show_the_cards_put_face_up_and_nothing_hidden(players: int, variants: bool) -> None:
    for state, player, action in played_games(players, 700 + players, variants):
        before = state.view(None)["tableaux"]
        after = state.clone()
        told = narrate(after, player, action)
        marks = told.marks
        assert marks["player"] == player
        grown = [
            sorted(g for g in GUILD_NAMES for _ in range(now.get(g, 0) - then.get(g, 0)))
            for now, then in zip(after.view(None)["tableaux"], before, strict=True)
        ]
        if not any(grown):
            assert "cards" not in marks
        else:
            owner = marks["tableau"]
            assert sorted(marks["cards"]) == grown[owner]
            if "tableaux" in marks:
                assert [sorted(c) for c in marks["tableaux"]] == grown
            else:
                assert [p for p, c in enumerate(grown) if c] == [owner]
        if hidden_choice(state) and len(state.to_move) > 1:  # nothing shown yet
            assert marks == {"player": player}
        if state.phase == TRICKS and action.split()[0] in ("plus", "minus"):
            assert marks["tableau"] == int(action.split()[1]) and "modifier" in marks


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_ending_gives_the_final_count_and_the_margin_g5(players: int) -> None:
    state = new_game(players, 800 + players, variants=False)
    rng = Rng(players)
    while not state.is_over:
        assert state.ending("en") is None and state.ending("fr") is None
        player = rng.choice(list(state.to_move))
        state.apply(player, rng.choice(state.legal_actions(player)))
    state.scores_ = [40 + p for p in range(players)]  # the last player leads by one vote
    best, second = players - 1, players - 2
    assert state.ending("en") == (
        f"After the count of the third round, player {best} wins with {40 + best} votes, "
        f"1 vote more than player {second} ({40 + second}). Final totals: "
        + ", ".join(f"player {p} {40 + p}" for p in range(players))
        + "."
    )
    assert state.ending("fr") == (
        f"Après le décompte du troisième tour, joueur {best} l'emporte avec {40 + best} voix, "
        f"1 voix de plus que joueur {second} ({40 + second}). Totaux finaux : "
        + ", ".join(f"joueur {p} {40 + p}" for p in range(players))
        + "."
    )
    state.scores_ = [50.0, 50.0] + [43.0] * (players - 2)  # G5: a tie shares the win
    assert (state.ending("en") or "").startswith(
        "After the count of the third round, player 0 and player 1 share the win with 50 "
        "votes each, 7 votes more than player 2"
    )
    state.scores_ = [50.0] * players
    assert "tous les joueurs se partagent la victoire avec 50 voix chacun" in (
        state.ending("fr") or ""
    )
