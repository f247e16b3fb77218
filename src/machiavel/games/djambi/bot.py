"""A Djambi heuristic bot: one-step look-ahead with a few rules of thumb.

It kills Chiefs when it can, keeps its own Chief out of reach, takes the centre only when
no enemy can strike it there, sends enemy Chiefs next to its killers with the Diplomat,
aims the Reporter at valuable victims and keeps its Necromobile out of danger. It reads only
what its player knows (``Knowledge``: from ``seat.view()``, or from the state's fields for
search's ``choose_in``), and the legal actions.

Search spends most of its time here (docs/games/djambi.md, "Search speed"): moves are
weighed from a cheap upper bound of their score down, and only those that may still win
once the noise is added are scored in full and given their noise draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from machiavel.core.contract import JsonDict, Seat, State
from machiavel.core.rng import Rng, random_seed
from machiavel.games.djambi.board import (
    ASSASSIN,
    CENTRE,
    CHIEF,
    COLOUR_OF,
    COLOURS,
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
from machiavel.games.djambi.rules import DjambiState

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


# King steps between two squares, for every pair (read in the hot loops, not computed).
KING_DISTANCE = tuple(
    tuple(max(abs(a % SIZE - b % SIZE), abs(a // SIZE - b // SIZE)) for b in range(SQUARES))
    for a in range(SQUARES)
)
# Whether a square lies on one of another's lines (within a Militant's two steps): only
# from there may a killer see an enemy Chief, so other squares skip the look along lines.
ON_LINE = tuple(
    bytes(any(b in ray for ray in RAYS[a]) for b in range(SQUARES)) for a in range(SQUARES)
)
WITHIN_MILITANT_REACH = tuple(
    bytes(any(b in ray for ray in MILITANT_RAYS[a]) for b in range(SQUARES)) for a in range(SQUARES)
)

# The same as bit sets (the union over the enemy Chiefs tells where a killer may see one),
# and the squares next to each square.
ON_LINE_BITS = tuple(sum(flag << b for b, flag in enumerate(row)) for row in ON_LINE)
WITHIN_MILITANT_REACH_BITS = tuple(
    sum(flag << b for b, flag in enumerate(row)) for row in WITHIN_MILITANT_REACH
)
ORTHOGONAL_BITS = tuple(sum(1 << n for n in ORTHOGONAL_NEIGHBOURS[s]) for s in range(SQUARES))
# The squares strictly between two squares on one line (None off the line), for the
# looks along a line from a given square to a given piece.
BETWEEN = tuple(
    tuple(
        next((ray[:k] for ray in RAYS[a] for k, square in enumerate(ray) if square == b), None)
        for b in range(SQUARES)
    )
    for a in range(SQUARES)
)


def _rays_through(square: int) -> tuple[tuple[int, ...] | None, ...]:
    """For every square, the line from ``square`` that passes it, or None."""
    through: list[tuple[int, ...] | None] = [None] * SQUARES
    for ray in RAYS[square]:
        for other in ray:
            through[other] = ray
    return tuple(through)


# The line from one square that passes another (None off every line).
RAY_THROUGH = tuple(_rays_through(square) for square in range(SQUARES))
# What a piece of the striking side may do to a piece from afar (``Turn.strikers``).
HARMLESS, STRIKER, SHORT_STRIKER = 0, 1, 2
STRIKE_BY_KIND = (STRIKER, STRIKER, HARMLESS, HARMLESS, HARMLESS, SHORT_STRIKER, HARMLESS, HARMLESS)
ALL_CODES = len(COLOURS) * 8 + 1  # piece codes run from 1 to 32


_STRIKERS: dict[tuple[int, ...], list[int]] = {}  # by (side, how each colour stands)


def _strikers(rel: list[int], side: int) -> list[int]:
    """Per piece code, how a piece of ``side`` strikes (a corpse, -1, reads the last
    entry); one list per way the colours stand to the bot."""
    key = (side, *rel[1::8])
    strikers = _STRIKERS.get(key)
    if strikers is None:
        strikers = _STRIKERS[key] = [HARMLESS] * (ALL_CODES + 1)
        for code in range(1, ALL_CODES):
            if rel[code] == side:
                strikers[code] = STRIKE_BY_KIND[KIND_OF[code]]
    return strikers


_NEAREST: dict[tuple[int, ...], Sequence[int]] = {}  # by the enemy Chiefs' squares
NEAREST_KEPT = 4096  # tables kept at most (emptied when full: a server runs for weeks)


def _nearest_of(chiefs: tuple[int, ...]) -> Sequence[int]:
    """King steps from each square to the nearest of ``chiefs``: Chiefs seldom move, so
    most turns find their table already made."""
    nearest = _NEAREST.get(chiefs)
    if nearest is None:
        if len(_NEAREST) >= NEAREST_KEPT:
            _NEAREST.clear()
        rows = [KING_DISTANCE[chief] for chief in chiefs]
        nearest = _NEAREST[chiefs] = rows[0] if len(rows) == 1 else list(map(min, *rows))
    return nearest


def _noise_step() -> int:
    """How far one draw moves ``Rng``'s state: SplitMix64 walks a fixed step per draw."""
    probe = Rng(0)
    probe.next_u64()
    return probe.state


