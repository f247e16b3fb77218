"""A Djambi heuristic bot: one-step look-ahead with a few rules of thumb.

It kills Chiefs when it can, keeps its own Chief out of reach, takes the centre only when
no enemy can strike it there, sends enemy Chiefs next to its killers with the Diplomat,
aims the Reporter at valuable victims and keeps its Necromobile out of danger. It reads only
``seat.view()`` and ``seat.legal_actions()``, and costs about a millisecond a decision.
"""

from __future__ import annotations

from machiavel.core.contract import JsonDict, Seat
from machiavel.core.rng import Rng, random_seed
from machiavel.games.djambi.board import (
    ASSASSIN,
    CENTRE,
    CHIEF,
    COLOUR_OF,
    DIPLOMAT,
    KIND_OF,
    MILITANT,
    MILITANT_RAYS,
    MOVE_ACTION_SQUARES,
    NECROMOBILE,
    NEIGHBOURS,
    ORTHOGONAL_NEIGHBOURS,
    PASS,
    PIECE_BY_NAME,
    RAYS,
    REPORTER,
    SCANDAL,
    SIZE,
    SQUARE_ACTIONS,
    SQUARE_INDEX,
    SQUARES,
)

MINE, ENEMY, WALL = 1, 2, 3
# What a piece is worth to its side; the Necromobile is guarded closely (the issue asks).
VALUE = (1000.0, 8.0, 7.0, 6.0, 9.0, 3.0, 0.0, 0.0)
EXPOSED_CHIEF = 400.0
CENTRE_BONUS = 60.0
NOISE = 0.5


def _relations(view: JsonDict, me: int) -> list[int]:
    """MINE/ENEMY/WALL per piece code, from the view's controllers and centre."""
    holder = view["centre"]
    me_name = view["colours"][me]
    per_colour = []
    for colour in view["colours"]:
        master = view["controllers"][colour]
        if master == me_name:
            per_colour.append(MINE)
        elif master is not None:
            per_colour.append(ENEMY)
        elif holder == me_name:
            per_colour.append(MINE)
        else:
            per_colour.append(ENEMY if holder is not None else WALL)
    return [0, *(r for r in per_colour for _ in range(8))]


def _board(view: JsonDict) -> list[int]:
    board = [0] * SQUARES
    for square, piece in view["pieces"].items():
        board[SQUARE_INDEX[square]] = PIECE_BY_NAME[piece]
    for square in view["corpses"]:
        board[SQUARE_INDEX[square]] = -1
    return board


def attacked(board: list[int], square: int, rel: list[int], by: int = ENEMY) -> bool:
    """Could a piece of relation ``by`` kill whatever stands on ``square`` next turn?"""
    for ray in RAYS[square]:
        distance = 0
        for target in ray:
            distance += 1
            other = board[target]
            if other == 0:
                continue
            if other > 0 and rel[other] == by:
                kind = KIND_OF[other]
                if kind in (CHIEF, ASSASSIN):
                    return True
                if kind == MILITANT and distance <= 2 and square != CENTRE:
                    return True
            break
    for near in ORTHOGONAL_NEIGHBOURS[square]:  # a Reporter arriving next to it
        if near == CENTRE or board[near] != 0:
            continue
        for ray in RAYS[near]:
            for target in ray:
                other = board[target]
                if other == 0:
                    continue
                if other > 0 and rel[other] == by and KIND_OF[other] == REPORTER:
                    return True
                break
    return False


