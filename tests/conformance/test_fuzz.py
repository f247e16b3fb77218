"""Fuzzing the action parsers of every game: any text given to ``apply`` is either a
spelling of a legal action or refused with ``IllegalAction``, the state unchanged.

Positions are random mid-game states of every game, player count and option set that
changes the actions; the texts are legal actions and documented examples, mutated
(digits of other scripts, huge and negative numbers, stray separators, shuffled,
duplicated, truncated or empty words, case changes, look-alike letters), or arbitrary
text. ``describe`` must say the same for every accepted spelling of an action as for its
canonical one.
Everything is derandomized: a failure shows up on every run, with the same example.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.contract import LANGUAGES, State
from machiavel.core.errors import IllegalAction
from machiavel.core.playout import random_playout, random_step
from machiavel.core.rng import Rng

# Option sets that change which actions exist or how they are written.
SYNTAX_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "djambi": [{}, {"reporter": "scandal", "aggressivity": True}],
    "guildes": [{}, {"events": True, "dirty_tricks": True}],
}
CASES = [
    pytest.param(game_id, players, options, id=f"{game_id}-{players}-{index}")
    for game_id in machiavel.games()
    for players in range(
        machiavel.game(game_id).min_players, machiavel.game(game_id).max_players + 1
    )
    for index, options in enumerate(SYNTAX_OPTIONS.get(game_id, [{}]))
]
# Documented actions (docs/games/*.md), so every phase's parser meets every verb.
EXAMPLES = {
    "tyrus": ["M8 rival-citadel", "S3 temple"],
    "djambi": ["c3-e5", "pass", "corpse d4", "place f6", "kill e6", "scandal", "revive c4 a2"],
    "guildes": [
        "keep Érudits",
        "discard Nobles",
        "place Milice",
        "place Artisans Nobles",
        "pass",
        "swap 0 Nobles 2 Milice",
        "sacrifice Nobles 2 Milice",
        "draw",
        "exchange Nobles Milice",
        "plus 2",
        "minus 2",
    ],
    "tyros": [
        "expand 12 orange",
        "under 12",
        "move tyros>31 pay orange",
        "move 22>17 pay green,green fee violet",
        "city 16 pay yellow,yellow,yellow,yellow return 16e",
        "ship tyros pay orange,green,green",
        "bank orange,orange,violet take green",
        "offer 2 give orange,orange ask green",
        "accept",
        "refuse",
        "pass",
        "keep orange,green,joker",
    ],
}
# Digits Python's str.isdigit() (and some int()) take, that the games must refuse.
DIGIT_SCRIPTS = (
    "⁰¹²³⁴⁵⁶⁷⁸⁹",  # superscripts
    "₀₁₂₃₄₅₆₇₈₉",  # subscripts
    "٠١٢٣٤٥٦٧٨٩",  # Arabic-Indic
    "０１２３４５６７８９",  # fullwidth
    "०१२३४५६७८९",  # Devanagari
    "⓪①②③④⑤⑥⑦⑧⑨",  # circled
)
# Named so that a failing example's draws stay short; int() refuses past 4300 digits.
ODD_NUMBERS = {
    "10**30": str(10**30),
    "5000 nines": "9" * 5000,
    "10**4300": "1" + "0" * 4300,
    **{text: text for text in ("-1", "-0", "+1", "1_0", "0x1", "1e3", "007")},
}
SEPARATORS = (",", ", ", ",,", ">", "-", ">>", "", " ", "   ", "\t", "\n", "\r\n", "\x00")
# No-break space, line separator, byte order mark, a lone surrogate (JSON can carry one).
ODD_SPACES = ("\u00a0", "\u2028", "\ufeff", "\ud800")
# Letters that case mapping or Unicode folding may turn into ASCII ones.
LOOKALIKES = {"k": "\u212a", "s": "\u017f", "i": "\u0131", "a": "ａ", "e": "é", "o": "\u00f6"}
CASE_CHANGES: tuple[Callable[[str], str], ...] = (
    str.upper,
    str.lower,
    str.swapcase,
    str.title,
    str.casefold,
)
FUZZ = settings(
    max_examples=40,
    derandomize=True,
    database=None,
    deadline=None,
    phases=(Phase.explicit, Phase.generate),  # shrinking rebuilds positions: too slow
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _position(game_id: str, players: int, options: dict[str, Any], seed: int, part: float) -> State:
    """A state ``part`` of the way through a random game (deterministic in the seed)."""
    spec = machiavel.game(game_id)
    total = random_playout(spec.new(players, seed=seed, options=options), Rng(seed + 1))
    state = spec.new(players, seed=seed, options=options)
    rng = Rng(seed + 1)
    for _ in range(int(total * part)):
        random_step(state, rng)
    return state


positions = st.tuples(st.integers(0, 2**32), st.floats(0, 0.95))


# ---- mutations of an action's text ---------------------------------------------------
def _insert_word(text: str, word: str, data: st.DataObject) -> str:
    words = text.split(" ")
    words.insert(data.draw(st.integers(0, len(words))), word)
    return " ".join(words)


def _foreign_digits(text: str, data: st.DataObject) -> str:
    """ASCII digits written in another script: all of them or one (added if none)."""
    script = data.draw(st.sampled_from(DIGIT_SCRIPTS))
    places = [i for i, c in enumerate(text) if c in "0123456789"]
    if not places:
        return _insert_word(text, script[data.draw(st.integers(0, 9))], data)
    chosen = places if data.draw(st.booleans()) else [data.draw(st.sampled_from(places))]
    chars = list(text)
    for i in chosen:
        chars[i] = script[int(chars[i])]
    return "".join(chars)


def _odd_number(text: str, data: st.DataObject) -> str:
    """A number word replaced by (or a word added as) a huge, negative or odd number."""
    number = ODD_NUMBERS[data.draw(st.sampled_from(sorted(ODD_NUMBERS)))]
    words = text.split(" ")
    numeric = [i for i, w in enumerate(words) if w.isascii() and w.isdigit()]
    if not numeric or data.draw(st.booleans()):
        return _insert_word(text, number, data)
    words[data.draw(st.sampled_from(numeric))] = number
    return " ".join(words)


def _truncate(text: str, data: st.DataObject) -> str:
    return text[: data.draw(st.integers(0, max(0, len(text) - 1)))]


def _shuffle_words(text: str, data: st.DataObject) -> str:
    return " ".join(data.draw(st.permutations(text.split(" "))))


def _duplicate_word(text: str, data: st.DataObject) -> str:
    return _insert_word(text, data.draw(st.sampled_from(text.split(" "))), data)


def _stray_separator(text: str, data: st.DataObject) -> str:
    separator: str = data.draw(st.sampled_from(SEPARATORS + ODD_SPACES))
    if " " in text and data.draw(st.booleans()):
        return text.replace(" ", separator, 1 if data.draw(st.booleans()) else -1)
    at = data.draw(st.integers(0, len(text)))
    return text[:at] + separator + text[at:]


def _change_case(text: str, data: st.DataObject) -> str:
    return data.draw(st.sampled_from(CASE_CHANGES))(text)


def _empty_word(text: str, data: st.DataObject) -> str:
    if "," in text and data.draw(st.booleans()):
        return text.replace(",", ",,", 1)
    return _insert_word(text, "", data)


def _lookalike(text: str, data: st.DataObject) -> str:
    places = [i for i, c in enumerate(text) if c.lower() in LOOKALIKES]
    if not places:
        return text
    at = data.draw(st.sampled_from(places))
    return text[:at] + LOOKALIKES[text[at].lower()] + text[at + 1 :]


def _replace_word(text: str, data: st.DataObject) -> str:
    words = text.split(" ")
    words[data.draw(st.integers(0, len(words) - 1))] = data.draw(st.text(max_size=8))
    return " ".join(words)


def _arbitrary(text: str, data: st.DataObject) -> str:
    return data.draw(st.text(max_size=40))


MUTATIONS = (
    _foreign_digits,
    _odd_number,
    _truncate,
    _shuffle_words,
    _duplicate_word,
    _stray_separator,
    _change_case,
    _empty_word,
    _lookalike,
    _replace_word,
    _arbitrary,
)


def _fuzzed_text(state: State, player: int, data: st.DataObject) -> str:
    """A legal action or documented example, changed by one to three mutations."""
    base = data.draw(
        st.sampled_from(state.legal_actions(player)) | st.sampled_from(EXAMPLES[state.game.id])
    )
    for _ in range(data.draw(st.integers(1, 3))):
        base = data.draw(st.sampled_from(MUTATIONS))(base, data)
    return base


def _short(text: str) -> str:
    return repr(text) if len(text) < 80 else f"{text[:60]!r}... ({len(text)} characters)"


def _check_apply(state: State, before: dict[str, Any], player: int, text: str) -> None:
    """``text`` is a spelling of a legal action, or refused with the state unchanged."""
    note(f"player {player} applies {_short(text)}")
    legal = state.legal_actions(player)
    canonical = state.normalize_action(text)  # never raises, whatever the text
    trial = state.clone()
    try:
        trial.apply(player, text)
    except IllegalAction as error:
        assert str(error).strip()
        assert trial.to_json() == before, "a refused action changed the state"
        return
    assert canonical in legal, f"{_short(text)} was accepted as {_short(canonical)}, not legal"
    assert trial.history[-1] == (player, canonical)


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
@FUZZ
@given(where=positions, data=st.data())
def test_apply_accepts_a_legal_spelling_or_refuses_cleanly(
    game_id: str,
    players: int,
    options: dict[str, Any],
    where: tuple[int, float],
    data: st.DataObject,
) -> None:
    state = _position(game_id, players, options, *where)
    before = state.to_json()
    note(f"position: last actions {before['history'][-3:]}, to move {state.to_move}")
    for _ in range(12):
        player = data.draw(st.sampled_from(state.to_move))
        _check_apply(state, before, player, _fuzzed_text(state, player, data))


# ---- describe: every accepted spelling reads like the canonical action ---------------
def _tidy_variants(action: str) -> list[str]:
    """Case and spacing: forgiven by every game."""
    spaced = "  " + "   ".join(action.split(" ")) + "\t"
    return [action.upper(), action.lower(), action.swapcase(), action.title(), spaced]


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _guildes_variants(action: str) -> list[str]:
    """Guild names without accents and in the singular; swap sides in either order."""
    words = action.split()
    singular = [words[0]] + [w[:-1] if w.endswith("s") else w for w in words[1:]]
    out = [_plain(action), " ".join(singular), _plain(action).upper()]
    if words[0] == "swap":
        out.append(" ".join([words[0], *words[3:5], *words[1:3]]))
    if words[0] == "place" and len(words) == 3:
        out.append(f"place {words[2]} {words[1]}")
    return out


TYROS_INITIALS = {"orange": "o", "yellow": "y", "green": "g", "violet": "v", "joker": "j"}
TYROS_FRENCH = {"yellow": "jaune", "green": "vert", "joker": "gris"}


def _tyros_cards(word: str, names: dict[str, str]) -> str:
    cards = [names.get(card, card) for card in word.split(",")]
    return ", ".join(reversed(cards))  # any order, a space after commas


def _tyros_variants(action: str) -> list[str]:
    """Cards in any order, as initials or French names; ``t`` for Tyros; ``-`` for ``>``."""
    words = action.split()
    out = [
        " ".join(_tyros_cards(w, names) if "," in w or w in names else w for w in words)
        for names in (TYROS_INITIALS, TYROS_FRENCH)
    ]
    if words[0] == "move":
        words[1] = words[1].replace(">", "-").replace("tyros", "t")
    elif words[0] in ("city", "ship") and words[1] == "tyros":
        words[1] = "t"
    out.append(" ".join(words))
    return out


def _djambi_variants(action: str) -> list[str]:
    """A move also reads ``c3 e5``, ``c3e5`` and ``c3xe5``."""
    if "-" not in action:
        return []
    return [action.replace("-", sep) for sep in (" ", "", "x", "X")]


GAME_VARIANTS: dict[str, Callable[[str], list[str]]] = {
    "guildes": _guildes_variants,
    "tyros": _tyros_variants,
    "djambi": _djambi_variants,
}


def _no_variants(action: str) -> list[str]:
    return []


def _spellings(game_id: str, action: str) -> list[str]:
    variants = GAME_VARIANTS.get(game_id, _no_variants)(action)
    return _tidy_variants(action) + variants + [v.upper() for v in variants]


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
@settings(FUZZ, max_examples=8)
@given(where=positions, data=st.data())
def test_describe_reads_every_accepted_spelling_as_the_canonical_action(
    game_id: str,
    players: int,
    options: dict[str, Any],
    where: tuple[int, float],
    data: st.DataObject,
) -> None:
    state = _position(game_id, players, options, *where)
    viewers = [None, *range(players)]
    for player in state.to_move:
        legal = state.legal_actions(player)
        for action in data.draw(st.lists(st.sampled_from(legal), min_size=1, max_size=4)):
            expected = {
                (viewer, language): state.describe(player, action, viewer, language)
                for viewer in viewers
                for language in LANGUAGES
            }
            for spelling in _spellings(game_id, action):
                note(f"player {player}: {spelling!r} for {action!r}")
                assert state.normalize_action(spelling) == action, "a documented spelling"
                for (viewer, language), line in expected.items():
                    assert state.describe(player, spelling, viewer, language) == line