NOISE_STEP = _noise_step()
# An action whose score is this far below the best cannot win, whatever the noise adds
# (the margin covers the rounding of ``score + noise``).
HOPELESS = NOISE + 1e-6


def _noise_generator(start: int, index: int) -> Rng:
    """The generator that started at ``start`` once it has made ``index`` draws."""
    return Rng.from_state(start + index * NOISE_STEP)


def lines_of_sight(board: list[int], square: int) -> bytearray:
    """Every square ``attacked(board, square, ...)`` may read (flags): a change anywhere
    else leaves its answer as it is."""
    seen = bytearray(SQUARES)
    for ray in RAYS[square]:
        for target in ray:
            seen[target] = 1
            if board[target] != 0:
                break
    for near in ORTHOGONAL_NEIGHBOURS[square]:
        seen[near] = 1
        if near == CENTRE or board[near] != 0:
            continue
        for ray in RAYS[near]:
            for target in ray:
                seen[target] = 1
                if board[target] != 0:
                    break
    return seen


@dataclass
class Knowledge:
    """What the player to move knows, all the bot reads: the same whether it comes from the
    seat's JSON view or straight from the state's fields (``test_djambi_bot_speed.py``)."""

    me: int
    board: list[int]  # the bot's own copy; every corpse is -1 (corpses look alike, D12)
    rel: list[int]  # MINE/ENEMY/WALL per piece code
    acting: int  # the square of the piece whose turn is under way, or -1
    in_hand: int  # the living piece a Diplomat holds (D6), else 0

    @classmethod
    def from_view(cls, view: JsonDict, me: int) -> Knowledge:
        hand = view["in_hand"]
        return cls(
            me,
            _board(view),
            _relations(view, me),
            SQUARE_INDEX[view["acting"]] if view["acting"] else -1,
            PIECE_BY_NAME.get(hand, 0) if hand else 0,
        )

    @classmethod
    def from_state(cls, state: DjambiState, me: int) -> Knowledge:
        return cls(
            me,
            [piece if piece >= 0 else -1 for piece in state.board],
            state.relations(me),
            state.actor,
            max(state.hand, 0),
        )


class DjambiHeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(random_seed() if seed is None else seed)

    def choose(self, seat: Seat) -> str:
        actions = seat.legal_actions()
        if len(actions) == 1:
            return actions[0]
        return self._choose(Turn(Knowledge.from_view(seat.view(), seat.player)), actions)

    def choose_in(self, state: State, player: int) -> str:
        """``choose(state.seat(player))`` read from the state's fields (search's worlds)."""
        actions = state.legal_list(player)
        if len(actions) == 1:
            return actions[0]
        assert isinstance(state, DjambiState)
        return self._choose(Turn(Knowledge.from_state(state, player)), actions)

    def ranked(self, seat: Seat) -> list[str]:
        """Every legal action, best first (for search bots that widen in this order)."""
        actions = seat.legal_actions()
        if len(actions) == 1:
            return actions
        return self._ranked(Turn(Knowledge.from_view(seat.view(), seat.player)), actions)

    def ranked_in(self, state: State, player: int) -> list[str]:
        """``ranked(state.seat(player))`` read from the state's fields."""
        actions = state.legal_list(player)
        if len(actions) == 1:
            return list(actions)
        assert isinstance(state, DjambiState)
        return self._ranked(Turn(Knowledge.from_state(state, player)), actions)

    def _choose(self, turn: Turn, actions: Sequence[str]) -> str:
        return actions[self._pick(_contenders(turn, actions), len(actions))]

    def _ranked(self, turn: Turn, actions: Sequence[str]) -> list[str]:
        """The choice first, then the others by score (a stable sort: ties keep the legal
        order)."""
        scores = turn.scores(actions)
        best = max(scores)
        contenders = {i: s for i, s in enumerate(scores) if s > best - HOPELESS}
        first = self._pick(contenders, len(actions))
        others = [i for i in range(len(actions)) if i != first]
        rest = sorted(others, key=scores.__getitem__, reverse=True)  # reverse keeps ties
        return [actions[first], *(actions[i] for i in rest)]

    def _pick(self, contenders: dict[int, float], count: int) -> int:
        """The action with the best score plus noise, the first of equals, as if each of the
        ``count`` actions had drawn its noise in turn: only the contenders' draws are made,
        and the generator ends where ``count`` draws leave it."""
        start = self.rng.state
        self.rng = Rng.from_state(start + count * NOISE_STEP)
        if len(contenders) == 1:  # alone within reach: the noise cannot change the choice
            return next(iter(contenders))
        best, best_score = -1, float("-inf")
        draws = self.rng  # a placeholder until the first jump
        drawn = -1  # the index of the next draw ``draws`` makes
        for index in sorted(contenders):
            if index != drawn:  # jump over the others' draws; neighbours draw in a row
                draws = _noise_generator(start, index)
            drawn = index + 1
            score = contenders[index] + NOISE * draws.random()
            if score > best_score:
                best, best_score = index, score
        return best


def _contenders(turn: Turn, actions: Sequence[str]) -> dict[int, float]:
    """The exact scores of the actions that may win once the noise is added.

    An action's bound is never below its score: actions are scored from the best bound
    down, until the bounds fall below the best score so far by the noise or more.
    """
    bounds, unsure = turn.bounds(actions)
    if not any(unsure):
        best = max(bounds)
        return {i: s for i, s in enumerate(bounds) if s > best - HOPELESS}
    best = float("-inf")
    scores: dict[int, float] = {}
    for index in sorted(range(len(actions)), key=bounds.__getitem__, reverse=True):
        bound = bounds[index]
        if bound <= best - HOPELESS:
            break
        score = bound
        if unsure[index]:
            score, exact = turn.refine(index, actions[index], bound)
            if not exact:
                if score <= best - HOPELESS:
                    continue
                score = turn.score(actions[index])
        scores[index] = score
        if score > best:
            best = score
    return {i: s for i, s in scores.items() if s > best - HOPELESS}


