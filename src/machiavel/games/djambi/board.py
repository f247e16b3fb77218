"""Djambi geometry and piece codes, all computed once at import (rulings D1, D2).

The board is a flat list of 81 ints, square ``rank * 9 + file`` (a1 = 0, i9 = 80,
e5 = 40). A square holds 0 when empty, a positive *piece code* for a living piece and the
negated code for a corpse. A code is ``colour * 8 + kind + 1``; a corpse whose owner is
unknown (one given by a position) holds ``UNKNOWN_CORPSE``. Rays, neighbours and every
action string are precomputed: listing legal actions only indexes tables.
"""

from __future__ import annotations

FILES = "abcdefghi"
SIZE = 9
SQUARES = SIZE * SIZE
CENTRE = 40  # e5, "the Power"
SQUARE_NAMES = tuple(f"{FILES[s % SIZE]}{s // SIZE + 1}" for s in range(SQUARES))
SQUARE_INDEX = {name: index for index, name in enumerate(SQUARE_NAMES)}

# D1: colours in clockwise turn order, each named after its starting corner.
COLOURS = ("red", "green", "yellow", "blue")
COLOUR_INDEX = {name: index for index, name in enumerate(COLOURS)}
CORNERS = ("a1", "a9", "i9", "i1")

CHIEF, ASSASSIN, REPORTER, DIPLOMAT, NECROMOBILE, MILITANT = range(6)
KINDS = ("chief", "assassin", "reporter", "diplomat", "necromobile", "militant")
KIND_INDEX = {name: index for index, name in enumerate(KINDS)}
KIND_LETTERS = "CARDNM"
NO_KIND = 7  # the kind of an unknown corpse
# D1: how many pieces of each kind an army has.
ARMY_COUNTS = (1, 1, 1, 1, 1, 4)
ARMY_SIZE = sum(ARMY_COUNTS)
ALL_PIECES = ARMY_SIZE * len(COLOURS)

UNKNOWN_CORPSE = -64


def piece_code(colour: int, kind: int) -> int:
    return colour * 8 + kind + 1


# Lookups by abs(code): list indexing beats arithmetic in the hot loops.
COLOUR_OF = [-1] * 65
KIND_OF = [NO_KIND] * 65
for _colour in range(len(COLOURS)):
    for _kind in range(len(KINDS)):
        COLOUR_OF[piece_code(_colour, _kind)] = _colour
        KIND_OF[piece_code(_colour, _kind)] = _kind
PIECE_NAMES = {
    piece_code(c, k): f"{COLOURS[c]} {KINDS[k]}" for c in range(len(COLOURS)) for k in range(6)
}
PIECE_BY_NAME = {name: code for code, name in PIECE_NAMES.items()}

DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < SIZE and 0 <= rank < SIZE


def _ray(square: int, step: tuple[int, int]) -> tuple[int, ...]:
    file, rank = square % SIZE, square // SIZE
    out: list[int] = []
    file, rank = file + step[0], rank + step[1]
    while _on_board(file, rank):
        out.append(rank * SIZE + file)
        file, rank = file + step[0], rank + step[1]
    return tuple(out)


def _steps(square: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    file, rank = square % SIZE, square // SIZE
    return tuple(
        (rank + dr) * SIZE + file + df for df, dr in steps if _on_board(file + df, rank + dr)
    )


# D2: straight lines in 8 directions; Militants go at most 2 squares.
RAYS = tuple(tuple(r for r in (_ray(s, d) for d in DIRECTIONS) if r) for s in range(SQUARES))
MILITANT_RAYS = tuple(tuple(r[:2] for r in RAYS[s]) for s in range(SQUARES))
NEIGHBOURS = tuple(_steps(s, DIRECTIONS) for s in range(SQUARES))
ORTHOGONAL_NEIGHBOURS = tuple(_steps(s, ORTHOGONAL) for s in range(SQUARES))


def _block(colour: int) -> tuple[int, ...]:
    """D1: the 3x3 corner block where an army starts."""
    corner = SQUARE_INDEX[CORNERS[colour]]
    files = range(3) if corner % SIZE == 0 else range(6, 9)
    ranks = range(3) if corner // SIZE == 0 else range(6, 9)
    return tuple(r * SIZE + f for r in ranks for f in files)


START_BLOCKS = tuple(_block(c) for c in range(len(COLOURS)))
# D12: the squares next to a block, used when the block itself is full.
BLOCK_RINGS = tuple(
    tuple(sorted({n for s in block for n in NEIGHBOURS[s]} - set(block))) for block in START_BLOCKS
)


def _mirror(square: str, colour: int) -> int:
    """D1: the red (a1) layout mirrored into ``colour``'s corner."""
    index = SQUARE_INDEX[square]
    file, rank = index % SIZE, index // SIZE
    if CORNERS[colour][0] == "i":
        file = SIZE - 1 - file
    if CORNERS[colour][1] == "9":
        rank = SIZE - 1 - rank
    return rank * SIZE + file


# D1: the a1 army; the Assassin shares the Chief's rank, the Reporter its file.
RED_LAYOUT = (
    ("a1", CHIEF),
    ("b1", ASSASSIN),
    ("c1", MILITANT),
    ("a2", REPORTER),
    ("b2", DIPLOMAT),
    ("c2", MILITANT),
    ("a3", MILITANT),
    ("b3", MILITANT),
    ("c3", NECROMOBILE),
)


def start_board() -> list[int]:
    board = [0] * SQUARES
    for colour in range(len(COLOURS)):
        for square, kind in RED_LAYOUT:
            board[_mirror(square, colour)] = piece_code(colour, kind)
    return board


# ---- action strings, built once ---------------------------------------------------------
MOVE_ACTIONS = tuple(
    tuple(f"{SQUARE_NAMES[a]}-{SQUARE_NAMES[b]}" for b in range(SQUARES)) for a in range(SQUARES)
)
CORPSE_ACTIONS = tuple(f"corpse {n}" for n in SQUARE_NAMES)
PLACE_ACTIONS = tuple(f"place {n}" for n in SQUARE_NAMES)
KILL_ACTIONS = tuple(f"kill {n}" for n in SQUARE_NAMES)
SCANDAL = "scandal"
PASS = "pass"
REVIVE_WORD = "revive"

# Steps of a turn and the follow-up words that answer them.
MOVE_ACTION_SQUARES = {MOVE_ACTIONS[a][b]: (a, b) for a in range(SQUARES) for b in range(SQUARES)}
SQUARE_ACTIONS = {
    **{CORPSE_ACTIONS[s]: s for s in range(SQUARES)},
    **{PLACE_ACTIONS[s]: s for s in range(SQUARES)},
    **{KILL_ACTIONS[s]: s for s in range(SQUARES)},
}


def revive_action(corpse: int, target: int) -> str:
    return f"{REVIVE_WORD} {SQUARE_NAMES[corpse]} {SQUARE_NAMES[target]}"
