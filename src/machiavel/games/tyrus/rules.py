"""Tyrus rules as a pure state machine (rulings T1-T9 of shared/rules/RULINGS.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any

from machiavel.core.contract import JsonDict, Setup, State
from machiavel.core.fields import CACHE, LIST, RNG, ROWS, SETTING, SHARED, StateFields, through_init
from machiavel.core.rng import Rng
from machiavel.games.tyrus import tally_words
from machiavel.games.tyrus.words import describe

if TYPE_CHECKING:
    from machiavel.core.contract import Game

PROFESSIONS = ("S", "M", "P")  # soldiers, merchants, priests (T1)
PROFESSION_NAMES = {"S": "soldiers", "M": "merchants", "P": "priests"}
KINDS = ("citadel", "market", "temple")  # T1: each player's three buildings
KIND_INDEX = {kind: index for index, kind in enumerate(KINDS)}
ELECTED = {"citadel": "S", "market": "M", "temple": "P"}
# T5: merchant blocks soldier, soldier blocks priest, priest blocks merchant.
BLOCKED_BY = {"S": "M", "P": "S", "M": "P"}
TILES = tuple(f"{p}{v}" for p in PROFESSIONS for v in range(1, 11))  # T1: 30 per player
TILE_ORDER = {tile: index for index, tile in enumerate(TILES)}
BUILDINGS = ("citadel", "market", "temple", "rival-citadel", "rival-market", "rival-temple")
OPENING_HAND = 9  # T2
TILES_PER_ELECTION = 3  # T4: each player places 3 tiles an election
ELECTIONS = 9  # T3
# Every action a tile can take part in, built once: legal_actions is on the hot path.
ACTIONS_OF_TILE = {tile: tuple(f"{tile} {b}" for b in BUILDINGS) for tile in TILES}
# action -> (tile, 0 for the mover's own building or 1 for the rival's, kind index)
ALL_ACTIONS = {
    f"{tile} {building}": (tile, int(building.startswith("rival-")), index % 3)
    for tile in TILES
    for index, building in enumerate(BUILDINGS)
}
DECK = tuple(kind for kind in KINDS for _ in range(3))  # T3: 3 cards of each kind
MOVER = ((0,), (1,))
# Building index -> (owner, kind): buildings 0-2 are player 0's citadel, market, temple.
BUILDING_HEADS = tuple((index // 3, KINDS[index % 3]) for index in range(6))
STREAK_TO_WIN = 3  # T8
WINS_TO_WIN = 5  # T8


VALUE = {tile: int(tile[1:]) for tile in TILES}
_chain = chain.from_iterable


def tile_value(tile: str) -> int:
    return VALUE[tile]


def tile_profession(tile: str) -> str:
    return tile[0]


def building_index(owner: int, kind: str) -> int:
    """Buildings are numbered 0-5: player 0's citadel, market, temple, then player 1's."""
    return owner * 3 + KIND_INDEX[kind]


def building_owner_kind(index: int) -> tuple[int, str]:
    return index // 3, KINDS[index % 3]


def target_building(mover: int, building: str) -> int:
    """The absolute building a mover means by ``citadel`` or ``rival-citadel``."""
    if building.startswith("rival-"):
        return building_index(1 - mover, building.removeprefix("rival-"))
    return building_index(mover, building)


def sort_tiles(tiles: list[str]) -> list[str]:
    return sorted(tiles, key=TILE_ORDER.__getitem__)


@dataclass(frozen=True)
class Count:
    """T5's count in ``owner``'s building of ``kind``: the values of the tiles that vote,
    block and counter there, and the tiles that have no effect (placer, tile)."""

    owner: int
    kind: str
    votes: tuple[int, ...]
    blocks: tuple[int, ...]
    counters: tuple[int, ...]
    idle: tuple[tuple[int, str], ...]

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return through_init(self)  # compiled and frozen: made through __init__ only

    @property
    def elected(self) -> str:
        return ELECTED[self.kind]

    @property
    def blocker(self) -> str:
        return BLOCKED_BY[self.elected]

    @property
    def counter(self) -> str:
        return BLOCKED_BY[self.blocker]

    @property
    def blocked(self) -> int:
        """How many votes the blocks take away once countered (never below zero)."""
        return max(0, sum(self.blocks) - sum(self.counters))

    @property
    def score(self) -> int:
        return max(0, sum(self.votes) - self.blocked)


def count_building(owner: int, kind: str, placed: list[tuple[int, str]]) -> Count:
    """T5: the count in ``owner``'s own building of ``kind``, holding ``placed`` tiles.

    votes = own tiles of the elected profession; blocks = opponent's tiles of the blocking
    profession; counters = own tiles of the profession that blocks the blocker. Values are
    listed highest first, as the rule book adds them ("10 + 8").
    """
    elected = ELECTED[kind]
    blocker = BLOCKED_BY[elected]
    counter = BLOCKED_BY[blocker]
    votes: list[int] = []
    blocks: list[int] = []
    counters: list[int] = []
    idle: list[tuple[int, str]] = []
    for placer, tile in placed:
        profession, value = tile[0], VALUE[tile]
        if placer == owner and profession == elected:
            votes.append(value)
        elif placer == owner and profession == counter:
            counters.append(value)
        elif placer != owner and profession == blocker:
            blocks.append(value)
        else:
            idle.append((placer, tile))
    return Count(
        owner,
        kind,
        tuple(sorted(votes, reverse=True)),
        tuple(sorted(blocks, reverse=True)),
        tuple(sorted(counters, reverse=True)),
        tuple(idle),
    )


def election_score(player: int, kind: str, placed: list[tuple[int, str]]) -> int:
    """T5: ``player``'s score in their own building of ``kind``, holding ``placed`` tiles:
    ``count_building``'s score, added up directly (every tally needs it, few read the
    count's details)."""
    elected = ELECTED[kind]
    blocker = BLOCKED_BY[elected]
    counter = BLOCKED_BY[blocker]
    votes = blocks = counters = 0
    for placer, tile in placed:
        profession = tile[0]
        if placer == player:
            if profession == elected:
                votes += VALUE[tile]
            elif profession == counter:
                counters += VALUE[tile]
        elif profession == blocker:
            blocks += VALUE[tile]
    return max(0, votes - max(0, blocks - counters))


