"""The server's logic, free of HTTP: tables, seats, the accept path, bots, pushes.

Every change of a game happens with its lock held and in this order: check, apply in
memory, store (one transaction, shared with the actions of other games waiting at the same
moment: a group commit), then log, push and schedule bots. If storing fails the game is
dropped from memory and rebuilt from storage on next use, so memory never runs ahead of
what is stored, and nothing is acknowledged or pushed before it is committed.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from redis.exceptions import RedisError

from machiavel.bots import LEVELS
from machiavel.core.contract import LANGUAGES, Game, JsonDict
from machiavel.core.errors import IllegalAction, InvalidSetup, UnknownGame
from machiavel.core.narration import narrate
from machiavel.core.registry import game as registered_game
from machiavel.core.rng import random_seed
from machiavel.server import metrics, ratings
from machiavel.server.botqueue import RedisMoves
from machiavel.server.bots import BotJob, BotRunner, move_seed
from machiavel.server.chat import (
    CHANNELS,
    MAX_PAGE,
    SPECTATOR_NAME,
    TABLE,
    TABLE_NAME,
    ChatLimits,
    ChatMessage,
    ChatRefused,
    RecentChat,
    channel_to_write,
    clean_text,
    readable,
)
from machiavel.server.checkpoints import Checkpointer
from machiavel.server.clocks import ClockRefused, ClockSpec, SeatClocks, iso_utc, read_abandon
from machiavel.server.cluster import REDIS_AWAY, Cluster, ClusterSettings, Owner
from machiavel.server.damage import DamagedGame
from machiavel.server.jsontext import dump_bytes, dumps
from machiavel.server.live import (
    LOG_KEYS,
    Connection,
    LiveGame,
    Viewer,
    hash_token,
    new_token,
    rebuild,
)
from machiavel.server.mail import Mailer
from machiavel.server.notices import Notifier
from machiavel.server.outage import UNREACHABLE, is_unreachable
from machiavel.server.quotas import LimitReached, TableLimits, address_key, check_tables
from machiavel.server.readonly import ReadOnlyGame, examine
from machiavel.server.remote import RemoteSockets
from machiavel.server.storage import (
    MAX_SEED,
    AccountRecord,
    GameRecord,
    GameResult,
    NewAction,
    NewChat,
    Repository,
    SeatChange,
    SeatRecord,
    StaleWrite,
    TableChange,
    Write,
    name_key,
)
from machiavel.server.writer import GroupWriter, WriteFailed

logger = logging.getLogger("machiavel.server")

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
MAX_NAME = 40
MAX_SEATS = 16
MAX_TOKEN = 200
LOBBY_STATUSES = ("active", "open", "running", "finished", "all")
PACES = ("live", "turn-based")
DEFAULT_STAND_IN = "medium"  # the level of the bots standing in for absent people
MAX_LEADERBOARD = 200  # entries a leaderboard page holds at most
MAX_POSITION = 2**31 - 1  # offsets and message numbers: what every database's INTEGER holds
RECENT_RATED = 20  # rated games a profile lists
WS_SEAT_TAKEN = 4403  # close code: this connection's token no longer opens its seat
WS_RELOAD = 1012  # close code: the game was reloaded, reconnect to catch up
WS_READ_ONLY = 4410  # close code: the game no longer replays (read-only): do not reconnect
# Busy games (watched, locked, waited on) one eviction looks past at most: the next one
# goes on from there, as they count as used now.
EVICTION_LOOK = 64


class ApiError(Exception):
    """A refusal: an HTTP status, a message for people, and maybe the current state."""

    def __init__(self, status: int, detail: str, state: JsonDict | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.state = state


class Unreadable(ApiError):  # noqa: N818 - it names a situation, served as such
    """A stored game that no longer replays: it is only shown (410 to anything else)."""

    def __init__(self, game: ReadOnlyGame) -> None:
        super().__init__(410, game.message)
        self.game = game
        self.text: str | None = None  # what a WebSocket is sent before it is closed


class CannotLoad(ApiError):  # noqa: N818 - it names a situation, served as such
    """A stored game whose rows are damaged beyond showing it: 410 to every request."""

    def __init__(self, damaged: DamagedGame) -> None:
        super().__init__(410, damaged.message)


class NotOwner(ApiError):  # noqa: N818 - it names a situation, served as such
    """In a cluster: another process plays this game (it took it a moment ago)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(503, f"game {game_id} is being moved between server processes: try again")


@dataclass(frozen=True)
class SeatSpec:
    kind: str
    level: str | None = None
    name: str | None = None
    account: str | None = None  # a human seat reserved for the account of that name