def _distance(a: int, b: int) -> int:
    """King steps between two squares."""
    return max(abs(a % SIZE - b % SIZE), abs(a // SIZE - b // SIZE))


class DjambiHeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(random_seed() if seed is None else seed)

    def choose(self, seat: Seat) -> str:
        actions = seat.legal_actions()
        if len(actions) == 1:
            return actions[0]
        view = seat.view()
        turn = Turn(view, seat.player)  # player i plays colour i (D1)
        best, best_score = actions[0], float("-inf")
        for action in actions:
            score = turn.score(action) + NOISE * self.rng.random()
            if score > best_score:
                best, best_score = action, score
        return best

    def ranked(self, seat: Seat) -> list[str]:
        """Every legal action, best first (for search bots that widen in this order)."""
        first = self.choose(seat)
        actions = seat.legal_actions()
        if len(actions) == 1:
            return actions
        turn = Turn(seat.view(), seat.player)
        rest = sorted((a for a in actions if a != first), key=lambda a: -turn.score(a))
        return [first, *rest]


class Turn:
    """What the bot knows about the position while it weighs the actions of one step."""

    def __init__(self, view: JsonDict, me: int) -> None:
        self.view = view
        self.me = me
        self.board = _board(view)
        self.rel = _relations(view, me)
        self.acting = SQUARE_INDEX[view["acting"]] if view["acting"] else -1
        self.chief = next(
            (
                s
                for s, v in enumerate(self.board)
                if v > 0 and KIND_OF[v] == CHIEF and COLOUR_OF[v] == me
            ),
            -1,
        )
        self.enemy_chiefs = [
            s
            for s, v in enumerate(self.board)
            if v > 0 and KIND_OF[v] == CHIEF and self.rel[v] == ENEMY
        ]
        self.chief_in_danger = self.chief >= 0 and attacked(self.board, self.chief, self.rel)
        self.threatened: dict[int, bool] = {}

    def score(self, action: str) -> float:
        squares = MOVE_ACTION_SQUARES.get(action)
        if squares is not None:
            return self._move(*squares)
        if action == PASS:
            return 0.0
        if action == SCANDAL:
            return self._scandal()
        if action.startswith("revive"):
            target = action.split()[2]
            return self._revive(SQUARE_INDEX[target])
        square = SQUARE_ACTIONS[action]
        if action.startswith("kill"):
            return self._victim_value(self.board[square])
        if action.startswith("place"):
            return self._place(square)
        return self._corpse(square)

    # ---- values ---------------------------------------------------------------------
    def _victim_value(self, piece: int) -> float:
        if piece <= 0:
            return 0.0
        value = VALUE[KIND_OF[piece]]
        return value if self.rel[piece] == ENEMY else -value

    def _under_threat(self, square: int) -> bool:
        """Whether the piece on ``square`` could be killed next turn (cached per square)."""
        known = self.threatened.get(square)
        if known is None:
            known = self.threatened[square] = attacked(self.board, square, self.rel)
        return known

    # ---- first steps and moves out of the centre ------------------------------------
    def _move(self, origin: int, target: int) -> float:
        board = self.board
        piece, other = board[origin], board[target]
        kind = KIND_OF[piece]
        score = 0.0
        safe_before = kind == CHIEF or not self._under_threat(origin)
        kills = other > 0 and kind in (CHIEF, MILITANT, ASSASSIN) and self.rel[other] == ENEMY
        if kills:
            score += VALUE[KIND_OF[other]]
        elif kind == DIPLOMAT and other > 0 and self.rel[other] == ENEMY:
            score += 0.5 * VALUE[KIND_OF[other]] if KIND_OF[other] != CHIEF else 40.0
        elif kind == NECROMOBILE and other < 0:
            score += 3.0 if target == CENTRE else 0.5
        # Play the step on the board, judge, then undo.
        board[origin] = 0
        board[target] = piece
        if kind == ASSASSIN and kills:
            board[origin] = -1
        if kind == REPORTER and other == 0:
            victims = (self._victim_value(board[n]) for n in ORTHOGONAL_NEIGHBOURS[target])
            score += 0.9 * max((v for v in victims if v > 0), default=0.0)  # D5
        chief = target if kind == CHIEF else self.chief
        if chief >= 0 and attacked(board, chief, self.rel):
            score -= EXPOSED_CHIEF
        elif kind == CHIEF and target == CENTRE:
            score += CENTRE_BONUS  # D9: extra turns, and nobody can strike there now
        if kind != CHIEF:
            if attacked(board, target, self.rel):
                score -= 0.6 * VALUE[kind]
            elif not safe_before:
                score += 0.6 * VALUE[kind]  # out of reach: the Necromobile first of all
        if kind in (MILITANT, ASSASSIN) and not kills:
            score += self._hunting(origin, target, kind)
        if kind == CHIEF and target != CENTRE and self._sees_centre(target):
            score += 5.0  # on an open line to the centre, ready to take it
        board[origin] = piece
        board[target] = other
        return score

    def _hunting(self, origin: int, target: int, kind: int) -> float:
        """Killers close in on enemy Chiefs, and threaten one when they can."""
        if not self.enemy_chiefs:
            return 0.0
        rays = MILITANT_RAYS[target] if kind == MILITANT else RAYS[target]
        board = self.board
        for ray in rays:
            for square in ray:
                other = board[square]
                if other == 0:
                    continue
                if (
                    other > 0
                    and KIND_OF[other] == CHIEF
                    and self.rel[other] == ENEMY
                    and (kind != MILITANT or square != CENTRE)
                ):
                    return 12.0
                break
        before = min(_distance(origin, c) for c in self.enemy_chiefs)
        after = min(_distance(target, c) for c in self.enemy_chiefs)
        return 0.5 * (before - after)

    def _sees_centre(self, square: int) -> bool:
        """An open straight line from ``square`` to the empty centre."""
        if self.board[CENTRE] != 0:
            return False
        for ray in RAYS[square]:
            for target in ray:
                if target == CENTRE:
                    return True
                if self.board[target] != 0:
                    break
        return False

    # ---- follow-ups -------------------------------------------------------------------
    def _corpse(self, square: int) -> float:
        """A corpse shields the Chief and blocks the centre when the bot cannot hold it."""
        board = self.board
        score = 0.0
        board[square] = -1
        if self.chief_in_danger and not attacked(board, self.chief, self.rel):
            score += 50.0
        board[square] = 0
        if square == CENTRE:
            score += 4.0  # a puppet on the centre: nobody else takes the power
        for chief in self.enemy_chiefs:
            if square in NEIGHBOURS[chief]:
                score += 1.0  # helps wall an enemy Chief in (D10)
        if self.chief >= 0 and square in NEIGHBOURS[self.chief]:
            free = sum(1 for n in NEIGHBOURS[self.chief] if board[n] == 0)
            score += 1.0 if free > 3 else -3.0
        return score

    def _place(self, square: int) -> float:
        """D6: put an enemy Chief where the bot can kill it, the bot's own Chief on the
        centre if it is safe there, anything else away from the bot's Chief."""
        piece = PIECE_BY_NAME[self.view["in_hand"]]
        kind = KIND_OF[piece]
        board = self.board
        board[square] = piece
        if self.rel[piece] == ENEMY:
            if kind == CHIEF:
                score = 100.0 if attacked(board, square, self.rel, by=MINE) else 0.0
                score -= 100.0 if square == CENTRE else 0.0
            else:
                score = 5.0 if attacked(board, square, self.rel, by=MINE) else 0.0
            score -= self._threat_to_chief()
        else:
            score = -self._threat_to_chief()
            if kind == CHIEF and square == CENTRE and score == 0.0:
                score += CENTRE_BONUS
        board[square] = 0
        if self.chief >= 0:
            score += 0.1 * _distance(square, self.chief)
        return score

    def _threat_to_chief(self) -> float:
        if self.chief < 0:
            return 0.0
        return EXPOSED_CHIEF if attacked(self.board, self.chief, self.rel) else 0.0

    def _scandal(self) -> float:
        """D5 option: every living piece around dies, the bot's own included."""
        return sum(self._victim_value(self.board[n]) for n in NEIGHBOURS[self.acting])

    def _revive(self, target: int) -> float:
        """D12: any square will do, a safe one rather."""
        return -1.0 if attacked(self.board, target, self.rel) else 0.0