@dataclass(frozen=True)
class Decision:
    """Who won a finished game and which clause of T8 decided it: ``streak`` (three in a
    row), ``five`` (five wins), ``more`` (more wins after nine), ``hands`` (equal wins,
    higher hand total) or ``draw`` (equal wins and equal hand totals)."""

    winners: tuple[int, ...]
    reason: str

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return through_init(self)  # compiled and frozen: made through __init__ only


def decide(results: list[int | None], hands: list[list[str]]) -> Decision | None:
    """T8: the decision ``results`` (election winners, None = null) make, else None.

    Three wins in a row (no null between) or five wins end the game at once; after nine
    elections, more wins; then the higher total of the tiles left in hand; then a draw.
    """
    tail = results[-STREAK_TO_WIN:]
    if len(tail) == STREAK_TO_WIN and tail[0] is not None and tail.count(tail[0]) == len(tail):
        return Decision((tail[0],), "streak")
    wins = [results.count(0), results.count(1)]
    for player in (0, 1):
        if wins[player] >= WINS_TO_WIN:
            return Decision((player,), "five")
    if len(results) < ELECTIONS:
        return None
    if wins[0] != wins[1]:
        return Decision((0,) if wins[0] > wins[1] else (1,), "more")
    totals = hand_totals(hands)
    if totals[0] != totals[1]:
        return Decision((0,) if totals[0] > totals[1] else (1,), "hands")
    return Decision((0, 1), "draw")


def decide_winners(results: list[int | None], hands: list[list[str]]) -> tuple[int, ...] | None:
    """T8: the winners once decided by ``results``, else None (see ``decide``)."""
    decision = decide(results, hands)
    return decision.winners if decision is not None else None


