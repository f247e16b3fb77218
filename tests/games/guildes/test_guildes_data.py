"""The card table data file (G1, G2, G6, G7): every figure marked, the book's figures kept."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from machiavel.games.guildes import data

RAW: dict[str, Any] = json.loads(
    resources.files("machiavel.games.guildes").joinpath("cards.json").read_text(encoding="utf-8")
)


def figures(node: Any) -> list[dict[str, Any]]:
    """Every ``{"value", "source"}`` figure in the file."""
    if isinstance(node, dict):
        if "value" in node:
            return [node]
        return [f for value in node.values() for f in figures(value)]
    if isinstance(node, list):
        return [f for value in node for f in figures(value)]
    return []


def test_every_figure_says_whether_the_book_gives_it_g2() -> None:
    found = figures(RAW)
    assert len(found) > 60
    assert {f["source"] for f in found} == {"book", "reconstructed"}


def test_the_books_figures_are_marked_as_such_g2() -> None:
    book = {
        (g["name"], round_index, place): figure["value"]
        for g in RAW["guilds"]
        for round_index, places in enumerate(g.get("places", []))
        for place, figure in enumerate(places)
        if figure["source"] == "book"
    }
    assert book == {
        ("Érudits", 0, 0): 8,
        ("Artisans", 1, 0): 7,
        ("Artisans", 1, 1): 4,
        ("Artisans", 2, 0): 7,
        ("Artisans", 2, 1): 4,
        ("Artisans", 2, 2): 1,
        ("Chevaliers", 2, 0): 11,
        ("Chevaliers", 2, 1): 5,
        ("Chevaliers", 2, 2): 3,
    }
    milice = RAW["guilds"][data.MILICE]
    assert milice["copies"] == {"value": 15, "source": "book"}
    assert milice["per_card"] == {"value": 3, "source": "book"}
    assert RAW["total_cards"] == {"value": 110, "source": "book"}


def test_the_reconstruction_of_g2() -> None:
    assert data.GUILD_NAMES == (
        "Pêcheurs", "Artisans", "Érudits", "Bourgeois", "Chevaliers",
        "Nobles", "Prêtres", "Alchimistes", "Milice",
    )  # fmt: skip
    assert data.COPIES == (16, 14, 13, 12, 11, 10, 10, 9, 15)
    assert sum(data.COPIES) == 110
    assert [data.PLACES[0][g] for g in range(8)] == [
        (6,),
        (7,),
        (8,),
        (10,),
        (11,),
        (12,),
        (13,),
        (14,),
    ]
    assert data.PLACES[2][7] == (14, 7, 4, 2)
    ten = {data.GUILD_NAMES[g] for g in data.TEN_OR_MORE}
    assert ten == {"Bourgeois", "Chevaliers", "Nobles", "Prêtres", "Alchimistes"}


def test_the_setup_table_of_g1() -> None:
    assert (data.DEALT, data.PLAYED) == ({3: 10, 4: 9, 5: 7, 6: 6}, {3: 8, 4: 7, 5: 5, 6: 5})
    removed = {
        n: {data.GUILD_NAMES[g]: c for g, c in enumerate(r) if c} for n, r in data.REMOVED.items()
    }
    assert removed == {3: {"Alchimistes": 9, "Milice": 3}, 4: {}, 5: {}, 6: {}}


def test_six_events_and_nine_coup_tordu_cards_g6_g7() -> None:
    assert data.EVENT_IDS == (
        "one_less", "ties_ignored", "in_turn", "redistribution", "one_or_two", "face_down",
    )  # fmt: skip
    assert set(data.EVENT_DIRECTIONS) == {1, -1}
    assert "".join(data.TRICK_LETTERS) == "ABCDEFGHI"
    guilds = [data.GUILD_NAMES[g] for g in data.TRICK_GUILD[5:]]
    assert guilds == ["Chevaliers", "Nobles", "Prêtres", "Alchimistes"]
    assert data.TRICK_EXCLUDED_WITH[8] == 3 and not any(data.TRICK_EXCLUDED_WITH[:8])


def test_names_are_read_without_accents_or_case() -> None:
    for name in data.GUILD_NAMES:
        assert data.GUILD_ALIASES[data.plain(name.upper())] == data.GUILD_INDEX[name]
    assert data.GUILD_ALIASES["pecheurs"] == data.GUILD_ALIASES[data.plain("Pêcheur")] == 0