class GameService:
    def __init__(
        self,
        repository: Repository,
        *,
        bot_executor: Any = None,
        bot_workers: int | None = None,
        bot_params: dict[str, dict[str, Any]] | None = None,
        lookup: Callable[[str], Game] = registered_game,
        max_cached: int = 5000,
        chat_limits: ChatLimits | None = None,
        notifier: Notifier | None = None,
        sweep_every: float = 600.0,
        table_limits: TableLimits | None = None,
        cluster: ClusterSettings | None = None,
    ) -> None:
        self.repo = repository
        self.notifier = notifier or Notifier(repository, Mailer(None), "http://127.0.0.1")
        self.chat_limits = chat_limits or ChatLimits()
        self.lookup = lookup
        self.max_cached = max_cached
        # In a cluster, bot moves go through the Redis queue to the bot worker nodes.
        moves = RedisMoves(cluster) if cluster is not None else None
        self.bots = BotRunner(self._bot_delivers, bot_executor, bot_workers, bot_params, moves)
        self.writer = GroupWriter(repository.write_group, outage=repository.outage)
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        # Games that no longer replay: the latest ones whole, and why for all (the lobby).
        self._read_only: OrderedDict[str, ReadOnlyGame] = OrderedDict()
        self._unreadable: dict[str, str] = {}
        self._load_lock = asyncio.Lock()
        self._resume: asyncio.Task[None] | None = None
        self.table_limits = table_limits or TableLimits()
        self._address_secret: str | None = None
        self.sweep_every = sweep_every  # seconds between two sweeps of abandoned tables
        self._sweeper: asyncio.Task[None] | None = None
        # SQLite's log, copied into the database beside the writer (checkpoints.py).
        self.checkpointer = (
            Checkpointer(repository.engine) if repository.checkpoints_by_hand else None
        )
        self._checkpoints: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()  # timeouts being applied
        # In a cluster: the leases of the games in memory, and sockets crossing processes.
        self.cluster: Cluster | None = None
        self.remote: RemoteSockets | None = None
        if cluster is not None:
            self._join(Cluster(cluster))

    def _join(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.remote = RemoteSockets(self, cluster)
        cluster.owned = lambda: list(self._cache)
        cluster.on_lost = self._lose
        cluster.on_orphans = self._resume_games
        cluster.on_member_gone = self.remote.member_gone

    # ---- life cycle -----------------------------------------------------------------
    async def start(self) -> None:
        """Resume every unfinished game with bots or a clock, in the background, and
        sweep abandoned tables from time to time."""
        loop = asyncio.get_running_loop()
        if self.cluster is not None and self.remote is not None:
            await self.cluster.start(self.remote.handle)
        self._resume = loop.create_task(self._resume_bots())
        self._sweeper = loop.create_task(self._sweep_forever())
        if self.checkpointer is not None:
            self._checkpoints = loop.create_task(self.checkpointer.run())

    def resumed(self) -> bool:
        """Whether start has tried to resume the bots of every stored game (tests, ops)."""
        return self._resume is not None and self._resume.done()

    async def stop(self) -> None:
        for task in (self._resume, self._sweeper, self._checkpoints, *self._tasks):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        for live in self._cache.values():
            if live.timer is not None:
                live.timer.cancel()
        await self.bots.close()
        await self.writer.close()
        for live in self._cache.values():
            for connection in list(live.connections):
                connection.close(WS_RELOAD, "the server is stopping")
        if self.cluster is not None:
            await self.cluster.stop()  # its games' leases are given up: others load them

    async def _resume_bots(self) -> None:
        try:
            ids = await asyncio.to_thread(self.repo.unfinished_to_resume)
        except Exception as error:
            if not is_unreachable(error):
                raise
            self.repo.outage.report(error)
            logger.error("no bot was resumed: %s", UNREACHABLE)
            return
        await self._resume_games(ids)

    async def _resume_games(self, ids: Sequence[str]) -> None:
        """Load these games, so that their bots move and their clocks run (in a cluster,
        those of them no other process owns)."""
        for game_id in ids:
            try:
                await self.live(game_id, resuming=True)  # loading schedules the bots to move
            except (Unreadable, CannotLoad):
                pass  # said in the log when it was found out
            except NotOwner:
                pass  # another process of the cluster plays it
            except ApiError as error:
                logger.error("game %s not resumed: %s", game_id, error.detail)
            except Exception as error:  # one game must not keep the others' bots from resuming
                if not is_unreachable(error):
                    logger.exception("game %s not resumed", game_id)
                    continue
                self.repo.outage.report(error)  # the others would fail alike: stop here
                logger.error("bots not resumed from game %s on: %s", game_id, UNREACHABLE)
                return

    # ---- loading --------------------------------------------------------------------
    async def live(self, game_id: str, *, resuming: bool = False) -> LiveGame:
        """The game in memory, loaded and replayed from storage if needed (404 if none).

        A stored game that no longer replays raises ``Unreadable`` (it is then shown
        read-only, never played), found out once and remembered.
        """
        if not GAME_ID.fullmatch(game_id):
            raise ApiError(404, f"there is no game {game_id[:40]!r}")
        live = self._cache.get(game_id)
        if live is not None:
            self._cache.move_to_end(game_id)
            return live
        self._raise_if_read_only(game_id)
        async with self._load_lock:
            live = self._cache.get(game_id)
            if live is not None:
                return live
            self._raise_if_read_only(game_id)
            await self._own(game_id)
            try:
                return await self._load(game_id, resuming)
            except BaseException:
                self._release(game_id)  # no game, or not one to play: nothing to own
                raise

    async def _load(self, game_id: str, resuming: bool) -> LiveGame:
        """Load and replay a stored game into memory (the load lock held)."""
        try:
            loaded = await asyncio.to_thread(self.repo.load, game_id)
        except DamagedGame as damaged:  # reported (logged once) by the repository
            raise self._damaged(damaged) from None
        if loaded is None:
            raise ApiError(404, f"there is no game {game_id!r}")
        replayed = await asyncio.to_thread(self._replay, *loaded)
        if isinstance(replayed, ReadOnlyGame):
            self._keep_read_only(replayed)
            if resuming:
                logger.warning(
                    "game %s is read-only, its bots are not resumed: %s",
                    game_id,
                    replayed.detail,
                )
            else:
                logger.warning("game %s is read-only: %s", game_id, replayed.detail)
            raise Unreadable(replayed)
        live = replayed
        messages, last = await asyncio.to_thread(self.repo.recent_chat, game_id)
        live.chat = RecentChat(messages, last)
        self._cache[game_id] = live
        self._schedule_bots(live)
        self._arm(live)  # a deadline passed while the server was down fires at once
        self._evict_idle()
        return live

    def _replay(
        self, record: GameRecord, actions: list[tuple[int, str]]
    ) -> LiveGame | ReadOnlyGame:
        """A stored game replayed under the current rules (whatever rules version it was
        stored under: it is played on if it replays); read-only if it no longer does."""
        try:
            spec = self.lookup(record.game)
        except UnknownGame as error:
            return examine(None, record, actions, error)
        try:
            return rebuild(spec, record, actions)
        except Exception as error:  # CorruptState, or an engine failing on a stored action
            return examine(spec, record, actions, error)

    def _damaged(self, damaged: DamagedGame) -> ApiError:
        """What a damaged game answers: read-only when its row makes a game (its actions
        are damaged), else 410 to everything (``CannotLoad``)."""
        if damaged.record is None:
            return CannotLoad(damaged)
        try:
            spec: Game | None = self.lookup(damaged.record.game)
        except UnknownGame:
            spec = None
        game = ReadOnlyGame(
            damaged.record, damaged.actions, spec, None, damaged.message, damaged.detail
        )
        self._keep_read_only(game)
        return Unreadable(game)

    def _raise_if_read_only(self, game_id: str) -> None:
        game = self._read_only.get(game_id)
        if game is not None:
            self._read_only.move_to_end(game_id)
            raise Unreadable(game)

    def _keep_read_only(self, game: ReadOnlyGame) -> None:
        self._read_only[game.id] = game
        self._unreadable[game.id] = game.message
        while len(self._read_only) > self.max_cached:
            self._read_only.popitem(last=False)  # loaded again if asked for

    def _evict_idle(self) -> None:
        """Forget the least recently used games nobody is watching or waiting on (called
        after every game put in memory: loaded, created, a rematch)."""
        excess = len(self._cache) - self.max_cached
        if excess > 0:
            self._evict(excess)
        metrics.GAMES_IN_MEMORY.set(len(self._cache))

    def _evict(self, excess: int) -> None:
        """Forget up to ``excess`` idle games, the least recently used first.

        Only the oldest games are looked at, never a copy of the whole cache: copying it
        at every game put in memory cost more than making the game once thousands were
        held. The busy games met on the way count as used now (moved to the end), so the
        next call does not look at them again; a call looks at ``EVICTION_LOOK`` games
        beyond those it forgets, at most."""
        busy_bots = {game_id for game_id, _ in self.bots.pending}
        idle: list[LiveGame] = []
        busy: list[str] = []
        for game_id, live in self._cache.items():
            if len(idle) == excess or len(busy) == EVICTION_LOOK:
                break
            if live.connections or live.lock.locked() or game_id in busy_bots or live.timer:
                busy.append(game_id)
            else:
                idle.append(live)
        for game_id in busy:
            self._cache.move_to_end(game_id)
        for live in idle:
            self._forget(live)

    def _forget(self, live: LiveGame) -> None:
        """Take a game held in memory out of it, and give its lease up."""
        live.dead = True  # anyone still holding it loads it again
        del self._cache[live.id]
        self._release(live.id)
        metrics.GAMES_IN_MEMORY.set(len(self._cache))

    def _drop(self, live: LiveGame) -> None:
        """Forget a game whose memory may differ from storage; its watchers reconnect."""
        live.dead = True
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if self._cache.get(live.id) is live:
            self._forget(live)
        self.bots.forget_game(live.id)
        for connection in list(live.connections):
            connection.close(WS_RELOAD, "the game was reloaded: reconnect")
        if self.remote is not None:
            self.remote.game_dropped(live.id)

    # ---- ownership in a cluster -----------------------------------------------------
    async def route(self, game_id: str) -> Owner | None:
        """Where a game is played: None here (claimed now if nobody owned it), else the
        other process that owns it."""
        if self.cluster is None or game_id in self._cache or not GAME_ID.fullmatch(game_id):
            return None  # here: a malformed id is answered 404 here
        return await self.cluster.owner_or_claim(game_id)

    def owned_games(self) -> Collection[str]:
        """The games in memory: in a cluster, those this process owns."""
        return self._cache.keys()

    async def _own(self, game_id: str) -> None:
        """Claim a game before loading or making it (NotOwner if another process has it;
        503 if Redis does not answer: nobody could tell who plays it)."""
        if self.cluster is None:
            return
        try:
            claimed = await self.cluster.claim(game_id)
        except RedisError as error:
            logger.warning("game %s: Redis did not answer: %s", game_id, error)
            raise ApiError(503, REDIS_AWAY) from error
        if not claimed:
            raise NotOwner(game_id)

    def _release(self, game_id: str) -> None:
        """Give a forgotten game's lease up (in the background: never blocks a game)."""
        if self.cluster is None:
            return
        task = asyncio.get_running_loop().create_task(self.cluster.release(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _lose(self, game_id: str) -> None:
        """Another process took the game (this one stalled past its lease): forget it."""
        live = self._cache.get(game_id)
        if live is not None:
            self._drop(live)

    async def locked(self, game_id: str) -> LiveGame:
        """The game with its lock acquired (the caller releases it)."""
        while True:
            live = await self.live(game_id)
            await live.lock.acquire()
            if not live.dead:
                return live
            live.lock.release()

    # ---- tokens and accounts --------------------------------------------------------
    def viewer_of(
        self, live: LiveGame | ReadOnlyGame, token: str | None, account: int | None = None
    ) -> Viewer:
        """The seat a token opens (a wrong one is refused: 403); without a token, the seat
        of the signed-in account ``account`` in this game; else a spectator."""
        if token is None or token == "":
            return seat_of_account(live.record, account)
        player = live.player_of(token) if len(token) <= MAX_TOKEN else None
        if player is None:
            raise ApiError(403, "this token does not open any seat of this game")
        return player

    def seat_of(
        self, live: LiveGame | ReadOnlyGame, token: str | None, account: int | None = None
    ) -> int:
        player = self.viewer_of(live, token, account)
        if player is None:
            raise ApiError(
                403,
                "a seat token is needed to act (spectators only watch; signed in, the seat "
                "your account holds)",
            )
        return player

    async def _claim_on_use(self, live: LiveGame, player: int) -> None:
        """A seat whose invite token is used is no longer free in the lobby."""
        seat = live.record.seats[player]
        if seat.claimed:
            return
        claimed = replace(seat, claimed=True)
        unrate = live.record.rated and seat.account_id is None
        if await self._store(SeatChange(live.id, claimed, seat.token_hash, unrate)):
            live.record = live.record.with_seat(claimed)
            if unrate:
                live.record = replace(live.record, rated=False)
            live.changed()
            live.publish()

    async def _store(self, write: Write) -> bool:
        """Store a game or a seat with the next group of writes; False if it was refused
        as stale, 503 if it could not be stored."""
        try:
            await self.writer.write(write)
        except StaleWrite:
            return False
        except WriteFailed as error:
            raise write_failed("the change could not be stored", error) from error
        return True

    # ---- creating a table -----------------------------------------------------------
    async def create(
        self,
        game_id: str,
        players: int | None,
        seats: Sequence[SeatSpec] | None,
        options: Mapping[str, Any] | None,
        seed: int | None,
        listed: bool = True,
        account: AccountRecord | None = None,
        rated: bool | None = None,
        pace: str = "live",
        clock: object = None,
        stand_in: str = DEFAULT_STAND_IN,
        abandon_after: object = None,
        address: str | None = None,
    ) -> JsonDict:
        """A new table. Signed in (``account``), its first human seat belongs to the
        account (named after it if the seat has no name), unless a seat is reserved for
        it. ``rated``: None, rated if it can be (``table_rating``); True, refused (400) if
        it cannot; False, unrated. ``pace``: live or turn-based (mail tells whose turn).
        ``seed``: None, the server draws one; a chosen seed tells its chooser every hidden
        card, so it is refused (400) unless the table has one person and is unrated."""
        spec = self._spec(game_id)
        if pace not in PACES:
            raise ApiError(400, f"pace must be one of {', '.join(PACES)}, not {pace!r}")
        if stand_in not in LEVELS:
            raise ApiError(400, f"stand_in must be a bot level: {', '.join(LEVELS)}")
        try:
            clock_spec = ClockSpec.read(clock) if clock is not None else None
            abandon = read_abandon(abandon_after)
        except ClockRefused as refused:
            raise ApiError(400, str(refused)) from None
        if players is None and seats is None:
            raise ApiError(400, "give 'players' (a number) or 'seats' (one per player)")
        if players is None:
            assert seats is not None
            players = len(seats)
        if seats is None:
            seats = [SeatSpec("human")] * max(0, min(players, MAX_SEATS))
        seed_chosen = seed is not None
        if seed is None:
            seed = random_seed()
        elif not 0 <= seed <= MAX_SEED:
            raise ApiError(400, f"the seed must be a whole number from 0 to {MAX_SEED}")
        try:
            state = spec.new(players, seed, options)
        except InvalidSetup as error:
            raise ApiError(400, str(error)) from error
        if len(seats) != players:
            raise ApiError(400, f"a {players}-player game needs {players} seats, not {len(seats)}")
        records, tokens = self._new_seats(seats)
        if seed_chosen:
            refusal = chosen_seed_refusal(records, rated)
            if refusal is not None:
                raise ApiError(400, refusal)
            rated = False  # its chooser knows the hidden cards: a practice table
        await self._reserve_seats(records, seats, account)
        if account is not None:
            self._seat_creator(records, account)
        reason = table_rating(records, rated)
        if rated and reason is not None:
            raise ApiError(400, f"this table cannot be rated: {reason}")
        # The creator's token: the one given at creation for the first human seat (it
        # stays the host's token even once that seat's token changes).
        host_token = next((t for t in tokens if t is not None), None)
        record = GameRecord(
            id=new_token()[:12],
            game=spec.id,
            players=players,
            seed=seed,
            options=dict(state.setup.options),
            seats=tuple(records),
            listed=listed,
            rules_version=spec.rules_version,
            to_move=tuple(state.to_move),
            host_token_hash=hash_token(host_token) if host_token is not None else None,
            host_account_id=account.id if account is not None else None,
            rated=reason is None,
            pace=pace,
            clock=clock_spec.to_json() if clock_spec else None,
            clock_state=SeatClocks(clock_spec, players).to_json() if clock_spec else None,
            stand_in_level=stand_in,
            abandon_after=abandon,
            human_acted_at=datetime.now(UTC),
            host_address=await self._address_key(address),
            seed_chosen=seed_chosen,
        )
        await self._check_limits(record)
        record = await self._store_new(record)
        live = LiveGame(record, state, [])
        if self._needs_an_owner_now(live):
            await self._own(live.id)
            self._cache[live.id] = live
            self._schedule_bots(live)
            self._evict_idle()
        for seat in record.seats:
            if seat.account_id is not None and not seat.claimed:
                self.notifier.invitation(record, seat.player, spec.title, _name_of(account))
        return {
            "id": live.id,
            "game": spec.id,
            "seats": [{"player": p, "token": t} for p, t in enumerate(tokens)],
            "version": state.version,
            "rated": record.rated,
            "pace": record.pace,
            "clock": record.clock,
            "stand_in": record.stand_in_level,
            "abandon_after": record.abandon_after,
        }

    def _needs_an_owner_now(self, live: LiveGame) -> bool:
        """Whether a new game is kept here. In a cluster, one waiting for a person (no
        bot to move, no clock to run) is left for its first request to load: the proxy
        sends a game's requests to the process its id hashes to, which then owns it, so
        its sockets are that process's own rather than held for another one."""
        if self.cluster is None or live.clocks is not None:
            return True
        return any(live.bot_level(player) for player in live.to_move())

    async def _reserve_seats(
        self, records: list[SeatRecord], seats: Sequence[SeatSpec], creator: AccountRecord | None
    ) -> None:
        """Reserve the seats naming an account for it (named after it, not yet taken)."""
        reserved: dict[int, int] = {}
        for player, seat in enumerate(seats):
            if seat.account is None:
                continue
            if seat.kind != "human":
                raise ApiError(400, f"seat {player}: only a human seat is reserved for an account")
            invited = await self._account_named(seat.account, f"seat {player}")
            if invited.id in reserved:
                raise ApiError(
                    400, f"seats {reserved[invited.id]} and {player} are both for {invited.name}"
                )
            reserved[invited.id] = player
            claimed = creator is not None and creator.id == invited.id
            records[player] = replace(
                records[player],
                name=invited.name,
                claimed=claimed,
                account_id=invited.id,
                bot_account=invited.is_bot,
            )

    @staticmethod
    def _seat_creator(records: list[SeatRecord], account: AccountRecord) -> None:
        """The creator's seat: the one reserved for them, else the first human seat not
        reserved for another account (a seat named at creation is the creator's own: the
        lobby names the creator's seat)."""
        if any(r.account_id == account.id for r in records):
            return
        first = next((r for r in records if r.kind == "human" and r.account_id is None), None)
        if first is not None:
            records[first.player] = replace(
                first,
                name=first.name or account.name,
                claimed=True,
                account_id=account.id,
                bot_account=account.is_bot,
            )

    async def _account_named(self, name: str, where: str) -> AccountRecord:
        found = None
        if 0 < len(name) <= 64:
            found = await asyncio.to_thread(self.repo.account_by_key, name_key(name.strip()))
        if found is None:
            raise ApiError(404, f"{where}: there is no account named {name[:64]!r}")
        return found

    async def _address_key(self, address: str | None) -> str | None:
        if address is None:
            return None
        if self._address_secret is None:
            self._address_secret = await asyncio.to_thread(self.repo.server_secret, "addresses")
        return address_key(self._address_secret, address)

    async def _check_limits(self, new: GameRecord) -> None:
        """429 if the creator's account or address would go past a table limit."""
        limits = self.table_limits
        if limits == TableLimits.off():
            return
        by_account, by_address = await asyncio.to_thread(
            self.repo.hosted, new.host_account_id, new.host_address
        )
        try:
            if new.host_account_id is not None:
                check_tables(limits, by_account, new, "your account")
            if new.host_address is not None:
                check_tables(limits, by_address, new, "your address")
        except LimitReached as reached:
            raise ApiError(429, str(reached)) from None

    def _spec(self, game_id: str) -> Game:
        try:
            return self.lookup(game_id)
        except UnknownGame as error:
            raise ApiError(400, str(error)) from error

    def _new_seats(self, seats: Sequence[SeatSpec]) -> tuple[list[SeatRecord], list[str | None]]:
        records: list[SeatRecord] = []
        tokens: list[str | None] = []
        for player, seat in enumerate(seats):
            if seat.kind == "bot":
                if seat.level not in LEVELS:
                    raise ApiError(
                        400,
                        f"seat {player}: unknown bot level {seat.level!r} "
                        f"(levels: {', '.join(LEVELS)})",
                    )
                bot_name = clean_name(seat.name) if seat.name else f"{seat.level} bot"
                records.append(SeatRecord(player, "bot", seat.level, bot_name, None, True))
                tokens.append(None)
            elif seat.kind == "human":
                if seat.level is not None:
                    raise ApiError(400, f"seat {player}: only a bot seat has a level")
                token = new_token()
                name = clean_name(seat.name) if seat.name else None
                claimed = name is not None
                records.append(SeatRecord(player, "human", None, name, hash_token(token), claimed))
                tokens.append(token)
            else:
                raise ApiError(400, f"seat {player}: kind must be 'human' or 'bot'")
        return records, tokens

    async def _store_new(self, record: GameRecord) -> GameRecord:
        """Store a new game; returns its record (with another id if its id was taken)."""
        from sqlalchemy.exc import IntegrityError

        for _ in range(3):  # a random id is taken once in a blue moon: draw another
            try:
                await self._store(record)
                return record
            except IntegrityError:
                record = replace(record, id=new_token()[:12])
        raise ApiError(503, "could not store the new game; try again")

    # ---- reading --------------------------------------------------------------------
    async def state_json(
        self, game_id: str, token: str | None, log_from: int = 0, account: int | None = None
    ) -> bytes:
        """The game as a seat (or a spectator) sees it, log lines from ``log_from`` on."""
        try:
            live = await self.locked(game_id)
        except Unreadable as unreadable:  # shown as far as it replays
            game = unreadable.game
            viewer = self.viewer_of(game, token, account)
            if not 0 <= log_from <= len(game.actions):
                raise ApiError(400, f"log_from must be from 0 to {len(game.actions)}") from None
            return dump_bytes(game.payload(viewer, log_from))
        try:
            viewer = self.viewer_of(live, token, account)
            if not 0 <= log_from <= live.state.version:
                raise ApiError(400, f"log_from must be from 0 to {live.state.version}")
            return live.payload_json(viewer, log_from)
        finally:
            live.lock.release()

    # ---- acting: the one accept path of people and bots -----------------------------
    async def act(
        self,
        game_id: str,
        token: str | None,
        action: str,
        version: int,
        account: int | None = None,
    ) -> bytes:
        try:
            live = await self.locked(game_id)
        except Unreadable as unreadable:
            self.seat_of(unreadable.game, token, account)  # a wrong token is told so (403)
            raise
        try:
            player = self.seat_of(live, token, account)
            await self._claim_on_use(live, player)
            self._refuse_if_stood_in(live, player)
            return await self._accept(live, player, action, version)
        finally:
            live.lock.release()

    async def act_on_socket(
        self,
        live: LiveGame,
        connection: Connection,
        token: str | None,
        action: str,
        version: int,
        account: int | None = None,
    ) -> None:
        """An action sent on a WebSocket; its new state comes to the socket as a push.

        The seat's token was checked when the socket connected, and a socket whose seat
        is taken since (join) or whose game is reloaded is unregistered at once: while it
        is still registered with the live game it acts without the token being checked
        again. Otherwise the action takes the path of an HTTP one, token and all.
        """
        if connection.viewer is None:
            raise ApiError(403, "a seat token is needed to act (spectators only watch)")
        await live.lock.acquire()
        try:
            if not live.dead and connection in live.connections:
                self._refuse_if_stood_in(live, connection.viewer)
                await self._accept(live, connection.viewer, action, version)
                return
        finally:
            live.lock.release()
        await self.act(live.id, token, action, version, account)

    async def _accept(self, live: LiveGame, player: int, action: str, version: int) -> bytes:
        """Check the version, apply, store; then push and schedule bots. Lock held."""
        state = live.state
        if version != state.version:
            if self._is_duplicate(live, player, action, version):
                return live.payload_json(player, version)
            raise ApiError(
                409,
                f"version {version} is not the current one ({state.version}): "
                "the game has moved on, here is its current state",
                live.payload(player),
            )
        if live.record.outcome is not None:
            raise ApiError(409, "the game is over", live.payload(player))
        now = datetime.now(UTC)
        if self._ran_out(live, player, now):  # the timer has not fired yet: it loses
            await self._stand_in(live, [player], "time", now)
            raise ApiError(
                409,
                "your time ran out: a stand-in bot plays your seat now; take it back "
                "(POST /api/games/{id}/return) to play on",
                live.payload(player),
            )
        try:
            canonical = live.play(player, action)
        except IllegalAction as error:
            raise ApiError(400, str(error)) from error
        except Exception as error:  # an engine failure may have left the state half-changed
            logger.exception("engine failure in game %s", live.id)
            self._drop(live)
            raise ApiError(
                500, "the game engine failed on this action; nothing was played"
            ) from error
        seat = live.record.seats[player]
        human = seat.kind == "human" and not seat.stand_in
        clock_state = None
        if live.clocks is not None:  # in memory before it is stored: a failure drops it
            live.clocks.moved(player, now, state.to_move, live.stand_ins())
            clock_state = live.clocks.to_json()
        try:  # with other games' actions, in one transaction (group commit)
            await self.writer.write(
                NewAction(
                    live.id,
                    state.version,
                    player,
                    canonical,
                    state.is_over,
                    tuple(state.to_move),
                    self._result(live),
                    clock_state,
                    human,
                )
            )
        except BaseException as error:
            self._drop(live)  # memory ran ahead of storage: rebuild from storage next time
            if isinstance(error, StaleWrite):
                raise ApiError(409, "the game was changed elsewhere; reload it") from error
            if not isinstance(error, Exception):
                raise
            if not isinstance(error, WriteFailed):  # the writer logs its failures
                logger.exception("could not store an action of game %s", live.id)
            raise write_failed(
                "the action could not be stored, so it was not played", error
            ) from error
        live.turn_since = now
        if human:
            live.record = live.record.acted_at(now)
        live.publish()
        metrics.action_pushed(live.record.game)  # stored and pushed: counted and timed
        self.bots.refresh(live.id, state.players, state.to_move, state.legal_actions, state.version)
        self._schedule_bots(live)
        self._arm(live)
        self._notify(live)
        return live.payload_json(player, version)  # the client has the log up to its version

    # ---- clocks and absent players --------------------------------------------------
    @staticmethod
    def _refuse_if_stood_in(live: LiveGame, player: int) -> None:
        """A person does not act on a seat a stand-in bot plays: they take it back first
        (so a move and a timeout never both count)."""
        if live.record.seats[player].stand_in:
            raise ApiError(
                409,
                "a stand-in bot plays your seat (your time ran out, or you left): take it "
                "back (POST /api/games/{id}/return) to play on",
                live.payload(player),
            )

    @staticmethod
    def _ran_out(live: LiveGame, player: int, now: datetime) -> bool:
        deadline = live.clocks.deadline(player) if live.clocks is not None else None
        return deadline is not None and deadline <= now

    def _arm(self, live: LiveGame) -> None:
        """Set the game's timer to its next deadline (none if no clock runs)."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if live.clocks is None or live.is_over or live.dead:
            return
        upcoming = live.clocks.earliest()
        if upcoming is None:
            return
        delay = (upcoming[0] - datetime.now(UTC)).total_seconds()
        live.timer = asyncio.get_running_loop().call_later(
            max(0.0, delay), self._time_up, live.id, live.state.version
        )

    def _time_up(self, game_id: str, version: int) -> None:
        task = asyncio.get_running_loop().create_task(self._time_out(game_id, version))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _time_out(self, game_id: str, version: int) -> None:
        """A deadline passed: stand-in bots take the seats out of time. Under the game's
        lock, like a move: whichever comes first wins, the other finds the game moved on."""
        try:
            live = await self.locked(game_id)
        except ApiError:
            return
        try:
            live.timer = None
            if live.state.version != version or live.is_over or live.clocks is None:
                return  # a move came first (and set the timer again)
            now = datetime.now(UTC)
            late = [p for p in live.state.to_move if self._ran_out(live, p, now)]
            if late:
                await self._stand_in(live, late, "time", now)
            else:
                self._arm(live)
        except ApiError as error:
            logger.warning("game %s: a timeout was not applied: %s", game_id, error.detail)
        finally:
            live.lock.release()

    async def _stand_in(
        self, live: LiveGame, players: Sequence[int], why: str, now: datetime
    ) -> None:
        """Stand-in bots take these seats (their people ran out of time or left). Lock held."""
        if live.clocks is not None:
            for player in players:
                live.clocks.stand_in(player, now)
        change = TableChange(
            live.id,
            live.state.version,
            tuple((player, True) for player in players),
            live.clocks.to_json() if live.clocks is not None else None,
        )
        if not await self._store(change):
            self._drop(live)
            raise ApiError(409, "the game changed meanwhile; try again")
        for player in players:
            live.record = live.record.with_seat(replace(live.record.seats[player], stand_in=True))
        level = live.record.stand_in_level
        for player in players:
            name = self._seat_name(live, player)
            reason = "ran out of time" if why == "time" else "left the table"
            await self._table_event(
                live, f"{name} {reason}: a {level} bot plays for them (they may come back)", player
            )
        live.changed()
        live.publish()
        self._schedule_bots(live)
        self._arm(live)

    @staticmethod
    def _seat_name(live: LiveGame, player: int) -> str:
        return live.record.seats[player].name or f"player {player + 1}"

    async def _table_event(self, live: LiveGame, text: str, player: int | None) -> None:
        """Say at the table what happened to it (the chat's ``table`` channel). Lock held."""
        message = next_message(live, TABLE, player, TABLE_NAME, text)
        try:
            await self.writer.write(NewChat(live.id, message))
        except Exception as error:  # the event happened; only its line is lost
            logger.warning("game %s: a table message was not stored: %s", live.id, error)
            return
        live.add_chat(message)

    async def leave(self, game_id: str, token: str | None, account: int | None) -> JsonDict:
        """A person leaves: a stand-in bot plays the seat, or, in a game of two, the
        person resigns (the other wins)."""
        live = await self.locked(game_id)
        try:
            player = self.seat_of(live, token, account)
            if live.is_over:
                raise ApiError(409, "the game is over")
            if live.record.seats[player].stand_in:
                raise ApiError(409, "a stand-in bot plays your seat already")
            now = datetime.now(UTC)
            if live.record.players == 2:
                await self._resign(live, player)
            else:
                await self._stand_in(live, [player], "left", now)
            return live.payload(player)
        finally:
            live.lock.release()

    async def _resign(self, live: LiveGame, player: int) -> None:
        winners = [p for p in range(live.record.players) if p != player]
        outcome = {"reason": "resigned", "player": player, "winners": winners}
        await self._end(live, outcome, f"{self._seat_name(live, player)} resigned")

    async def _end(
        self, live: LiveGame, outcome: JsonDict, sentence: str, unlist: bool = False
    ) -> None:
        """End a game outside its rules (resigned, abandoned). Lock held."""
        result = self._forfeit_result(live, outcome["winners"])
        change = TableChange(
            live.id, live.state.version, outcome=outcome, result=result, unlist=unlist
        )
        if not await self._store(change):
            self._drop(live)
            raise ApiError(409, "the game changed meanwhile; try again")
        live.record = replace(
            live.record, outcome=outcome, is_over=True, listed=live.record.listed and not unlist
        )
        self.bots.forget_game(live.id)
        await self._table_event(live, sentence, outcome.get("player"))
        live.changed()
        live.publish()
        self._arm(live)
        self._notify(live)

    def _forfeit_result(self, live: LiveGame, winners: Sequence[int]) -> GameResult | None:
        seats = live.record.seats
        if not (live.record.rated and ratings.is_rated(seats) and winners):
            return None
        keys = tuple(ratings.seat_key(seat) or "" for seat in seats)
        scores = tuple(1.0 if p in winners else 0.0 for p in range(len(seats)))
        return GameResult(live.record.game, keys, tuple(winners), scores)

    async def take_back(self, game_id: str, token: str | None, account: int | None) -> JsonDict:
        """The person plays their seat again (the stand-in bot stops)."""
        live = await self.locked(game_id)
        try:
            player = self.seat_of(live, token, account)
            if live.is_over:
                raise ApiError(409, "the game is over")
            if not live.record.seats[player].stand_in:
                raise ApiError(409, "you play your seat already: no stand-in bot plays it")
            now = datetime.now(UTC)
            if live.clocks is not None:
                live.clocks.taken_back(player, now, live.state.to_move)
            change = TableChange(
                live.id,
                live.state.version,
                ((player, False),),
                live.clocks.to_json() if live.clocks is not None else None,
            )
            if not await self._store(change):
                self._drop(live)
                raise ApiError(409, "the game changed meanwhile; try again")
            live.record = live.record.with_seat(replace(live.record.seats[player], stand_in=False))
            self.bots.forget_seat(live.id, player)
            await self._table_event(live, f"{self._seat_name(live, player)} is back", player)
            live.changed()
            live.publish()
            self._arm(live)
            return live.payload(player)
        finally:
            live.lock.release()

    async def sweep_abandoned(self, now: datetime | None = None) -> list[str]:
        """End the tables where no person has acted for their abandon period; their ids."""
        now = now or datetime.now(UTC)
        found = await asyncio.to_thread(self.repo.unfinished_activity)
        ended = []
        for game_id, last, period in found:
            if (now - last).total_seconds() < period:
                continue
            try:
                live = await self.locked(game_id)
            except ApiError:
                continue
            try:
                last_now = live.record.human_acted_at or live.record.created_at
                if live.is_over or (now - last_now).total_seconds() < period:
                    continue
                outcome: JsonDict = {"reason": "abandoned", "player": None, "winners": []}
                await self._end(live, outcome, "the table was abandoned: nobody played", True)
                ended.append(game_id)
            except ApiError as error:
                logger.warning("game %s: not ended as abandoned: %s", game_id, error.detail)
            finally:
                live.lock.release()
        return ended

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_every)
            try:
                await self.sweep_abandoned()
            except Exception as error:  # the next sweep tries again
                logger.warning("the sweep of abandoned tables failed: %s", error)

    def _notify(self, live: LiveGame) -> None:
        """Mail whom it concerns that the game moved on or ended (turn-based tables)."""
        title = self._title(live.record.game)
        if live.is_over:
            self.notifier.game_over(live, title)
        else:
            self.notifier.turn(live, title)

    def _title(self, game_id: str) -> str:
        try:
            return self.lookup(game_id).title
        except UnknownGame:
            return game_id

    def _result(self, live: LiveGame) -> GameResult | None:
        """What rates a game that just ended, if it is rated (stored with its last action:
        the ratings change in that action's transaction, exactly once)."""
        state = live.state
        seats = live.record.seats
        if not (state.is_over and live.record.rated and ratings.is_rated(seats)):  # by its rules
            return None
        keys = tuple(ratings.seat_key(seat) or "" for seat in seats)
        return GameResult(
            live.record.game,
            keys,
            tuple(state.winners),
            tuple(float(score) for score in state.scores),
        )

    def _is_duplicate(self, live: LiveGame, player: int, action: str, version: int) -> bool:
        """A retry of an action already accepted at that version (its answer was lost)."""
        state = live.state
        if not 0 <= version < state.version:
            return False
        done = state.history[version]
        return done[0] == player and done[1] in (action, state.normalize_action(action))

    # ---- bots -----------------------------------------------------------------------
    def _schedule_bots(self, live: LiveGame) -> None:
        state = live.state
        for player in state.to_move:
            level = live.bot_level(player)
            if level is None:
                continue
            self.bots.schedule(
                live.id,
                player,
                state.version,
                state.clone().seat(player),  # a copy: the worker gets it later, pickled
                state.legal_actions(player),
                level,
                move_seed(live.record.seed, player, state.version),
                table_owner(live.record),
            )

    async def _bot_delivers(self, job: BotJob, action: str) -> None:
        try:
            live = await self.locked(job.game_id)
        except ApiError:
            return
        except Exception as error:  # the game was dropped and cannot be loaded again now
            if not is_unreachable(error):
                raise
            self.repo.outage.report(error)
            return
        try:
            if not self.bots.is_current(job) or live.bot_level(job.player) is None:
                return  # outdated, or its person took the seat back
            self.bots.pending.pop((job.game_id, job.player))
            try:
                await self._accept(live, job.player, action, job.version)
            except ApiError as error:
                if error.status != 503:  # a write that failed: the writer logged it
                    logger.error("bot move refused in game %s: %s", job.game_id, error.detail)
                if error.status == 409 and not live.dead:  # think again on the new state
                    self._schedule_bots(live)
        finally:
            live.lock.release()

    # ---- joining --------------------------------------------------------------------
    async def join(
        self,
        game_id: str,
        name: str | None,
        seat: int | None,
        token: str | None,
        account: AccountRecord | None = None,
    ) -> JsonDict:
        """Take a seat under a name (signed in: the account's name by default, and the
        seat then belongs to the account)."""
        if name is None:
            if account is None:
                raise ApiError(422, "name: Field required (a name, unless you are signed in)")
            name = account.name
        display = clean_name(name)
        live = await self.locked(game_id)
        try:
            if live.is_over:
                raise ApiError(409, "the game is over: there is no seat to join")
            player = self._seat_to_join(live, seat, token, account)
            old = live.record.seats[player]
            fresh = new_token()
            owner = account.id if account is not None else old.account_id
            taken = replace(
                old,
                name=display,
                token_hash=hash_token(fresh),
                claimed=True,
                account_id=owner,
                bot_account=account.is_bot if account is not None else old.bot_account,
            )
            unrate = live.record.rated and owner is None  # a person without an account
            stored = await self._store(SeatChange(live.id, taken, old.token_hash, unrate))
            if not stored:
                self._drop(live)
                raise ApiError(409, "the seat changed meanwhile; try again")
            live.record = live.record.with_seat(taken)
            if unrate:
                live.record = replace(live.record, rated=False)
            for connection in list(live.connections):
                # The old token no longer opens this seat (sockets opened by its account do).
                if connection.viewer == player and (
                    connection.account is None or connection.account != owner
                ):
                    connection.close(WS_SEAT_TAKEN, f"seat {player} was taken by {display}")
                    live.connections.discard(connection)
            live.changed()
            live.publish()
            return {"token": fresh, **live.payload(player)}
        finally:
            live.lock.release()

    def _seat_to_join(
        self,
        live: LiveGame,
        seat: int | None,
        token: str | None,
        account: AccountRecord | None,
    ) -> int:
        seats = live.record.seats
        mine = seat_of_account(live.record, account.id if account is not None else None)
        if token:
            player = self.seat_of(live, token)
            if seat is not None and seat != player:
                raise ApiError(403, f"this token opens seat {player}, not seat {seat}")
            owner = seats[player].account_id
            if owner is not None and (account is None or owner != account.id):
                raise ApiError(
                    409,
                    f"seat {player} belongs to an account: sign in to it to play this seat",
                )
            if mine is not None and mine != player:
                raise ApiError(409, f"your account already holds seat {mine} of this game")
            return player
        if mine is not None and not seats[mine].claimed and seat in (None, mine):
            return mine  # the seat reserved for this account: the invitation is accepted
        if mine is not None:
            raise ApiError(409, f"your account already holds seat {mine} of this game")
        if seat is None:
            free = [s.player for s in seats if is_open(s)]
            if not free:
                raise ApiError(409, "every seat of this game is taken")
            return free[0]
        if not 0 <= seat < len(seats):
            raise ApiError(400, f"there is no seat {seat} (seats are 0 to {len(seats) - 1})")
        if seats[seat].kind != "human":
            raise ApiError(409, f"seat {seat} is played by a bot")
        if seats[seat].claimed:
            raise ApiError(409, f"seat {seat} is taken")
        if seats[seat].account_id is not None:
            raise ApiError(
                409, f"seat {seat} is reserved for {seats[seat].name}: sign in to that account"
            )
        return seat

    async def claim(self, game_id: str, token: str | None, account: AccountRecord) -> JsonDict:
        """The seat of ``token`` now belongs to the signed-in account too (the token keeps
        working): its cookie opens it from any device."""
        live = await self.locked(game_id)
        try:
            player = self.seat_of(live, token)
            if not token:
                raise ApiError(400, "give the seat's token to keep it in your account")
            seat = live.record.seats[player]
            if seat.account_id == account.id:
                return live.payload(player)
            if seat.account_id is not None:
                raise ApiError(409, f"seat {player} already belongs to another account")
            mine = seat_of_account(live.record, account.id)
            if mine is not None:
                raise ApiError(409, f"your account already holds seat {mine} of this game")
            bound = replace(
                seat,
                claimed=True,
                account_id=account.id,
                name=seat.name or account.name,
                bot_account=account.is_bot,
            )
            if not await self._store(SeatChange(live.id, bound, seat.token_hash)):
                self._drop(live)
                raise ApiError(409, "the seat changed meanwhile; try again")
            live.record = live.record.with_seat(bound)
            live.changed()
            live.publish()
            return live.payload(player)
        finally:
            live.lock.release()

    async def reinvite(
        self,
        game_id: str,
        player: int,
        host_token: str | None,
        account: int | None,
        invited: str | None = None,
    ) -> JsonDict:
        """A new invite token for a seat never taken, for the game's host (the holder of
        the host token, or the account that created it); the old invite stops working.
        ``invited``: the seat is reserved for the account of that name, which is told (in
        "my games", and by mail), or, as "", no longer reserved."""
        guest = await self._account_named(invited, "invite") if invited else None
        live = await self.locked(game_id)
        try:
            record = live.record
            by_token = (
                bool(host_token)
                and record.host_token_hash is not None
                and len(host_token or "") <= MAX_TOKEN
                and hmac.compare_digest(record.host_token_hash, hash_token(host_token or ""))
            )
            by_account = account is not None and record.host_account_id == account
            if not (by_token or by_account):
                raise ApiError(
                    403, "only the host of this game (its host token or account) may re-invite"
                )
            if not 0 <= player < len(record.seats):
                raise ApiError(
                    400, f"there is no seat {player} (seats are 0 to {len(record.seats) - 1})"
                )
            seat = record.seats[player]
            if seat.kind != "human":
                raise ApiError(409, f"seat {player} is played by a bot")
            if seat.claimed:
                raise ApiError(
                    409, f"seat {player} is taken: only a seat never taken is re-invited"
                )
            if live.is_over:
                raise ApiError(409, "the game is over")
            if guest is not None and (mine := seat_of_account(record, guest.id)) is not None:
                raise ApiError(409, f"{guest.name} already has seat {mine} of this game")
            fresh = new_token()
            renewed = replace(seat, token_hash=hash_token(fresh))
            if invited is not None:
                renewed = replace(
                    renewed,
                    account_id=guest.id if guest else None,
                    name=guest.name if guest else None,
                    bot_account=guest.is_bot if guest else False,
                )
            if not await self._store(SeatChange(live.id, renewed, seat.token_hash)):
                self._drop(live)
                raise ApiError(409, "the seat changed meanwhile; try again")
            live.record = record.with_seat(renewed)
            if invited is not None:
                live.changed()
                live.publish()
            if guest is not None:
                host = record.host_account_id
                by = (
                    (await asyncio.to_thread(self.repo.account_names, [host])).get(host)
                    if host
                    else None
                )
                self.notifier.invitation(live.record, player, self._title(record.game), by)
            return {"player": player, "token": fresh, "account": guest.name if guest else None}
        finally:
            live.lock.release()

    # ---- chat -----------------------------------------------------------------------
    async def chat(
        self,
        game_id: str,
        token: str | None,
        text: object,
        channel: object = None,
        account: int | None = None,
        writer: str | None = None,
    ) -> JsonDict:
        """Write a chat message as the seat of ``token`` (or of the signed-in account),
        else as a spectator; the stored message. ``writer``: whom the rate limit counts for
        a spectator without an account (its connection or address)."""
        try:
            live = await self.locked(game_id)
        except Unreadable as unreadable:
            self.viewer_of(unreadable.game, token, account)  # a wrong token is told so (403)
            raise  # 410: a read-only game's chat is read, not written
        try:
            viewer = self.viewer_of(live, token, account)
            return await self._write_chat(live, viewer, text, channel, account, writer)
        finally:
            live.lock.release()

    async def chat_on_socket(
        self,
        live: LiveGame,
        connection: Connection,
        token: str | None,
        text: object,
        channel: object,
        account: int | None,
    ) -> None:
        """A chat message sent on a WebSocket, as the viewer it opened (like actions)."""
        writer = f"connection:{id(connection)}"
        await live.lock.acquire()
        try:
            if not live.dead and connection in live.connections:
                await self._write_chat(live, connection.viewer, text, channel, account, writer)
                return
        finally:
            live.lock.release()
        await self.chat(live.id, token, text, channel, account, writer)

    async def _write_chat(
        self,
        live: LiveGame,
        viewer: Viewer,
        text: object,
        channel: object,
        account: int | None,
        writer: str | None,
    ) -> JsonDict:
        """Check, count, store, then keep and push a message. Lock held."""
        try:
            cleaned = clean_text(text)
            written = channel_to_write(viewer, channel)
            if viewer is not None:
                key = f"{live.id}:seat:{viewer}"
            elif account is not None:
                key = f"{live.id}:account:{account}"
            else:
                key = f"{live.id}:{writer or 'anonymous'}"
            self.chat_limits.hit(key)
        except ChatRefused as refused:
            raise ApiError(refused.status, refused.detail) from None
        if viewer is not None:
            name = live.record.seats[viewer].name or f"player {viewer}"
        elif account is not None:
            names = await asyncio.to_thread(self.repo.account_names, [account])
            name = names.get(account, SPECTATOR_NAME)
        else:
            name = SPECTATOR_NAME
        message = next_message(live, written, viewer, name, cleaned)
        from sqlalchemy.exc import IntegrityError

        try:
            await self.writer.write(NewChat(live.id, message))
        except IntegrityError as error:  # its number was taken: memory is behind storage
            self._drop(live)
            raise ApiError(409, "the chat changed meanwhile; try again") from error
        except WriteFailed as error:
            raise write_failed("the message could not be stored", error) from error
        live.add_chat(message)
        return message.to_json()

    async def chat_history(
        self,
        game_id: str,
        token: str | None,
        before: int | None,
        limit: int,
        account: int | None = None,
    ) -> JsonDict:
        """A page of the chat a viewer may read: the ``limit`` latest messages numbered
        below ``before`` (the latest if None), oldest first; ``more``: older ones exist."""
        if not 1 <= limit <= MAX_PAGE:
            raise ApiError(400, f"limit must be from 1 to {MAX_PAGE}")
        if before is not None and not 1 <= before <= MAX_POSITION:
            raise ApiError(400, f"before must be a message number from 1 to {MAX_POSITION}")
        try:
            live = await self.live(game_id)
            viewer = self.viewer_of(live, token, account)
            is_over = live.is_over
        except Unreadable as unreadable:  # read-only: its chat is still read
            viewer = self.viewer_of(unreadable.game, token, account)
            is_over = unreadable.game.record.is_over
        channels = readable(viewer, is_over)
        page = await asyncio.to_thread(self.repo.chat_page, game_id, channels, before, limit + 1)
        return {
            "chat": [m.to_json() for m in page[-limit:]],
            "more": len(page) > limit,
        }

    # ---- play again -----------------------------------------------------------------
    async def rematch(
        self, game_id: str, token: str | None, account: AccountRecord | None
    ) -> JsonDict:
        """ "Play again": a new table with the same game, players, options, bot levels,
        listing and rating, seats rotated by one, made once; the caller is seated in it.

        Asked again (by anyone seated in the old game), the same table: the caller's seat
        in it (a fresh token for a seat without an account; the old invite stops working).
        """
        account_id = account.id if account is not None else None
        live = await self.locked(game_id)
        try:
            record = live.record
            player = self.viewer_of(live, token, account_id)
            if player is None:
                raise ApiError(
                    403,
                    "only a player of this game may ask for a rematch (its seat token, or "
                    "signed in to the account holding its seat)",
                )
            if not live.is_over:
                raise ApiError(409, "a rematch can be asked for once the game is over")
            if record.rematch is None:
                return await self._new_rematch(live, player, account_id)
            existing = record.rematch
        finally:
            live.lock.release()
        return await self._rematch_seat(existing, (player + 1) % record.players, account_id)

    async def _new_rematch(self, live: LiveGame, player: int, account: int | None) -> JsonDict:
        """Make the rematch of a finished game (its lock held) for ``player``."""
        from sqlalchemy.exc import IntegrityError

        record = live.record
        spec = self._spec(record.game)
        seed = random_seed()
        try:
            state = spec.new(record.players, seed, record.options)
        except InvalidSetup as error:
            raise ApiError(409, f"this table cannot be set again: {error}") from error
        count = record.players
        seats: list[SeatRecord] = []
        tokens: list[str | None] = []
        for old in sorted(record.seats, key=lambda s: (s.player + 1) % count):
            seat = (old.player + 1) % count
            if old.kind == "bot":
                seats.append(SeatRecord(seat, "bot", old.level, old.name, None, True))
                tokens.append(None)
                continue
            fresh = new_token()
            claimed = old.claimed or old.player == player
            seats.append(
                SeatRecord(
                    seat,
                    "human",
                    None,
                    old.name,
                    hash_token(fresh),
                    claimed,
                    old.account_id,
                    bot_account=old.bot_account,
                )
            )
            tokens.append(fresh)
        mine = (player + 1) % count
        my_token = tokens[mine]
        now = datetime.now(UTC)
        new = replace(
            record,
            id=new_token()[:12],
            seed=seed,
            options=dict(state.setup.options),
            seats=tuple(seats),
            rules_version=spec.rules_version,
            version=0,
            is_over=False,
            created_at=now,
            updated_at=now,
            to_move=tuple(state.to_move),
            host_token_hash=hash_token(my_token) if my_token is not None else None,
            host_account_id=account if account is not None else record.seats[player].account_id,
            rated=record.rated and ratings.is_rated(seats),
            rematch_of=record.id,
            rematch=None,
            seed_chosen=False,
        )
        for _ in range(3):  # a random id is taken once in a blue moon: draw another
            try:
                await self.writer.write(new)
                break
            except IntegrityError:
                new = replace(new, id=new_token()[:12])
            except StaleWrite as error:  # another server made it: this one is behind
                self._drop(live)
                raise ApiError(409, "a rematch was made meanwhile; ask again") from error
            except WriteFailed as error:
                raise write_failed("the rematch could not be stored", error) from error
        else:
            raise ApiError(503, "could not store the rematch; try again")
        rematch = LiveGame(new, state, [])
        await self._own(rematch.id)
        self._cache[rematch.id] = rematch
        self._schedule_bots(rematch)
        live.record = replace(record, rematch=new.id)
        live.changed()
        live.push_all(dump_bytes({"rematch": new.id}))
        self._evict_idle()
        title = self._title(new.game)
        for new_seat in seats:  # the other people with accounts are invited to it
            if new_seat.account_id is not None and new_seat.player != mine:
                self.notifier.invitation(new, new_seat.player, title, record.seats[player].name)
        invites = [
            {"player": s.player, "token": t}
            for s, t in zip(seats, tokens, strict=True)
            if t is not None and s.player != mine and s.account_id is None
        ]
        return {
            "id": new.id,
            "game": new.game,
            "player": mine,
            "token": my_token,
            "seats": invites,
            "rated": new.rated,
            "created": True,
        }

    async def _rematch_seat(self, game_id: str, seat: int, account: int | None) -> JsonDict:
        """The rematch made already, for the player whose seat in it is ``seat``."""
        try:
            live = await self.locked(game_id)
        except Unreadable:
            raise ApiError(409, "the rematch of this game can no longer be played") from None
        try:
            record = live.record
            token = None
            held = record.seats[seat]
            mine = held.account_id is not None and held.account_id == account
            if held.account_id is None and not live.is_over:
                token = new_token()
                renewed = replace(held, token_hash=hash_token(token), claimed=True)
                if not await self._store(SeatChange(live.id, renewed, held.token_hash)):
                    self._drop(live)
                    raise ApiError(409, "the seat changed meanwhile; try again")
                live.record = record.with_seat(renewed)
                live.changed()
                live.publish()
            return {
                "id": live.id,
                "game": record.game,
                "player": seat if token is not None or mine else None,
                "token": token,
                "seats": [],
                "rated": record.rated,
                "created": False,
            }
        finally:
            live.lock.release()

    # ---- my games -------------------------------------------------------------------
    async def games_of(self, account: int) -> JsonDict:
        """The account's games: those where it is its turn first (longest waiting first),
        then its other games going on (most recently changed first), then its 20 most
        recently finished."""
        rows = await asyncio.to_thread(self.repo.games_of_account, account)
        yours: list[tuple[datetime, JsonDict]] = []
        others: list[JsonDict] = []
        finished: list[JsonDict] = []
        for record, player in rows:
            live = self._cache.get(record.id)
            to_move = record.to_move
            if live is not None:  # memory is never behind storage
                to_move = tuple(live.state.to_move)
                record = replace(
                    live.record,
                    created_at=record.created_at,
                    updated_at=record.updated_at,
                    version=live.state.version,
                    is_over=live.is_over,
                )
            elif to_move is None and not record.is_over:  # stored before revision 0004
                try:
                    to_move = tuple((await self.live(record.id)).state.to_move)
                except ApiError:
                    to_move = ()
            entry = self._lobby_entry(record)
            your_turn = not record.is_over and player in (to_move or ())
            item = {
                "id": record.id,
                "game": record.game,
                "title": entry["title"],
                "player": player,
                "your_turn": your_turn,
                "waiting_since": iso_utc(record.updated_at) if your_turn else None,
                "invited": not record.seats[player].claimed and not record.is_over,
                "pace": record.pace,
                "to_move": [] if record.is_over else list(to_move or ()),
                "turn_since": entry["turn_since"],
                "status": entry["status"],
                "seats": entry["seats"],
                "version": record.version,
            }
            if record.is_over:
                finished.append(item)
            elif your_turn:
                yours.append((record.updated_at, item))
            else:
                others.append(item)
        yours.sort(key=lambda pair: pair[0])
        return {"games": [item for _, item in yours] + others + finished}

    # ---- watching -------------------------------------------------------------------
    async def connect(
        self,
        game_id: str,
        token: str | None,
        log_from: int = 0,
        account: int | None = None,
        make: Callable[[Viewer, int | None], Connection] | None = None,
    ) -> tuple[LiveGame, Connection]:
        """Register a WebSocket; it gets the current state at once (a reconnect catches up:
        its log lines from ``log_from`` on, all of them if that is not a known version).

        A read-only game raises ``Unreadable`` with the text to send before closing."""
        try:
            live = await self.locked(game_id)
        except Unreadable as unreadable:
            viewer = self.viewer_of(unreadable.game, token, account)
            unreadable.text = dumps(unreadable.game.payload(viewer, log_from))
            raise
        try:
            viewer = self.viewer_of(live, token, account)
            if viewer is not None:
                await self._claim_on_use(live, viewer)
            by_account = account if not token and viewer is not None else None
            if make is None:
                connection = Connection(viewer, account=by_account)
            else:  # a socket held by another process of the cluster (remote.py)
                connection = make(viewer, by_account)
            live.connections.add(connection)
            live.send(connection, log_from)
            return live, connection
        finally:
            live.lock.release()

    def disconnect(self, live: LiveGame, connection: Connection) -> None:
        live.connections.discard(connection)
        if live.is_over and not live.connections:
            self._forget_finished(live)

    def _forget_finished(self, live: LiveGame) -> None:
        """A game that is over leaves memory when its last socket closes, rather than when
        5,000 more recent games push it out: storage has all of it, and it is loaded again
        if asked for (a replay of its actions). The garbage collector's full collections go
        through every object of every game held, so each game kept after its end made
        them longer for nothing (issue 18: 144 ms each, with 1,500 ended games held)."""
        if self._cache.get(live.id) is not live or live.lock.locked() or live.timer:
            return  # being changed (the lock), timed, or no longer the one in memory
        self._forget(live)

    # ---- lobby and replays ----------------------------------------------------------
    async def lobby(self, status: str, limit: int) -> JsonDict:
        if status not in LOBBY_STATUSES:
            raise ApiError(400, f"status must be one of {', '.join(LOBBY_STATUSES)}")
        if not 1 <= limit <= 500:
            raise ApiError(400, "limit must be from 1 to 500")
        records = await asyncio.to_thread(self.repo.list_games, status, limit)
        return {"games": [self._lobby_entry(r) for r in records]}

    def _lobby_entry(self, record: GameRecord) -> JsonDict:
        live = self._cache.get(record.id)
        if live is not None:  # memory is never behind storage
            record = replace(
                live.record,
                created_at=record.created_at,
                updated_at=record.updated_at,
                version=live.state.version,
                is_over=live.is_over,
            )
        open_seats = [s.player for s in record.seats if is_open(s)]
        status = "finished" if record.is_over else "open" if open_seats else "running"
        message = self._unreadable.get(record.id)
        if message is not None:  # found out when loaded: no seat may be taken
            open_seats, status = [], "read-only"
        to_move = list(live.state.to_move) if live is not None else list(record.to_move or ())
        return {
            "id": record.id,
            "game": record.game,
            "title": self._title(record.game),
            "players": record.players,
            "options": record.options,
            "seats": [s.public() for s in record.seats],
            "open_seats": open_seats,
            "status": status,
            "message": message,
            "rules_version": record.rules_version,
            "version": record.version,
            "is_over": record.is_over,
            "rated": record.rated,
            "pace": record.pace,
            "seed_chosen": record.seed_chosen,
            "to_move": [] if record.is_over else to_move,
            "turn_since": None if record.is_over else iso_utc(record.updated_at),
            "created_at": _iso(record.created_at),
            "updated_at": _iso(record.updated_at),
        }

    # ---- ratings --------------------------------------------------------------------
    async def leaderboard(self, game_id: str, limit: int, offset: int) -> JsonDict:
        """A game's ratings, best first: accounts by name, bot levels as "<level> bot"."""
        try:
            spec = self.lookup(game_id)
        except UnknownGame as error:
            raise ApiError(404, f"there is no game {game_id!r} to rate: {error}") from error
        if not 1 <= limit <= MAX_LEADERBOARD:
            raise ApiError(400, f"limit must be from 1 to {MAX_LEADERBOARD}")
        if not 0 <= offset <= MAX_POSITION:
            raise ApiError(400, f"offset must be from 0 to {MAX_POSITION}")
        rows = await asyncio.to_thread(self.repo.leaderboard, spec.id, limit, offset)
        ids = [int(key.split(":", 1)[1]) for key, _ in rows if key.startswith("account:")]
        accounts = await asyncio.to_thread(self.repo.accounts_by_ids, ids)
        players = []
        for key, rating in rows:
            kind, _, rest = key.partition(":")
            account = accounts.get(int(rest)) if kind == "account" else None
            if kind == "bot":
                name, is_bot = bot_name(rest), True
            elif account is not None:
                name, is_bot = account.name, account.is_bot  # an external bot's account
            else:
                continue
            players.append(
                {
                    "name": name,
                    "rating": ratings.display(rating),
                    "games": rating.games,
                    "bot": is_bot,
                }
            )
        return {"game": spec.id, "players": players}

    async def player(self, name: str) -> JsonDict:
        """A player's profile: its rating in each game and its recent rated games. The
        name of an account (ignoring case) or of a bot level ("hard bot")."""
        key: str | None = None
        shown = name
        is_bot = False
        owner: str | None = None
        for level in LEVELS:
            if name.casefold() == bot_name(level).casefold():
                key, shown, is_bot = ratings.bot_key(level), bot_name(level), True
        if key is None and len(name) <= 64:
            account = await asyncio.to_thread(self.repo.account_by_key, name_key(name))
            if account is not None:
                key, shown, is_bot = ratings.account_key(account.id), account.name, account.is_bot
                owner = await self._owner_name(account)
        if key is None:
            raise ApiError(404, f"there is no player named {name!r}")
        found = await asyncio.to_thread(self.repo.ratings_of, key)
        changes = await asyncio.to_thread(self.repo.rating_changes_of, key, RECENT_RATED)
        recent = []
        for row in changes:
            before = ratings.display(ratings.Rating(row.mu_before, row.sigma_before))
            after = ratings.display(ratings.Rating(row.mu_after, row.sigma_after))
            recent.append(
                {
                    "id": row.game_id,
                    "game": row.game,
                    "finished_at": iso_utc(_aware(row.finished_at)),
                    "result": row.result,
                    "rating": after,
                    "rating_change": after - before,
                }
            )
        return {
            "name": shown,
            "bot": is_bot,
            "owner": owner,
            "ratings": {
                game: {"rating": ratings.display(rating), "games": rating.games}
                for game, rating in found.items()
            },
            "recent": recent,
        }

    async def _owner_name(self, account: AccountRecord) -> str | None:
        """The name of whoever made this bot account (None: not a bot account)."""
        if account.owner_id is None:
            return None
        names = await asyncio.to_thread(self.repo.account_names, [account.owner_id])
        return names.get(account.owner_id)

    async def replay(self, game_id: str, step: int | None) -> JsonDict:
        """A finished game at any step, everything revealed (before the end: 409)."""
        live = await self.locked(game_id)
        try:
            if not live.is_over:
                raise ApiError(409, "a game can be replayed once it is over")
            record, history = live.record, list(live.state.history)
        finally:
            live.lock.release()
        steps = len(history)
        if step is None:
            step = steps
        if not 0 <= step <= steps:
            raise ApiError(400, f"step must be from 0 to {steps}")
        replayed = await asyncio.to_thread(
            _replay_at, self.lookup(record.game), record, history, step
        )
        chat = await asyncio.to_thread(self.repo.chat_page, game_id, (*CHANNELS, TABLE), None, 0, 0)
        replayed["chat"] = [m.to_json() for m in chat]  # each with its version: its step
        return replayed

    def catalog(self) -> JsonDict:
        """Every game that loads, with its options, and the bot levels."""
        from machiavel.core.registry import games

        entries = []
        for game_id in games():
            try:
                spec = self.lookup(game_id)
            except Exception:  # a game being written may not load yet
                logger.warning("game %s does not load", game_id, exc_info=True)
                continue
            entries.append(
                {
                    "id": spec.id,
                    "title": spec.title,
                    "min_players": spec.min_players,
                    "max_players": spec.max_players,
                    "summary": spec.summary,
                    "options": [
                        {
                            "name": o.name,
                            "default": o.default,
                            "description": o.description,
                            "choices": list(o.choices) if o.choices is not None else None,
                            "minimum": o.minimum,
                            "maximum": o.maximum,
                        }
                        for o in spec.option_specs
                    ],
                }
            )
        return {"games": entries, "levels": list(LEVELS)}


def _replay_at(
    spec: Game, record: GameRecord, history: list[tuple[int, str]], step: int
) -> JsonDict:
    from machiavel.core.contract import Setup

    state = spec.state_from_setup(Setup(record.game, record.players, record.seed, record.options))
    logs: list[list[str]] = [[] for _ in LANGUAGES]
    marks: list[JsonDict] = []
    for player, action in history[:step]:
        told = narrate(state, player, action)
        for language, lines in enumerate(logs):
            lines.append(told.for_viewer(player, state.players, language))  # as its author saw it
        marks.append(told.marks)
    return {
        "id": record.id,
        "game": record.game,
        "step": step,
        "steps": len(history),
        "actions": [[p, a] for p, a in history],
        **dict(zip(LOG_KEYS, logs, strict=True)),
        "marks": marks,
        "ending": {language: state.ending(language) for language in LANGUAGES},
        "views": [state.view(p) for p in range(state.players)],
        "spectator": state.view(None),
        "seats": [s.public() for s in record.seats],
        "is_over": state.is_over,
        "winners": list(state.winners),
    }


def write_failed(what: str, error: BaseException) -> ApiError:
    """The 503 of a write that was not stored: why, when the database is out of reach."""
    if is_unreachable(error.__cause__ or error):
        return ApiError(503, f"{what}: {UNREACHABLE}")
    return ApiError(503, f"{what}; try again")


def clean_name(name: str) -> str:
    """A display name: trimmed, 1 to 40 printable characters."""
    if not isinstance(name, str):
        raise ApiError(400, "a name is a string")
    name = " ".join(name.split())
    if not name:
        raise ApiError(400, "a name cannot be empty")
    if len(name) > MAX_NAME:
        raise ApiError(400, f"a name has at most {MAX_NAME} characters")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise ApiError(400, "a name cannot contain control characters")
    return name


def next_message(
    live: LiveGame, channel: str, player: int | None, name: str, text: str
) -> ChatMessage:
    """The game's next chat message (numbered after the last, at its current version)."""
    return ChatMessage(
        live.chat.last_number + 1,
        channel,
        player,
        name,
        text,
        datetime.now(UTC),
        live.state.version,
    )


def table_owner(record: GameRecord) -> str:
    """Who opened a table, for the bots' fair turns: its account, else its address."""
    if record.host_account_id is not None:
        return f"account:{record.host_account_id}"
    return f"address:{record.host_address}" if record.host_address else f"game:{record.id}"


def _name_of(account: AccountRecord | None) -> str | None:
    return account.name if account is not None else None


def bot_name(level: str) -> str:
    """A bot level's name on leaderboards and profiles: "hard bot" (a space: no account
    name has one, so the two never meet)."""
    return f"{level} bot"


def table_rating(seats: Sequence[SeatRecord], requested: bool | None) -> str | None:
    """Why a new table is not rated (``ratings.unrated_reason``), or None if it is.

    A free human seat counts as an account's: whoever takes it later without an account
    makes the table unrated then. The creator's own seat is taken (by the account signed
    in, else by a person without one), as is a seat named at creation.
    """
    creator = next((s.player for s in seats if s.kind == "human"), None)
    checked: list[ratings.RatedSeat] = []
    for seat in seats:
        free = seat.kind == "human" and seat.account_id is None and not seat.claimed
        if free and seat.player != creator:  # an account is expected to take it
            checked.append(ratings.TableSeat("human", account_id=-1 - seat.player))
        else:
            checked.append(seat)
    return ratings.unrated_reason(checked, requested)


def chosen_seed_refusal(seats: Sequence[SeatRecord], rated: bool | None) -> str | None:
    """Why a seed chosen by the table's creator is refused (a sentence), or None.

    The seed decides every hidden card: its chooser could replay the deal offline and
    see the others' hands. Only a table of one person against bots, unrated, may have
    one (to practise a deal again)."""
    people = sum(1 for seat in seats if seat.kind == "human")
    if people >= 2:
        return (
            "a chosen seed is refused at a table with two or more people: it would tell its "
            "chooser every hidden card; leave it out and the server draws one"
        )
    if rated:
        return (
            "a chosen seed is refused at a rated table: it would tell its chooser every "
            "hidden card; leave it out and the server draws one, or create the table unrated"
        )
    return None


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _iso(moment: datetime) -> str:
    return moment.isoformat()


def is_open(seat: SeatRecord) -> bool:
    """A seat anyone may join: a person's, never taken nor reserved for an account."""
    return seat.kind == "human" and not seat.claimed and seat.account_id is None


def seat_of_account(record: GameRecord, account: int | None) -> int | None:
    """The seat of a game that belongs to an account, if any."""
    if account is None:
        return None
    for seat in record.seats:
        if seat.account_id == account:
            return seat.player
    return None
