"""Djambi rules as a pure state machine (rulings D1-D12 of shared/rules/RULINGS.md).

Players 0-3 play red, green, yellow and blue (D1), in that clockwise order. Turns belong to
colours (D8): a colour whose Chief is dead keeps its turn, played by its controller with
that colour's pieces (option ``inherited_turns=book``), or loses it (``skip``). A turn may
take several actions of the same player: a first step ``<from>-<to>``, then the follow-ups
its piece calls for (``corpse <sq>``, ``place <sq>``, ``kill <sq>``, ``scandal``, ``pass``,
a move out of the centre ``e5-<sq>``), then, with ``aggressivity``, ``revive <sq> <sq>``.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from machiavel.core.contract import JsonDict, Setup, State
from machiavel.core.errors import InvalidSetup
from machiavel.core.fields import CACHE, LIST, RNG, SETTING, SHARED, StateFields
from machiavel.core.rng import Rng
from machiavel.games.djambi.board import (
    ASSASSIN,
    BLOCK_RINGS,
    CENTRE,
    CHIEF,
    COLOUR_OF,
    COLOURS,
    CORPSE_ACTIONS,
    DIPLOMAT,
    KILL_ACTIONS,
    KIND_OF,
    MILITANT_RAYS,
    MOVE_ACTION_SQUARES,
    MOVE_ACTIONS,
    NECROMOBILE,
    NEIGHBOURS,
    ORTHOGONAL_NEIGHBOURS,
    PASS,
    PIECE_NAMES,
    PLACE_ACTIONS,
    RAYS,
    REPORTER,
    REVIVE_WORD,
    SCANDAL,
    SQUARE_ACTIONS,
    SQUARE_INDEX,
    SQUARE_NAMES,
    SQUARES,
    START_BLOCKS,
    piece_code,
    revive_action,
    start_board,
)
from machiavel.games.djambi.changes import death_list, placed_corpse
from machiavel.games.djambi.explain import explain
from machiavel.games.djambi.position import (
    EXTRA_TURN,
    VASSAL,
    parse_position,
    position_data,
)
from machiavel.games.djambi.words import describe, ending, events

if TYPE_CHECKING:
    from machiavel.core.contract import Game

# Steps of a turn: what the player to move must decide now.
MOVE, CORPSE, BURY, PLACE, KILL, EXIT, REVIVE = range(7)
STEP_NAMES = ("move", "corpse", "corpse", "place", "kill", "exit", "revive")

# How a living piece stands to the player acting (indexed by piece code).
MINE, ENEMY, WALL = 1, 2, 3  # WALL: a vassal nobody controls (D10), untouchable

PLAYERS = len(COLOURS)
# The players in the game by whether each controls their own colour (``players_in_game``).
_IN_GAME = {
    flags: tuple(p for p in range(PLAYERS) if flags[p])
    for flags in itertools.product((False, True), repeat=PLAYERS)
}
CHIEF_CODES = tuple(piece_code(colour, CHIEF) for colour in range(PLAYERS))
DEFAULT_QUIET_ROUNDS = 40  # D11
KILLS_PER_REVIVAL = 3  # D12
# What a live piece is worth to ``estimate``, by kind (chief, assassin, reporter, diplomat,
# necromobile, militant): a rough material count, with a living army worth 22.
MATERIAL = (4.0, 4.0, 3.0, 3.0, 4.0, 1.0, 0.0, 0.0)
CENTRE_MATERIAL = 5.0
# ``relations`` once per way the colours can stand (player, holder, controllers): search
# asks for them at every step.
_SPREAD_RELATIONS: dict[tuple[int, ...], list[int]] = {}


class DjambiState(State):
    """A game of Djambi. ``board`` is the flat 81-square list described in ``board.py``."""

    fields = StateFields(
        scandal_allowed=SETTING,  # D5
        quiet_rounds=SETTING,  # D11
        aggressivity=SETTING,  # D12
        colour_turns=SETTING,  # D8: inherited_turns
        board=LIST,
        controllers=LIST,
        current=SHARED,
        rotation=SHARED,
        extra=SHARED,
        phase=SHARED,
        hand=SHARED,
        actor=SHARED,
        kills=LIST,
        revivals_due=SHARED,
        quiet=SHARED,
        killed_this_turn=SHARED,
        turn_players=SHARED,
        over=SHARED,
        _winners=SHARED,
        end_reason=SHARED,
        rng=RNG,
        _to_move=CACHE,
    )

    def __init__(self, game: Game, setup: Setup, blank: bool = False) -> None:
        super().__init__(game, setup)
        if blank:
            return  # for ``_blank``: ``clone`` sets every field
        options = setup.options
        self.scandal_allowed = options.get("reporter", "single") == "scandal"  # D5
        self.quiet_rounds = int(options.get("quiet_rounds", DEFAULT_QUIET_ROUNDS))  # D11
        self.aggressivity = bool(options.get("aggressivity", False))  # D12
        # D8: turns belong to colours ("book"), or only to the players still in ("skip")
        self.colour_turns = options.get("inherited_turns", "book") == "book"
        self.rng = Rng(setup.seed)
        if setup.position is None:
            self.board = start_board()
            self.controllers = list(range(PLAYERS))
            first = self.rng.below(PLAYERS)  # D1: the first player is drawn at random
            turn_colour = first
        else:
            position = parse_position(setup.position)
            self.board = position.board
            self.controllers = position.controllers
            first = position.turn
            turn_colour = position.turn_colour
        self.current = first
        self.extra = turn_colour == EXTRA_TURN  # D9: whether the current turn is an extra turn
        # The colour whose regular turn is the latest (the current one, unless extra).
        self.rotation = first if self.extra else turn_colour
        self.phase = MOVE
        self.hand = 0  # the piece or corpse being placed (PLACE, CORPSE, BURY)
        self.actor = -1  # the square of the piece whose turn is under way
        self.kills = [0] * PLAYERS  # D12: enemy pieces each player has killed
        self.revivals_due = 0  # D12
        self.quiet = 0  # D11: regular turns in a row without a death
        self.killed_this_turn = False
        self.turn_players = self.players_in_game()
        self.over = False
        self._winners: tuple[int, ...] = ()
        self.end_reason: str | None = None
        self._to_move: tuple[int, ...] = (first,)
        if setup.position is not None:
            if not self.colour_turns and self.rotation != first:
                raise InvalidSetup(
                    "with inherited_turns=skip only the players' own colours take turns (D8): "
                    f"'turn_colour' must be {COLOURS[first]}, not {COLOURS[self.rotation]}"
                )
            enclosed = self._enclosed_chiefs()
            if enclosed:
                names = ", ".join(f"{COLOURS[p]} on {SQUARE_NAMES[s]}" for p, s in enclosed)
                raise InvalidSetup(
                    f"the position has a surrounded Chief ({names}): it would already be dead (D10)"
                )

    def _blank(self) -> DjambiState:
        return DjambiState(self.game, self.setup, blank=True)  # compiled: only through __init__

    # ---- who is who -------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        return self._to_move

    def in_game(self, player: int) -> bool:
        """A player is in the game while their Chief lives, i.e. while they control their
        own colour (D8, D10 hand it over when the Chief dies)."""
        return self.controllers[player] == player

    def players_in_game(self) -> tuple[int, ...]:
        a, b, c, d = self.controllers
        return _IN_GAME[a == 0, b == 1, c == 2, d == 3]  # every turn asks, twice

    def holder(self) -> int:
        """The player whose living Chief stands on the centre, or -1."""
        piece = self.board[CENTRE]
        if piece > 0 and KIND_OF[piece] == CHIEF:
            return COLOUR_OF[piece]
        return -1

    def colour_relations(self, player: int) -> list[int]:
        """MINE, ENEMY or WALL for each colour, as seen by ``player`` (D8, D10)."""
        holder = self.holder()
        out = []
        for master in self.controllers:
            if master == player:
                out.append(MINE)
            elif master != VASSAL:
                out.append(ENEMY)
            elif holder == player:
                out.append(MINE)  # D10: vassals obey the player holding the centre
            elif holder >= 0:
                out.append(ENEMY)
            else:
                out.append(WALL)  # D10: while nobody holds the centre, nobody touches them
        return out

    def relations(self, player: int) -> list[int]:
        """``colour_relations`` spread over piece codes (index a living piece's code); a
        list shared by every state where the colours stand alike: never to be changed."""
        key = (player, self.holder(), *self.controllers)
        spread = _SPREAD_RELATIONS.get(key)
        if spread is None:
            a, b, c, d = self.colour_relations(player)
            spread = _SPREAD_RELATIONS[key] = [0, *([a] * 8), *([b] * 8), *([c] * 8), *([d] * 8)]
        return spread

    # ---- whose turn -------------------------------------------------------------------
    def turn_colour(self) -> int:
        """D8: the colour whose turn it is; ``EXTRA_TURN`` in an extra turn (D9)."""
        return EXTRA_TURN if self.extra else self.rotation

    def moving_colour(self) -> int:
        """D8: the only colour whose pieces may make the first step now, or -1 when any
        piece of the mover's side may (an extra turn, D9; option ``skip``)."""
        return self.rotation if self.colour_turns and not self.extra else -1

    def turn_player(self, colour: int, holder: int) -> int:
        """D8, D10: the player who plays ``colour``'s turn, or -1 when it is skipped (no
        living piece, nobody controls it, or option ``skip`` for a colour whose Chief is dead)."""
        master = self.controllers[colour]
        if master == colour:
            return colour
        if not self.colour_turns:
            return -1
        if master == VASSAL:
            master = holder  # D10: vassals obey the holder of the centre, if anyone holds it
        if master < 0 or not self._has_living_piece(colour):
            return -1
        return master

    def _has_living_piece(self, colour: int) -> bool:
        return any(v > 0 and COLOUR_OF[v] == colour for v in self.board)

    def turns_per_round(self) -> int:
        """D11: how many regular turns a round has now, one per colour taking turns (D8)."""
        holder = self.holder()
        return sum(1 for colour in range(PLAYERS) if self.turn_player(colour, holder) >= 0)

    # ---- legal actions ----------------------------------------------------------------
    def _legal(self, player: int) -> list[str]:
        phase = self.phase
        if phase == MOVE:
            return self._first_steps(player) or [PASS]
        if phase == EXIT:
            return self._exits(player)
        if phase == CORPSE:
            # D3: a Chief's corpse may go on the empty centre ("puppet power").
            centre_ok = KIND_OF[-self.hand] == CHIEF and self.board[CENTRE] == 0
            return self._placements(CORPSE_ACTIONS, centre_ok, False)
        if phase == BURY:
            # D7: never on the centre
            return self._placements(CORPSE_ACTIONS, False, self.actor == CENTRE)
        if phase == PLACE:
            # D6: only a Chief may be relocated onto the centre.
            centre_ok = KIND_OF[self.hand] == CHIEF and self.board[CENTRE] == 0
            return self._placements(PLACE_ACTIONS, centre_ok, self.actor == CENTRE)
        if phase == KILL:
            return self._reporter_choices(player)
        return self._revivals(player)

    def _first_steps(self, player: int) -> list[str]:
        """D2-D7: every first step ``<from>-<to>`` of the pieces ``player`` may move now
        (D8: only the turn colour's, in a regular turn with option ``book``)."""
        board = self.board
        rel = self.relations(player)
        only = self.moving_colour()
        out: list[str] = []
        finders = (
            self._chief_steps,
            self._assassin_steps,
            self._reporter_steps,
            self._diplomat_steps,
            self._necromobile_steps,
            self._militant_steps,
        )
        for square, piece in enumerate(board):
            if piece > 0 and rel[piece] == MINE and (only < 0 or COLOUR_OF[piece] == only):
                finders[KIND_OF[piece]](square, piece, rel, out)
        return out

    def _chief_steps(self, square: int, piece: int, rel: list[int], out: list[str]) -> None:
        board, moves, add = self.board, MOVE_ACTIONS[square], out.append
        for ray in RAYS[square]:
            for target in ray:
                other = board[target]
                if other == 0:
                    add(moves[target])  # D2: a Chief may stop on the centre
                    continue
                if other > 0 and rel[other] == ENEMY:
                    add(moves[target])  # D3
                break

    def _militant_steps(self, square: int, piece: int, rel: list[int], out: list[str]) -> None:
        board, moves, add = self.board, MOVE_ACTIONS[square], out.append
        for ray in MILITANT_RAYS[square]:
            for target in ray:
                other = board[target]
                if target == CENTRE:
                    if other == 0:
                        continue  # D2: crosses the empty centre, never stops on it
                    break  # D3: never kills the Chief holding the centre
                if other == 0:
                    add(moves[target])
                    continue
                if other > 0 and rel[other] == ENEMY:
                    add(moves[target])
                break

    def _assassin_steps(self, square: int, piece: int, rel: list[int], out: list[str]) -> None:
        board, moves, add = self.board, MOVE_ACTIONS[square], out.append
        for ray in RAYS[square]:
            for target in ray:
                other = board[target]
                if other == 0:
                    if target != CENTRE:
                        add(moves[target])
                    continue
                if (
                    other > 0
                    and rel[other] == ENEMY
                    and (target != CENTRE or self._assassin_can_leave(square, rel))
                ):
                    add(moves[target])  # D4
                break

    def _reporter_steps(self, square: int, piece: int, rel: list[int], out: list[str]) -> None:
        board, moves, add = self.board, MOVE_ACTIONS[square], out.append
        for ray in RAYS[square]:
            for target in ray:
                if board[target] != 0:
                    break
                if target != CENTRE:
                    add(moves[target])  # D5: empty squares only

    def _diplomat_steps(self, square: int, piece: int, rel: list[int], out: list[str]) -> None:
        board, moves, add = self.board, MOVE_ACTIONS[square], out.append
        colour = COLOUR_OF[piece]
        for ray in RAYS[square]:
            for target in ray:
                other = board[target]
                if other == 0:
                    if target != CENTRE:
                        add(moves[target])
                    continue
                # D6: any living piece not of its own colour. On the centre it can always
                # leave afterwards: the square next to the centre on its way in is empty.
                if other > 0 and rel[other] != WALL and COLOUR_OF[other] != colour:
                    add(moves[target])
                break

    def _necromobile_steps(self, square: int, piece: int, rel: list[int], out: list[str]) -> None:
        board, moves, add = self.board, MOVE_ACTIONS[square], out.append
        for ray in RAYS[square]:
            for target in ray:
                other = board[target]
                if other == 0:
                    if target != CENTRE:
                        add(moves[target])
                    continue
                if other < 0:
                    add(moves[target])  # D7: onto a corpse (on the centre: as for D6)
                break

    def _assassin_can_leave(self, origin: int, rel: list[int]) -> bool:
        """D4: after killing the Chief on the centre from ``origin`` (whose square then
        holds the corpse), can the Assassin leave by a plain move or by killing a Chief?"""
        board = self.board
        for ray in RAYS[CENTRE]:
            first = ray[0]
            if first == origin:
                continue
            other = board[first]
            if other == 0:
                return True
            if other > 0 and KIND_OF[other] == CHIEF and rel[other] == ENEMY:
                return True
        return False

    def _exits(self, player: int) -> list[str]:
        """D4, D6, D7: the moves out of the centre of the piece that had to enter it."""
        board = self.board
        killer = KIND_OF[board[CENTRE]] == ASSASSIN
        moves = MOVE_ACTIONS[CENTRE]
        out = []
        for ray in RAYS[CENTRE]:
            for target in ray:
                other = board[target]
                if other == 0:
                    out.append(moves[target])
                    continue
                if killer and other > 0 and KIND_OF[other] == CHIEF and COLOUR_OF[other] != player:
                    out.append(moves[target])  # D4: kills another Chief on the way out
                break
        return out

    def _placements(self, words: tuple[str, ...], centre_ok: bool, leaving: bool) -> list[str]:
        """Empty squares where the piece in hand may go; a piece that must then leave the
        centre keeps a way out (its last free neighbour is not offered)."""
        board = self.board
        keep = -1
        if leaving:
            free = [n for n in NEIGHBOURS[CENTRE] if board[n] == 0]
            if len(free) == 1:
                keep = free[0]
        return [
            words[s]
            for s in range(SQUARES)
            if board[s] == 0 and s != keep and (s != CENTRE or centre_ok)
        ]

    def _reporter_targets(self, player: int) -> list[int]:
        """D5: living enemy pieces orthogonally next to the Reporter that just moved."""
        board = self.board
        rel = self.relations(player)
        return [
            n for n in ORTHOGONAL_NEIGHBOURS[self.actor] if board[n] > 0 and rel[board[n]] == ENEMY
        ]

    def _scandal_victims(self) -> list[int]:
        """D5 ``scandal`` (amended): every living piece around the Reporter, vassals nobody
        controls included."""
        board = self.board
        return [n for n in NEIGHBOURS[self.actor] if board[n] > 0]

    def _reporter_choices(self, player: int) -> list[str]:
        targets = self._reporter_targets(player)
        out = [KILL_ACTIONS[n] for n in targets]
        if self.scandal_allowed and self._scandal_victims():
            out.append(SCANDAL)
        if not targets:
            out.append(PASS)
        return out

    def _revival_squares(self, player: int) -> list[int]:
        """D12: empty squares of the player's starting block, else around it."""
        board = self.board
        inside = [s for s in START_BLOCKS[player] if board[s] == 0]
        return inside or [s for s in BLOCK_RINGS[player] if board[s] == 0]

    def _own_corpses(self, player: int) -> list[int]:
        """D12: squares of the corpses of the player's own (non-Chief) pieces."""
        return [
            s
            for s, v in enumerate(self.board)
            if v < 0 and COLOUR_OF[-v] == player and KIND_OF[-v] != CHIEF
        ]

    def _revivals(self, player: int) -> list[str]:
        targets = self._revival_squares(player)
        return [revive_action(c, t) for c in self._own_corpses(player) for t in targets]

    # ---- playing ----------------------------------------------------------------------
    def normalize_action(self, action: str) -> str:
        if action in KNOWN_ACTIONS:
            return action
        text = " ".join(action.lower().split())
        words = text.replace("-", " ").replace("x", " ").split()
        if len(words) == 2 and all(w in SQUARE_INDEX for w in words):
            return f"{words[0]}-{words[1]}"
        if len(text) == 4 and text[:2] in SQUARE_INDEX and text[2:] in SQUARE_INDEX:
            return f"{text[:2]}-{text[2:]}"
        return text

    def _play(self, player: int, action: str) -> None:
        phase = self.phase
        if phase == MOVE:
            if action == PASS:
                self._finish_turn()
            else:
                origin, target = MOVE_ACTION_SQUARES[action]
                self._first_step(player, origin, target)
        elif phase == EXIT:
            self._leave_centre(player, MOVE_ACTION_SQUARES[action][1])
        elif phase == KILL:
            self._reporter_kills(player, action)
        elif phase == REVIVE:
            self._revive(player, action)
        else:  # CORPSE, BURY, PLACE: the piece in hand goes down
            self.board[SQUARE_ACTIONS[action]] = self.hand
            self.hand = 0
            if phase != CORPSE and self.actor == CENTRE:
                self.phase = EXIT  # D6, D7: then leave the centre at once
            else:
                self._finish_turn()

    def _first_step(self, player: int, origin: int, target: int) -> None:
        board = self.board
        piece, other = board[origin], board[target]
        kind = KIND_OF[piece]
        board[origin] = 0
        board[target] = piece
        self.actor = target
        if other == 0:
            if kind == REPORTER:
                self._reporter_moved(player)
            else:
                self._finish_turn()
        elif other < 0:  # D7: the Necromobile takes up the corpse
            self.hand = other
            self.phase = BURY
        elif kind == DIPLOMAT:  # D6: the Diplomat takes up the living piece
            self.hand = other
            self.phase = PLACE
        else:
            self._kill(player, other)
            if kind == ASSASSIN:  # D4: the corpse lies where the Assassin came from
                board[origin] = -other
                if target == CENTRE:
                    self.phase = EXIT
                else:
                    self._finish_turn()
            else:  # D3: Chief and Militant place the corpse
                self.hand = -other
                self.phase = CORPSE

    def _leave_centre(self, player: int, target: int) -> None:
        board = self.board
        piece, other = board[CENTRE], board[target]
        if other > 0:  # D4: the Assassin kills another Chief, whose corpse takes the centre
            self._kill(player, other)
            board[CENTRE] = -other
        else:
            board[CENTRE] = 0
        board[target] = piece
        self._finish_turn()

    def _reporter_moved(self, player: int) -> None:
        """D5: after its own move the Reporter kills an orthogonal enemy neighbour; the
        choice is asked only when there is one (several targets, or a scandal)."""
        targets = self._reporter_targets(player)
        if self.scandal_allowed and self._scandal_victims():
            self.phase = KILL
            return
        if len(targets) > 1:
            self.phase = KILL
            return
        if targets:
            self._kill_in_place(player, targets[0])
        self._finish_turn()

    def _reporter_kills(self, player: int, action: str) -> None:
        if action == SCANDAL:
            rel = self.relations(player)  # sides as they stand before anyone dies
            board = self.board
            for square in self._scandal_victims():
                # D12: a kill counts unless the victim was of the killer's side (an
                # uncontrolled vassal counts, D5 amended)
                self._kill_in_place(player, square, rel[board[square]] != MINE)
        elif action != PASS:
            self._kill_in_place(player, SQUARE_ACTIONS[action])
        self._finish_turn()

    def _kill_in_place(self, player: int, square: int, enemy: bool = True) -> None:
        """D5: the corpse stays where the piece died (the centre included)."""
        piece = self.board[square]
        self._kill(player, piece, enemy)
        self.board[square] = -piece

    def _kill(self, player: int, piece: int, enemy: bool = True) -> None:
        """Book-keeping of a kill by ``player`` (the caller puts the corpse down);
        ``enemy``: the victim was not of the killer's side (D12 counts only those)."""
        self.killed_this_turn = True
        colour = COLOUR_OF[piece]
        if enemy:
            self.kills[player] += 1
            if self.aggressivity and self.kills[player] % KILLS_PER_REVIVAL == 0:
                self.revivals_due += 1  # D12
        if KIND_OF[piece] == CHIEF:
            self._chief_killed(colour, player)

    def _chief_killed(self, victim: int, killer: int) -> None:
        """D8: the killer takes over every colour the victim controlled, for good. A Chief
        killed by its own side (a scandal) or by a player already out leaves vassals."""
        heir = killer if killer != victim and self.in_game(killer) else VASSAL
        for colour, master in enumerate(self.controllers):
            if master == victim:
                self.controllers[colour] = heir

    def _revive(self, player: int, action: str) -> None:
        """D12: one of the player's own dead pieces stands up again."""
        _, corpse, target = action.split()
        board = self.board
        board[SQUARE_INDEX[target]] = -board[SQUARE_INDEX[corpse]]
        board[SQUARE_INDEX[corpse]] = 0
        self.revivals_due -= 1
        self._bury_enclosed_chiefs()
        if self.killed_this_turn:
            self.quiet = 0
        if self._game_decided():
            return
        if self.revivals_due > 0 and self._revivals(player):
            return
        self.phase = MOVE
        self._next_turn()

    # ---- end of a turn ----------------------------------------------------------------
    def _finish_turn(self) -> None:
        self.phase = MOVE
        self.hand = 0
        self.actor = -1
        self._bury_enclosed_chiefs()
        if self.killed_this_turn:
            self.quiet = 0
        elif not self.extra:
            self.quiet += 1  # D11: counted in regular turns
        if self._game_decided():
            return
        player = self.current
        if self.revivals_due > 0 and self.in_game(player) and self._revivals(player):
            self.phase = REVIVE  # D12: after the turn
            return
        self._next_turn()

    def _enclosed_chiefs(self) -> list[tuple[int, int]]:
        """D10: (player, square) of every surrounded Chief."""
        board = self.board
        chiefs = [-1] * PLAYERS
        walled = False  # whether some Chief has no empty square next to it
        for colour in range(PLAYERS):
            try:
                square = chiefs[colour] = board.index(CHIEF_CODES[colour])
            except ValueError:  # dead
                continue
            if not walled and 0 not in map(board.__getitem__, NEIGHBOURS[square]):
                walled = True
        # Most turns every Chief has an empty square next to it: nothing more to look at.
        if not walled:
            return []
        necromobile = [False] * PLAYERS
        for piece in board:
            if piece > 0 and KIND_OF[piece] == NECROMOBILE:
                master = self.controllers[COLOUR_OF[piece]]
                if master != VASSAL:
                    necromobile[master] = True
        return [
            (player, square)
            for player, square in enumerate(chiefs)
            if square >= 0
            and square != CENTRE
            and not necromobile[player]
            and self._is_enclosed(player, square)
        ]

    def _is_enclosed(self, player: int, start: int) -> bool:
        """D10 (amended): the group reached from the Chief by king steps through its side's
        living pieces touches no empty square and no enemy piece; corpses, the board's
        edges and vassals nobody may touch wall it in."""
        board = self.board
        rel = self.relations(player)
        seen = {start}
        stack = [start]
        while stack:
            for n in NEIGHBOURS[stack.pop()]:
                if n in seen:
                    continue
                seen.add(n)
                other = board[n]
                if other == 0:
                    return False
                if other < 0:
                    continue  # a corpse: a wall
                relation = rel[other]
                if relation == ENEMY:
                    return False
                if relation == MINE:
                    stack.append(n)
        return True

    def _bury_enclosed_chiefs(self) -> None:
        """D10: a surrounded Chief dies where it stands; its side become vassals."""
        while True:
            enclosed = self._enclosed_chiefs()
            if not enclosed:
                return
            for player, square in enclosed:
                self.board[square] = -self.board[square]
                self.killed_this_turn = True
                for colour, master in enumerate(self.controllers):
                    if master == player:
                        self.controllers[colour] = VASSAL

    def _game_decided(self) -> bool:
        """D11: the last player with a living Chief wins."""
        remaining = self.players_in_game()
        if len(remaining) > 1:
            return False
        if remaining:
            self._end(remaining, "last Chief standing")
        else:  # every Chief died in the same turn: those who were in it share a draw
            self._end(self.turn_players, "no Chief left")
        return True

    def _next_turn(self) -> None:
        remaining = self.players_in_game()
        holder = self.holder()
        if self._quiet_rounds_over(remaining):  # D11
            if holder >= 0:
                self._end((holder,), "quiet rounds, centre held")
            else:
                self._end(remaining, "quiet rounds, shared draw")
            return
        if not self.extra and 0 <= holder != self.current and len(remaining) >= 3:
            # D9: an extra turn after every turn of a colour the holder does not play
            self.current = holder
            self.extra = True
        else:
            self.rotation, self.current = self._next_regular_turn(holder)
            self.extra = False
        self.killed_this_turn = False
        self.revivals_due = 0  # D12: a revival not taken right after the turn is lost
        self.turn_players = remaining
        self._to_move = (self.current,)

    def _quiet_rounds_over(self, remaining: tuple[int, ...]) -> bool:
        """D11: ``quiet_rounds`` rounds of regular turns without a death. A round has at
        least one turn per player still in: that cheap bound is checked first."""
        limit = self.quiet_rounds
        return self.quiet >= limit * len(remaining) and self.quiet >= limit * self.turns_per_round()

    def _next_regular_turn(self, holder: int) -> tuple[int, int]:
        """D8: the next colour clockwise that takes a turn, and the player who plays it."""
        colour = self.rotation
        for _ in range(PLAYERS):
            colour = (colour + 1) % PLAYERS
            player = self.turn_player(colour, holder)
            if player >= 0:
                return colour, player
        raise AssertionError("no colour takes a turn, yet two players are in the game")

    def _end(self, winners: tuple[int, ...], reason: str) -> None:
        self.over = True
        self._to_move = ()
        self._winners = tuple(sorted(winners))
        self.end_reason = reason
        self.phase = MOVE
        self.revivals_due = 0

    # ---- results ----------------------------------------------------------------------
    @property
    def scores(self) -> list[float]:
        """1 shared equally among the winners (1 for a sole winner), 0 for the others."""
        if not self._winners:
            return [0.0] * self.players
        share = 1.0 / len(self._winners)
        return [share if p in self._winners else 0.0 for p in range(self.players)]

    def estimate(self) -> list[float]:
        """Before the end: the material each player commands, the centre counting extra.

        For search bots that cut play-outs short (``docs/bots.md``); a player out of the
        game stands at 0, and the live pieces of a colour count for whoever controls it.
        """
        if self.over:
            return self.scores
        standing = [0.0] * PLAYERS
        for piece in self.board:
            if piece > 0:
                master = self.controllers[COLOUR_OF[piece]]
                if master >= 0 and self.in_game(master):
                    standing[master] += MATERIAL[KIND_OF[piece]]
        holder = self.holder()
        if holder >= 0:
            standing[holder] += CENTRE_MATERIAL
        return [value if self.in_game(p) else 0.0 for p, value in enumerate(standing)]

    @property
    def winners(self) -> tuple[int, ...]:
        return self._winners

    # ---- views ------------------------------------------------------------------------
    def _view(self, player: int | None) -> JsonDict:
        """Djambi has no hidden information: every viewer sees the same thing, except
        whose each corpse is (D12: corpses look alike), and their own colour."""
        # The viewer's own colour where views have always had it, after the colours.
        view: JsonDict = {}
        for key, value in self._public_view().items():
            view[key] = value
            if key == "colours":
                view.update(self._private_view(player))
        return view

    def _private_view(self, player: int | None) -> JsonDict:
        return {"you": None if player is None else COLOURS[player]}

    def _public_view(self) -> JsonDict:
        view = position_data(self.board, self.controllers, None if self.over else self.current)
        holder = self.holder()
        remaining = self.players_in_game()
        hand = self.hand
        view.update(
            {
                "turn_colour": self._turn_colour_name(),
                "colours": list(COLOURS),
                "centre": COLOURS[holder] if holder >= 0 else None,
                "in_game": [COLOURS[p] for p in remaining],
                "step": None if self.over else STEP_NAMES[self.phase],
                "acting": SQUARE_NAMES[self.actor] if self.actor >= 0 else None,
                "in_hand": None if hand == 0 else "corpse" if hand < 0 else PIECE_NAMES[hand],
                "extra_turn": self.extra,
                "quiet_turns": self.quiet,
                "quiet_turn_limit": self.quiet_rounds * self.turns_per_round(),
                "kills": {COLOURS[p]: self.kills[p] for p in range(PLAYERS)},
                "revivals_due": self.revivals_due,
                "reporter": "scandal" if self.scandal_allowed else "single",
                "inherited_turns": "book" if self.colour_turns else "skip",
                "aggressivity": self.aggressivity,
                "end": self.end_reason,
            }
        )
        return view

    def _turn_colour_name(self) -> str | None:
        """D8: the colour whose turn it is; None in an extra turn (D9) and once over."""
        colour = self.turn_colour()
        return None if self.over or colour == EXTRA_TURN else COLOURS[colour]

    def position(self) -> JsonDict:
        """The board as a position ``from_position`` accepts (meaningful between turns)."""
        return position_data(self.board, self.controllers, self.current, self.turn_colour())

    # ---- explanations -----------------------------------------------------------------
    def explain_illegal(self, player: int, action: str) -> str:
        return explain(self, player, action)

    def _describe(self, player: int, action: str, viewer: int | None, language: str) -> str:
        return describe(self, player, action, language)

    def _events(
        self, before: State, player: int, action: str, viewer: int | None, language: str
    ) -> list[str]:
        """Deaths, eliminations, vassals, the centre, revivals, quiet rounds (words.py):
        Djambi hides nothing an event tells, so every viewer reads the same."""
        assert isinstance(before, DjambiState)
        return events(before, self, player, action, language)

    def _marks(self, before: State, player: int, action: str) -> JsonDict:
        """``path``: the squares a piece went from and to (a move, a piece a Diplomat put
        down, a revival from its corpse to where it stands up); ``corpse``: where the action
        put a corpse down; ``killed``: where pieces died, automatic kills included (D5, D10)."""
        assert isinstance(before, DjambiState)
        marks: JsonDict = {}
        path = _path(before, action)
        if path is not None:
            marks["path"] = [SQUARE_NAMES[path[0]], SQUARE_NAMES[path[1]]]
        killed = sorted({square for square, _ in death_list(before, self)})
        corpse = placed_corpse(before, self, set(killed))
        if corpse >= 0:
            marks["corpse"] = SQUARE_NAMES[corpse]
        if killed:
            marks["killed"] = [SQUARE_NAMES[s] for s in killed]
        return marks

    def _ending(self, language: str) -> str:
        return ending(self, language)


def _path(before: DjambiState, action: str) -> tuple[int, int] | None:
    """The squares a piece went from and to in ``action``, if one moved."""
    squares = MOVE_ACTION_SQUARES.get(action)
    if squares is not None:
        return squares
    if action.startswith("place "):
        return before.actor, SQUARE_ACTIONS[action]  # D6: from the Diplomat's square
    words = action.split()
    if len(words) == 3 and words[0] == REVIVE_WORD:
        return SQUARE_INDEX[words[1]], SQUARE_INDEX[words[2]]  # D12
    return None


KNOWN_ACTIONS = frozenset([*MOVE_ACTION_SQUARES, *SQUARE_ACTIONS, SCANDAL, PASS])