class Turn:
    """What the bot knows about the position while it weighs the actions of one step."""

    def __init__(self, knowledge: Knowledge) -> None:
        self.board = board = knowledge.board
        self.rel = rel = knowledge.rel
        self.acting = knowledge.acting
        self.in_hand = knowledge.in_hand
        me = knowledge.me
        self.chief = -1
        self.enemy_chiefs: list[int] = []
        # (square, code) of the Reporters of each side: [unused, MINE, ENEMY, WALL]
        self.reporters: list[list[tuple[int, int]]] = [[], [], [], []]
        for square, piece in enumerate(board):
            if piece <= 0:
                continue
            kind = KIND_OF[piece]
            if kind == CHIEF:
                if COLOUR_OF[piece] == me:
                    self.chief = square
                elif rel[piece] == ENEMY:
                    self.enemy_chiefs.append(square)
            elif kind == REPORTER:
                self.reporters[rel[piece]].append((square, piece))
        # The squares on a line with a Reporter of each side, as bit sets.
        self.reporter_lines = [0, 0, 0, 0]
        for side, reporters in enumerate(self.reporters):
            for reporter, _ in reporters:
                self.reporter_lines[side] |= ON_LINE_BITS[reporter]
        # How the pieces of each side strike, by piece code: [unused, MINE, ENEMY]
        self.strikers = [[], _strikers(rel, MINE), _strikers(rel, ENEMY)]
        self.chief_in_danger = self.chief >= 0 and self._struck(self.chief)
        self.threatened: dict[int, bool] = {}
        self._landings: dict[int, bool] = {}  # see _surely_struck_landing
        self._before_threat: list[float] = []  # see _move_bounds
        self._hunts: list[float] = []
        # The squares whose change may change whether the Chief can be struck.
        self.chief_sight = lines_of_sight(board, self.chief) if self.chief >= 0 else None
        self._nearest: Sequence[int] | None = None
        # Bit sets of the squares on a line with an enemy Chief: [any distance, Militant's]
        self._lines: list[int | None] = [None, None]

    def score(self, action: str) -> float:
        squares = MOVE_ACTION_SQUARES.get(action)
        if squares is not None:
            return self._move(*squares)
        return self._follow_up(action)

    def bounds(self, actions: Sequence[str]) -> tuple[list[float], list[bool]]:
        """For each action, at least its score and cheaper to tell, and whether it may be
        above the score (see ``_move_bounds``; a follow-up's is its score)."""
        if actions[0] not in MOVE_ACTION_SQUARES:  # a follow-up step: no moves among them
            return self._follow_ups(actions), [False] * len(actions)
        return self._move_bounds(actions)

    def scores(self, actions: Sequence[str]) -> list[float]:
        """``score`` of every action, each told the cheapest way its bound allows."""
        bounds, unsure = self.bounds(actions)
        out = []
        for index, action in enumerate(actions):
            score, exact = bounds[index], True
            if unsure[index]:
                score, exact = self.refine(index, action, score)
            out.append(score if exact else self.score(action))
        return out

    def refine(self, index: int, action: str, bound: float) -> tuple[float, bool]:
        """What the bound of move ``actions[index]`` (``bounds`` just made them) took for
        granted, looked at: the score and True when the landing is the only thing it may
        have got wrong; else a lower bound and False (the step exposes the Chief, or the
        killer does not see the enemy Chief it was counted as seeing)."""
        origin, target = MOVE_ACTION_SQUARES[action]
        board = self.board
        piece, other = board[origin], board[target]
        kind = KIND_OF[piece]
        kills = other > 0 and self.rel[other] == ENEMY
        # Struck where it lands: it loses its value instead of any bonus for leaving.
        struck_score = self._before_threat[index] - 0.6 * VALUE[kind] + self._hunts[index]
        surely_struck = self._surely_struck_landing(target)
        chief_unsure = self._chief_unsure(origin, target)
        may_see = (
            kind in (MILITANT, ASSASSIN)
            and not kills
            and bool(self.enemy_chiefs)
            and self._may_see_enemy_chief(target, kind)
        )
        if surely_struck and not chief_unsure and not may_see:
            return struck_score, True  # told without playing the step
        board[origin] = -1 if kind == ASSASSIN and kills else 0  # D4: the corpse stays
        board[target] = piece
        struck = surely_struck or self._struck_once_left(target, origin)
        exposed = chief_unsure and self._struck(self.chief)
        blind = may_see and not self._sees_enemy_chief(target, kind)
        board[origin] = piece
        board[target] = other
        refined = struck_score if struck else bound
        if exposed:
            refined -= EXPOSED_CHIEF  # the bound took the Chief for safe (or shielded)
        if blind:  # counted as seeing an enemy Chief, it only closes in
            nearest = self._nearest_enemy_chief()
            refined -= 12.0 - 0.5 * (nearest[origin] - nearest[target])
        return refined, not (exposed or blind)

    def _follow_ups(self, actions: Sequence[str]) -> list[float]:
        """The scores of a follow-up step's actions, all of one kind (the step asks for one
        thing): told apart once, not once per action."""
        first = actions[0]
        if first.startswith("corpse"):
            return [self._corpse(SQUARE_ACTIONS[action]) for action in actions]
        if first.startswith("place"):
            return [self._place(SQUARE_ACTIONS[action]) for action in actions]
        return [self._follow_up(action) for action in actions]

    def _follow_up(self, action: str) -> float:
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

    def _struck(self, square: int, side: int = ENEMY) -> bool:
        """``attacked(self.board, square, self.rel, side)``, faster: Reporters are looked
        for along the lines to them, not along every line. Valid while no piece of ``side``
        was put down since the turn began (a step only moves the bot's piece, kills, or
        leaves a corpse)."""
        return self._struck_in_line(square, side) or self._reporter_strikes(square, side)

    def _struck_in_line(self, square: int, side: int = ENEMY) -> bool:
        """Whether a Chief, an Assassin or a Militant in range of ``side`` strikes
        ``square`` along a clear line (whatever stands on it)."""
        board = self.board
        strikers = self.strikers[side]
        for ray in RAYS[square]:
            for target in ray:
                other = board[target]
                if other:
                    striker = strikers[other]
                    if striker == STRIKER or (
                        striker == SHORT_STRIKER
                        and square != CENTRE
                        and KING_DISTANCE[square][target] <= 2
                    ):
                        return True
                    break
        return False

    def _surely_struck_landing(self, square: int) -> bool:
        """Whether an enemy strikes ``square`` along a clear line as the turn began: then
        it strikes any piece landing there, whatever the step (emptying a square only
        opens lines; only the landing square fills). Cached per square."""
        known = self._landings.get(square)
        if known is None:
            known = self._landings[square] = self._struck_in_line(square)
        return known

    def _struck_once_left(self, square: int, vacated: int) -> bool:
        """``_struck(square)`` once the bot's piece left ``vacated`` for ``square``, when no
        enemy struck ``square`` along a clear line as the turn began
        (``_surely_struck_landing``): of those lines only the one through ``vacated``
        may have opened (the piece that left was the bot's, no striker of the enemy)."""
        ray = RAY_THROUGH[square][vacated]
        if ray is not None and not self.board[vacated]:
            board = self.board
            strikers = self.strikers[ENEMY]
            for target in ray:
                other = board[target]
                if other:
                    striker = strikers[other]
                    if striker == STRIKER or (
                        striker == SHORT_STRIKER
                        and square != CENTRE
                        and KING_DISTANCE[square][target] <= 2
                    ):
                        return True
                    break
        return self._reporter_strikes(square, ENEMY)

    def _reporter_strikes(self, square: int, side: int) -> bool:
        """Whether a Reporter of ``side`` can land next to ``square`` (D5)."""
        board = self.board
        # A Reporter landing next to the square: only on a line with one is it worth a look.
        nears = ORTHOGONAL_BITS[square] & self.reporter_lines[side]
        if not nears:
            return False
        for near in ORTHOGONAL_NEIGHBOURS[square]:
            if not nears >> near & 1 or near == CENTRE or board[near]:
                continue
            for reporter, code in self.reporters[side]:
                path = BETWEEN[reporter][near]
                if (
                    path is not None
                    and board[reporter] == code  # not killed by the step being judged
                    and not any(map(board.__getitem__, path))
                ):
                    return True
        return False

    def _chief_unsure(self, vacated: int, filled: int) -> bool:
        """Whether emptying ``vacated`` (of a piece of the bot's side) and filling ``filled``
        (with one) may change whether the bot's Chief can be struck. Emptying a square can
        only open lines and free landing squares, filling one only close them: so only an
        emptied square on its lines of sight may expose a safe Chief, and only a filled
        one may shield a Chief in danger."""
        sight = self.chief_sight
        if sight is None:
            return False
        return bool(sight[filled] if self.chief_in_danger else sight[vacated])

    def _chief_struck_after(self, vacated: int, filled: int) -> bool:
        """Whether the bot's Chief can be struck now that a step emptied ``vacated`` and
        filled ``filled``: looked at again only if that may change it."""
        if self._chief_unsure(vacated, filled):
            return self._struck(self.chief)
        return self.chief_in_danger

    def _best_victim(self, square: int) -> float:
        """The value of the best enemy a Reporter on ``square`` could kill (D5), or 0."""
        board, rel = self.board, self.rel
        best = 0.0
        for near in ORTHOGONAL_NEIGHBOURS[square]:
            piece = board[near]
            if piece > 0 and rel[piece] == ENEMY and VALUE[KIND_OF[piece]] > best:
                best = VALUE[KIND_OF[piece]]
        return best

    def _under_threat(self, square: int) -> bool:
        """Whether the piece on ``square`` could be killed next turn (cached per square)."""
        known = self.threatened.get(square)
        if known is None:
            known = self.threatened[square] = self._struck(square)
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
            score += 0.9 * self._best_victim(target)  # D5
        if kind == CHIEF:
            if self._struck(target):
                score -= EXPOSED_CHIEF
            elif target == CENTRE:
                score += CENTRE_BONUS  # D9: extra turns, and nobody can strike there now
        elif self._chief_struck_after(origin, target):
            score -= EXPOSED_CHIEF
        if kind != CHIEF:
            if self._struck(target):
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

    def _move_bounds(self, actions: Sequence[str]) -> tuple[list[float], list[bool]]:
        """At least each move's score (``_move``), without playing it, summed in the same
        order: what the step wins, a Reporter's best victim, the cost of leaving the Chief
        exposed when the step cannot change that, the bonus for a piece leaving a threat
        as if it landed out of reach, the hunt (an enemy Chief counted as seen whenever
        one stands on the killer's lines). Whether each may be above the score: all but
        the Chief's steps, which (few) are scored in full. What depends on the piece only
        is worked out once for all its steps (they come in a row)."""
        board = self.board
        rel = self.rel
        # Only a Chief in danger has a cost to count, where a step cannot shield it.
        shield = self.chief_sight if self.chief_in_danger else None
        count = len(actions)
        values = [0.0] * count
        unsure = [True] * count
        # The sum before the landing's term and the hunt's value, for ``refine``.
        before_threat = self._before_threat = [0.0] * count
        hunts = self._hunts = [0.0] * count
        last = -1
        in_full = hunter = False
        kind = lines = start = 0
        escape = 0.0
        nearest: Sequence[int] = ()
        for index, action in enumerate(actions):
            origin, target = MOVE_ACTION_SQUARES[action]
            if origin != last:
                last = origin
                kind = KIND_OF[board[origin]]
                in_full = kind == CHIEF
                if not in_full:  # the bonus for leaving a threat, as if out of reach
                    escape = 0.6 * VALUE[kind] if self._under_threat(origin) else 0.0
                hunter = kind in (MILITANT, ASSASSIN) and bool(self.enemy_chiefs)
                if hunter:
                    lines = self._chief_lines(kind)
                    nearest = self._nearest_enemy_chief()
                    start = nearest[origin]
            if in_full:
                values[index] = self._move(origin, target)
                unsure[index] = False
                continue
            other = board[target]
            bound = 0.0
            kills = False
            if other == 0:
                if kind == REPORTER:  # its victims are the same whether it left or not
                    bound += 0.9 * self._best_victim(target)
            elif other < 0:
                if kind == NECROMOBILE:
                    bound += 3.0 if target == CENTRE else 0.5
            elif rel[other] == ENEMY and kind != NECROMOBILE:
                kills = True
                victim = KIND_OF[other]
                if kind != DIPLOMAT:
                    bound += VALUE[victim]
                else:
                    bound += 0.5 * VALUE[victim] if victim != CHIEF else 40.0
            if shield is not None and not shield[target]:
                bound -= EXPOSED_CHIEF
            before_threat[index] = bound
            if escape:
                bound += escape
            if hunter and not kills:
                hunt = 12.0 if lines >> target & 1 else 0.5 * (start - nearest[target])
                hunts[index] = hunt
                bound += hunt
            values[index] = bound
        return values, unsure

    def _hunting(self, origin: int, target: int, kind: int) -> float:
        """Killers close in on enemy Chiefs, and threaten one when they can."""
        if not self.enemy_chiefs:
            return 0.0
        if self._may_see_enemy_chief(target, kind) and self._sees_enemy_chief(target, kind):
            return 12.0
        nearest = self._nearest_enemy_chief()
        return 0.5 * (nearest[origin] - nearest[target])

    def _sees_enemy_chief(self, square: int, kind: int) -> bool:
        """Whether a killer of ``kind`` on ``square`` could strike an enemy Chief next."""
        rays = MILITANT_RAYS[square] if kind == MILITANT else RAYS[square]
        board = self.board
        for ray in rays:
            for target in ray:
                other = board[target]
                if other == 0:
                    continue
                if (
                    other > 0
                    and KIND_OF[other] == CHIEF
                    and self.rel[other] == ENEMY
                    and (kind != MILITANT or target != CENTRE)
                ):
                    return True
                break
        return False

    def _may_see_enemy_chief(self, square: int, kind: int) -> bool:
        """Whether an enemy Chief stands on one of the lines a killer on ``square`` strikes
        along (within two steps for a Militant): only then may it threaten one."""
        return bool(self._chief_lines(kind) >> square & 1)

    def _chief_lines(self, kind: int) -> int:
        """The squares on a line with an enemy Chief, as a bit set: within a Militant's
        two steps for ``kind`` Militant, at any distance for an Assassin."""
        militant = kind == MILITANT
        lines = self._lines[militant]
        if lines is None:
            table = WITHIN_MILITANT_REACH_BITS if militant else ON_LINE_BITS
            lines = 0
            for chief in self.enemy_chiefs:
                lines |= table[chief]
            self._lines[militant] = lines
        return lines

    def _nearest_enemy_chief(self) -> Sequence[int]:
        """King steps from each square to the nearest enemy Chief (computed once a turn)."""
        nearest = self._nearest
        if nearest is None:
            nearest = self._nearest = _nearest_of(tuple(self.enemy_chiefs))
        return nearest

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
        if self.chief_in_danger and not self._chief_struck_after(square, square):
            score += 50.0
        board[square] = 0
        if square == CENTRE:
            score += 4.0  # a puppet on the centre: nobody else takes the power
        distances = KING_DISTANCE[square]
        for chief in self.enemy_chiefs:
            if distances[chief] == 1:
                score += 1.0  # helps wall an enemy Chief in (D10)
        if self.chief >= 0 and distances[self.chief] == 1:
            free = sum(1 for n in NEIGHBOURS[self.chief] if board[n] == 0)
            score += 1.0 if free > 3 else -3.0
        return score

    def _place(self, square: int) -> float:
        """D6: put an enemy Chief where the bot can kill it, the bot's own Chief on the
        centre if it is safe there, anything else away from the bot's Chief."""
        piece = self.in_hand
        kind = KIND_OF[piece]
        board = self.board
        board[square] = piece
        if self.rel[piece] == ENEMY:
            if kind == CHIEF:
                score = 100.0 if self._struck(square, MINE) else 0.0
                score -= 100.0 if square == CENTRE else 0.0
            else:
                score = 5.0 if self._struck(square, MINE) else 0.0
            score -= self._threat_to_chief(square)
        else:
            score = -self._threat_to_chief(square)
            if kind == CHIEF and square == CENTRE and score == 0.0:
                score += CENTRE_BONUS
        board[square] = 0
        if self.chief >= 0:
            score += 0.1 * KING_DISTANCE[square][self.chief]
        return score

    def _threat_to_chief(self, placed: int) -> float:
        """What the piece ``placed`` (on the board) costs the bot's Chief; any enemy piece
        on its lines of sight may strike it."""
        sight = self.chief_sight
        if sight is None:
            return 0.0
        if sight[placed]:
            exposed = attacked(self.board, self.chief, self.rel)
        else:
            exposed = self.chief_in_danger
        return EXPOSED_CHIEF if exposed else 0.0

    def _scandal(self) -> float:
        """D5 option: every living piece around dies, the bot's own included."""
        return sum(self._victim_value(self.board[n]) for n in NEIGHBOURS[self.acting])

    def _revive(self, target: int) -> float:
        """D12: any square will do, a safe one rather."""
        return -1.0 if self._struck(target) else 0.0