def hand_totals(hands: list[list[str]]) -> list[int]:
    """T8's tie-break: the total value of each player's tiles in hand."""
    return [sum(tile_value(t) for t in hand) for hand in hands]


@dataclass
class ParsedAction:
    tile: str
    building: str


def parse_action(action: str) -> ParsedAction | str:
    """The tile and building of an action, or a message saying what is malformed."""
    parts = action.split()
    if len(parts) != 2:
        return (
            f"{action!r} is not an action: write a tile and a building, "
            "for example 'M8 rival-citadel'"
        )
    tile, building = parts
    if tile not in TILE_ORDER:
        return f"{tile!r} is not a tile: tiles are S1..S10, M1..M10 and P1..P10"
    if building not in BUILDINGS:
        return f"{building!r} is not a building: choose one of {', '.join(BUILDINGS)}"
    return ParsedAction(tile, building)


class TyrusState(State):
    """A game of Tyrus. Player 0 and player 1; buildings 0-2 are player 0's."""

    fields = StateFields(
        memory_mode=SETTING,  # T9
        first_player=SHARED,
        reserves=ROWS,
        hands=ROWS,
        deck=LIST,
        turned=LIST,
        buildings=ROWS,  # rows of (player, tile) pairs
        discards=ROWS,
        placed=SHARED,
        results=LIST,
        tallies=LIST,  # a tally is never changed once written
        _winners=SHARED,
        rng=RNG,
        _to_move=CACHE,
        # (the tallies list it was made from, how many, their copies for the view):
        # replaced, never changed in place; the copies are shared by the views of every
        # position of the same game until the next tally (see _tally_views).
        _tally_views=CACHE,
    )

    def __init__(self, game: Game, setup: Setup, blank: bool = False) -> None:
        super().__init__(game, setup)
        if blank:
            return  # for ``_blank``: ``clone`` sets every field
        self.memory_mode = bool(setup.options.get("memory_mode", False))
        rng = Rng(setup.seed)
        self.first_player = rng.below(2)  # T2: drawn at random
        self.reserves: list[list[str]] = []
        self.hands: list[list[str]] = []
        for _ in range(2):
            tiles = list(TILES)
            rng.shuffle(tiles)  # T2: each player draws 9 tiles at random
            self.hands.append(sort_tiles(tiles[:OPENING_HAND]))
            self.reserves.append(tiles[OPENING_HAND:])
        self.deck = list(DECK)
        rng.shuffle(self.deck)  # T3: the election deck is shuffled, one card turned an election
        self.turned = [self.deck.pop()]
        self.buildings: list[list[tuple[int, str]]] = [[] for _ in range(6)]
        self.discards: list[list[str]] = [[], []]
        self.placed = 0
        self.results: list[int | None] = []
        self.tallies: list[JsonDict] = []
        self._winners: tuple[int, ...] = ()
        self.rng = rng
        self._to_move = self._next_to_move()
        self._tally_views: tuple[list[JsonDict], int, list[JsonDict]] | None = None

    def _blank(self) -> TyrusState:
        return TyrusState(self.game, self.setup, blank=True)  # compiled: only through __init__

    # ---- turn order -----------------------------------------------------------------
    @property
    def election(self) -> int:
        """The number (1-9) of the election being held or last held."""
        return len(self.turned)

    @property
    def election_kind(self) -> str:
        return self.turned[-1]

    def election_first_player(self) -> int:
        """T2: the first player starts the odd elections, the other the even ones."""
        return self.first_player if self.election % 2 == 1 else 1 - self.first_player

    @property
    def to_move(self) -> tuple[int, ...]:
        return self._to_move

    @property
    def is_over(self) -> bool:
        return not self._to_move  # the contract's, read without the property

    def _next_to_move(self) -> tuple[int, ...]:
        if self._winners:
            return ()
        # T4: players alternate, starting with this election's first player (T2: the first
        # player starts the odd elections, so the parity of the election number decides).
        return MOVER[(self.first_player + len(self.turned) + 1 + self.placed) % 2]

    # ---- actions --------------------------------------------------------------------
    def normalize_action(self, action: str) -> str:
        if action in ALL_ACTIONS:
            return action
        parts = action.split()
        if len(parts) == 2:
            return f"{parts[0].upper()} {parts[1].lower()}"
        return " ".join(parts)

    def _legal(self, player: int) -> list[str]:
        return [*_chain(map(ACTIONS_OF_TILE.__getitem__, self.hands[player]))]

    def _is_legal(self, player: int, action: str) -> bool:
        parts = ALL_ACTIONS.get(action)
        return parts is not None and parts[0] in self.hands[player]

    def explain_illegal(self, player: int, action: str) -> str:
        parsed = parse_action(action)
        if isinstance(parsed, str):
            return parsed
        hand = ", ".join(self.hands[player])
        return f"you do not hold {parsed.tile} (your hand: {hand})"

    def _describe(self, player: int, action: str, viewer: int | None, language: str) -> str:
        """T9: the tile of a placement is seen only by its owner; the building by all."""
        return describe(player, action, viewer, language)

    def _events(
        self, before: State, player: int, action: str, viewer: int | None, language: str
    ) -> list[str]:
        """After the sixth placement of an election: its tally with the arithmetic (T5),
        the result (T6), the standing, then the game's end (T8) or the draw (T7) and the
        next election. Nothing the viewer's view does not show (T9)."""
        return self._events_for_all(before, player, action, [viewer], language)[0]

    def _events_for_all(
        self,
        before: State,
        player: int,
        action: str,
        viewers: Sequence[int | None],
        language: str,
    ) -> list[list[str]]:
        """``_events`` of each viewer: only the draw's line differs between viewers (each
        reads their own tiles), so the tally and the rest are written once."""
        assert isinstance(before, TyrusState)
        if len(self.tallies) == len(before.tallies):
            return [[] for _ in viewers]
        lines = self._tally_lines(self.tallies[-1], language)
        lines.append(tally_words.standing_line(self.results, language))
        if self.is_over:
            lines.append(self._ending(language))
            return [lines[:] for _ in viewers]
        lines += tally_words.threat_lines(self.results, language)
        drawn = [sort_tiles(list(set(self.hands[p]) - set(before.hands[p]))) for p in (0, 1)]
        kind = self.election_kind
        following = tally_words.next_election_line(
            self.election, kind, ELECTED[kind], self.election_first_player(), language
        )
        return [
            [*lines, tally_words.draw_line(drawn, viewer, language), following]
            for viewer in viewers
        ]

    def _tally_lines(self, tally: JsonDict, language: str) -> list[str]:
        """The tally just held: each building's count and the result; with ``memory_mode``
        the result only, since the view shows the tally until the next election (T9)."""
        kind, winner = tally["kind"], tally["winner"]
        if self.memory_mode:
            return [tally_words.hidden_result_line(tally["election"], kind, winner, language)]
        counts = [
            count_building(
                owner,
                kind,
                [(t["player"], t["tile"]) for t in tally["tiles"] if t["building_of"] == owner],
            )
            for owner in (0, 1)
        ]
        return [
            tally_words.tally_header(tally["election"], counts[0], language),
            *(tally_words.count_line(count, language) for count in counts),
            tally_words.result_line(kind, tally["scores"], winner, language),
        ]

    def _before_action(self) -> TyrusState:
        """What events read of the state an action is played on: how many tallies it had,
        and the hands (to tell what each player drew). Marks read nothing of it."""
        before = self._blank()
        before.tallies = self.tallies[:]
        before.hands = [self.hands[0][:], self.hands[1][:]]
        return before

    def _marks(self, before: State, player: int, action: str) -> JsonDict:
        """The building that got the tile (its kind and owner); never the tile (T9)."""
        _, rival, kind_index = ALL_ACTIONS[action]
        return {"building": KINDS[kind_index], "owner": player ^ rival}

    def _ending(self, language: str) -> str:
        """T8: three in a row, five won, or nine held then more wins or the hand totals."""
        decision = decide(self.results, self.hands)
        assert decision is not None, "an ending is asked of a game that is over"
        return tally_words.ending_line(decision, self.results, self.hands, language)

    def _play(self, player: int, action: str) -> None:
        tile, rival, kind_index = ALL_ACTIONS[action]
        self.hands[player].remove(tile)
        self.buildings[(player ^ rival) * 3 + kind_index].append((player, tile))
        self.placed += 1
        if self.placed == 2 * TILES_PER_ELECTION:
            self._hold_election()
            self._to_move = self._next_to_move()
        else:
            self._to_move = MOVER[1 - player]  # T4: the players alternate in an election

    def _hold_election(self) -> None:
        kind = self.turned[-1]
        kind_index = KIND_INDEX[kind]
        buildings = self.buildings
        placed = [buildings[kind_index], buildings[3 + kind_index]]
        scores = [election_score(0, kind, placed[0]), election_score(1, kind, placed[1])]
        winner = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)  # T6
        revealed = [
            {"player": placer, "building_of": owner, "tile": tile}
            for owner in (0, 1)
            for placer, tile in placed[owner]
        ]
        self.tallies.append(
            {
                "election": len(self.turned),
                "kind": kind,
                "tiles": revealed,
                "scores": scores,
                "winner": winner,
            }
        )
        self.results.append(winner)
        discards = self.discards
        for owner in (0, 1):  # T7: revealed, then discarded; the other buildings keep theirs
            for placer, tile in placed[owner]:
                discards[placer].append(tile)
            buildings[owner * 3 + kind_index] = []
        decision = decide(self.results, self.hands)
        if decision is not None:
            self._winners = decision.winners
            return
        for player in (0, 1):  # T7: draw 3 while the reserve lasts (from its end)
            reserve = self.reserves[player]
            # The hand is sorted again, so the order the tiles are drawn in does not matter.
            self.hands[player] = sort_tiles(self.hands[player] + reserve[-TILES_PER_ELECTION:])
            del reserve[-TILES_PER_ELECTION:]
        self.turned.append(self.deck.pop())
        self.placed = 0

    # ---- results --------------------------------------------------------------------
    @property
    def scores(self) -> list[float]:
        """Elections won by each player."""
        results = self.results
        return [float(results.count(0)), float(results.count(1))]

    @property
    def winners(self) -> tuple[int, ...]:
        return self._winners

    # ---- views (T9) -----------------------------------------------------------------
    # Written out field by field (environments read a view at every step): every list and
    # dict is built anew, so a caller changing its view changes nothing else. Only the
    # buildings' tiles and the hand differ between viewers (``_private_view``).
    def _view(self, player: int | None) -> JsonDict:
        # The keys in the order views have always had them (tests/games/tyrus pins it):
        # the viewer's own before the counts.
        private = self._private_view(player)
        view: JsonDict = {}
        for key, value in self._public_view().items():
            if key == "hand_counts":
                view.update(private)
            view[key] = value
        return view

    def _private_view(self, player: int | None) -> JsonDict:
        buildings = self.buildings
        # Indexed rather than zipped: mypyc calls zip(..., strict=...) as a Python
        # function with a keyword, which cost a tenth of a view.
        building_views = [  # T9: a placed tile is face up for its placer only
            {
                "owner": BUILDING_HEADS[index][0],
                "kind": BUILDING_HEADS[index][1],
                "tiles": [
                    {"player": placer, "tile": tile if placer == player else None}
                    for placer, tile in buildings[index]
                ],
            }
            for index in range(6)
        ]
        return {
            "buildings": building_views,
            "hand": self.hands[player][:] if player is not None else None,
        }

    def _public_view(self) -> JsonDict:
        turned = self.turned
        results = self.results
        deck = self.deck
        hands = self.hands
        election = len(turned)
        first = self.first_player
        tallies = self._tally_views_now()
        view: JsonDict = {
            "first_player": first,
            "election": election,
            "election_kind": turned[-1],
            # T2: the first player starts the odd elections, the other the even ones.
            "election_first_player": first if election % 2 == 1 else 1 - first,
            "placed_this_election": self.placed,
            "cards_turned": turned[:],
            "cards_remaining": {  # T3: public counts
                "citadel": deck.count("citadel"),
                "market": deck.count("market"),
                "temple": deck.count("temple"),
            },
            "results": [
                {"election": index + 1, "kind": turned[index], "winner": results[index]}
                for index in range(len(results))
            ],
            "elections_won": [results.count(0), results.count(1)],
            "hand_counts": [len(hands[0]), len(hands[1])],
            "reserve_counts": [len(self.reserves[0]), len(self.reserves[1])],
            "discard_counts": [len(self.discards[0]), len(self.discards[1])],
            "tallies": tallies[-1:] if self.memory_mode else tallies[:],  # T9 memory_mode
            "memory_mode": self.memory_mode,
        }
        if self._winners:  # T8: the tiles left in hand decide a tie, so they are shown
            view["final_hands"] = [hands[0][:], hands[1][:]]
        return view

    def _tally_views_now(self) -> list[JsonDict]:
        """Copies of the tallies for the views, made once per tally (a tally is never
        changed once written): views hold these very dicts in a list of their own."""
        tallies = self.tallies
        cached = self._tally_views
        if cached is not None and cached[0] is tallies:
            made = cached[1]
            if made == len(tallies):
                return cached[2]
            if made < len(tallies):
                views = cached[2] + [*map(_copy_tally, tallies[made:])]
                self._tally_views = (tallies, len(tallies), views)
                return views
        views = [*map(_copy_tally, tallies)]
        self._tally_views = (tallies, len(tallies), views)
        return views

    # ---- determinization ------------------------------------------------------------
    def _resample(self, player: int, rng: Rng) -> TyrusState:
        """A world ``player`` cannot tell from this one (T9).

        The opponent's unseen tiles (hand, reserve, hidden placements) are dealt again at
        random among the tiles the opponent has not shown, keeping every count; the
        election deck's order is shuffled (only its counts are known). Tiles revealed by a
        tally are known even where ``memory_mode`` hides the old tallies from the view,
        since the player saw them.
        """
        world = self.clone()
        if self.is_over:  # the final hands are shown: nothing is hidden any more
            return world
        opponent = 1 - player
        hidden_slots: list[tuple[int, int]] = [
            (index, position)
            for index, building in enumerate(world.buildings)
            for position, (owner, _) in enumerate(building)
            if owner == opponent
        ]
        unseen = [world.buildings[i][j][1] for i, j in hidden_slots]
        unseen += world.hands[opponent] + world.reserves[opponent]
        # Sorted first, so the draw depends only on what the player knows, not on where
        # the true tiles happened to be.
        unseen = sort_tiles(unseen)
        rng.shuffle(unseen)
        for index, position in hidden_slots:
            world.buildings[index][position] = (opponent, unseen.pop())
        hand_size = len(world.hands[opponent])
        world.hands[opponent] = sort_tiles(unseen[:hand_size])
        world.reserves[opponent] = unseen[hand_size:]
        world.reserves[player] = sort_tiles(world.reserves[player])
        rng.shuffle(world.reserves[player])  # the order of one's own reserve is unknown too
        world.deck.sort()
        rng.shuffle(world.deck)
        world.rng = rng.fork()
        world._to_move = world._next_to_move()
        return world


def _copy_tally(tally: JsonDict) -> JsonDict:
    return {
        "election": tally["election"],
        "kind": tally["kind"],
        "tiles": [*map(dict.copy, tally["tiles"])],
        "scores": tally["scores"][:],
        "winner": tally["winner"],
    }
