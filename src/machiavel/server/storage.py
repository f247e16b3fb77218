"""Storage of games: a game is its setup (with its seats) plus its numbered actions.

SQLite in a file by default, PostgreSQL when the URL says so; the same code serves both.
States are never stored: they are rebuilt by replaying the actions from the setup. An
action is written in one transaction together with the game's new version, guarded by
the unique (game, number) pair and by the version the writer expected, so that a crash
at any moment leaves either the whole action or none of it, never two copies.

The tables are made and changed by migrations (``server/migrations``, Alembic), applied
whenever a ``Repository`` opens a database; the classes below declare what the newest
migration builds (a test checks that they agree).
"""

from __future__ import annotations

import os
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ColumnElement,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    Select,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.pool import StaticPool

from machiavel.server import groupsql, ratings
from machiavel.server.chat import RECENT, ChatMessage
from machiavel.server.damage import (
    ROW_DAMAGE,
    DamagedGame,
    DamageReport,
    check_actions,
    check_game_row,
    unreadable_row,
)
from machiavel.server.migrations import upgrade
from machiavel.server.outage import Outage

DEFAULT_DATABASE_URL = "sqlite:///machiavel.db"
DATABASE_ENV = "MACHIAVEL_DATABASE_URL"
# A seed is any 64-bit value (what ``Rng`` keeps). The column is a signed BIGINT, the
# one 64-bit integer every database has: seeds from 2**63 on are stored as their two's
# complement (negative), here only, so the rest of the code sees 0..2**64-1.
MAX_SEED = 2**64 - 1
_SIGN_BIT = 2**63
# Rows read together when a list meets a row it cannot decode (then one by one in the
# chunk that holds it): a few round trips rather than one a row.
DAMAGE_CHUNK = 50


class Base(DeclarativeBase):
    pass


class AccountRow(Base):
    """A person's or an external bot's identity: name, password hash, e-mail. A bot
    account (``is_bot``) belongs to the person who made it (``owner_id``, revision 0010)
    and acts with a session token, never a password."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))  # as chosen (NFKC)
    # casefold(NFKC(name)): names are unique ignoring case.
    name_key: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    password_hash: Mapped[str] = mapped_column(String(255))  # Argon2id (pwdlib)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    notify: Mapped[bool] = mapped_column(Boolean, server_default=text("true"))
    is_bot: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    owner_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", name="fk_accounts_owner_id"), nullable=True, index=True
    )


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its cookie's random token, never the token."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The version of its game's rules it was created under (Game.rules_version; migration
    # 0002 gave the games stored before it 1).
    rules_version: Mapped[int] = mapped_column(Integer, server_default=text("1"))
    listed: Mapped[bool] = mapped_column(Boolean, default=True)
    # Copies of what replay gives, kept so the lobby can list games without replaying them.
    version: Mapped[int] = mapped_column(Integer, default=0)
    is_over: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # When the game reached its current version (an action moves it): the moment the
    # seats in to_move started waiting ("waiting_since" of GET /api/me/games).
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    # A copy of state.to_move ("0", "0,2", "" when nobody), written with each action so
    # that "my games" knows whose turn it is without replaying; NULL for the games stored
    # before revision 0004 until their next action.
    to_move: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # Who may re-invite a seat never taken: the holder of the host token (given once, at
    # creation), or the account signed in when the game was created.
    host_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    host_account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Whether the result updates ratings (revision 0005; false for the games before it).
    rated: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    # "Play again" (revision 0006): the game this one is the rematch of, and the rematch
    # made of this one (made once).
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # "live" (played in one sitting) or "turn-based" (players come back over hours or
    # days: e-mail tells them it is their turn). Revision 0007; "live" for the games before.
    pace: Mapped[str] = mapped_column(String(16), server_default=text("'live'"))
    # Clocks and absent players (revision 0009): the clock (clocks.ClockSpec as JSON;
    # null: none), its state (time left, since when each seat waits), the level of the
    # stand-in bots, the abandon period (seconds), when a person last acted, and how a
    # game ended other than by its rules (resigned, abandoned; null otherwise).
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    clock_state: Mapped[dict[str, Any] | None] = mapped_column(
        JSON(none_as_null=True), nullable=True
    )
    stand_in_level: Mapped[str] = mapped_column(String(16), server_default=text("'medium'"))
    abandon_after: Mapped[int] = mapped_column(Integer, server_default=text("1209600"))
    human_acted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    # Who opened it, for the limits per address: quotas.address_key of the client address.
    host_address: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # Whether its creator chose the seed (revision 0008; false for the games before): then
    # they know every hidden card, so only a table of one person may have one, unrated.
    seed_chosen: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    player: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed: Mapped[bool] = mapped_column(Boolean, default=False)
    # The account this seat belongs to (its cookie opens it without a token), if any.
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", name="fk_seats_account_id"), nullable=True, index=True
    )
    # A stand-in bot plays the seat (its person ran out of time or left; revision 0009).
    stand_in: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "number", name="one_action_per_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    number: Mapped[int] = mapped_column(Integer)  # 1 for the first action of a game
    player: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)


class RatingRow(Base):
    """The rating of an account or a bot level (``key``) in one game."""

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("key", "game", name="one_rating_per_key_and_game"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(64))  # "account:<id>" or "bot:<level>"
    game: Mapped[str] = mapped_column(String(32), index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingChangeRow(Base):
    """What a rated game did to one seat's rating, written in the transaction of the
    action that ended it; its key (game_id, player) makes a game rated at most once."""

    __tablename__ = "rating_changes"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    player: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64), index=True)
    result: Mapped[str] = mapped_column(String(8))  # "won", "shared" or "lost"
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    rated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatMessageRow(Base):
    """A chat message of a game (revision 0006): numbered 1, 2, ... per game over both
    channels; ``version`` is the game's version when it was written (the replay shows it
    at that step)."""

    __tablename__ = "chat_messages"
    __table_args__ = (UniqueConstraint("game_id", "number", name="one_chat_message_per_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    channel: Mapped[str] = mapped_column(String(16))  # "players" or "spectators"
    player: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: a spectator
    name: Mapped[str] = mapped_column(String(64))  # the author as shown
    text: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MailNoticeRow(Base):
    """A notification mailed (revision 0007): its key makes it one per game, account, kind
    and version (turn), whichever server sends it and however often it restarts."""

    __tablename__ = "mail_notices"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)  # turn, invitation...
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ServerSecretRow(Base):
    """A secret of the server made once and kept in the database (revision 0007), so that
    it survives restarts and every server of a cluster shares it (the key of the mails'
    unsubscribe links)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


@dataclass(frozen=True)
class SeatRecord:
    player: int
    kind: str  # "human" or "bot"
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    claimed: bool = False
    account_id: int | None = None  # never made public
    stand_in: bool = False  # a stand-in bot plays it for its absent person
    # The account holding it is an external bot's (read from accounts.is_bot, not stored
    # with the seat: an account never stops being a bot).
    bot_account: bool = False

    def public(self) -> dict[str, Any]:
        """What anyone may know of a seat: never its token."""
        return {
            "player": self.player,
            "kind": self.kind,
            "level": self.level,
            "name": self.name,
            "claimed": self.claimed,
            # Kept for an invited account (its name is the seat's): not open to anyone.
            "reserved": self.account_id is not None and not self.claimed,
            "stand_in": self.stand_in,
            "bot_account": self.bot_account,
        }


@dataclass(frozen=True)
class GameRecord:
    id: str
    game: str
    players: int
    seed: int  # 0..MAX_SEED
    options: dict[str, Any]
    seats: tuple[SeatRecord, ...]
    listed: bool = True
    rules_version: int = 1  # the service records the game's current Game.rules_version
    version: int = 0
    is_over: bool = False
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    updated_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    to_move: tuple[int, ...] | None = None  # None: not known without replaying (pre-0004)
    host_token_hash: str | None = None
    host_account_id: int | None = None
    rated: bool = False  # whether its result updates ratings
    rematch_of: str | None = None  # the game this one is the rematch of
    rematch: str | None = None  # the rematch made of this one
    pace: str = "live"  # or "turn-based"
    clock: dict[str, Any] | None = None  # clocks.ClockSpec.to_json(); None: no clock
    clock_state: dict[str, Any] | None = None  # clocks.SeatClocks.to_json()
    stand_in_level: str = "medium"
    abandon_after: int = 14 * 24 * 3600
    human_acted_at: datetime | None = None
    outcome: dict[str, Any] | None = None  # {"reason", "player", "winners"}: ended so
    host_address: str | None = None  # quotas.address_key of the creator's address
    seed_chosen: bool = False  # its creator chose the seed (and knows the hidden cards)

    @cached_property
    def public_seats(self) -> tuple[dict[str, Any], ...]:
        """Every seat's ``public`` part, made once per record (a record is replaced, never
        changed, so its seats too): every push of a live game carries it. Not to change."""
        return tuple(seat.public() for seat in self.seats)

    def with_seat(self, seat: SeatRecord) -> GameRecord:
        seats = tuple(seat if s.player == seat.player else s for s in self.seats)
        return replace(self, seats=seats)

    def acted_at(self, moment: datetime) -> GameRecord:
        """This record once a person acted at ``moment``, as ``replace`` gives it but by
        copying the fields: it runs at every action, and ``replace`` runs ``__init__``
        and its checks on all 27 fields (several times the cost)."""
        record = object.__new__(GameRecord)
        record.__dict__.update(self.__dict__, human_acted_at=moment)
        return record


@dataclass(frozen=True)
class GameResult:
    """How a rated game ended, to rate it with the action that ended it: each player's
    ``seat_key``, the winners and the final scores."""

    game: str
    keys: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[float, ...]


@dataclass(slots=True)
class NewAction:
    """An action to store: number ``number`` (1-based) of a game, moving it to that version.

    ``result``: the action ends a rated game; the ratings of its seats are updated in the
    same transaction (so a game is rated exactly when its last action is stored).

    Not frozen, though never changed: one is made at every action, and a frozen
    dataclass sets each of its nine fields through ``object.__setattr__`` (2.1 against
    0.3 us a record).
    """

    game_id: str
    number: int
    player: int
    action: str
    is_over: bool
    to_move: tuple[int, ...] | None = None  # the seats to move after it (None: unknown)
    result: GameResult | None = None
    clock_state: dict[str, Any] | None = None  # the clocks after it (None: no clock)
    human: bool = False  # a person acted (not a bot): the table is not abandoned


@dataclass(frozen=True)
class TableChange:
    """Seats given to or taken back from stand-in bots, the clocks, and an ending outside
    the rules (``outcome``, with ``result`` to rate it), stored if the game is still at
    ``version``; ``unlist``: the table leaves the lobby (abandoned)."""

    game_id: str
    version: int
    stand_ins: tuple[tuple[int, bool], ...] = ()
    clock_state: dict[str, Any] | None = None
    outcome: dict[str, Any] | None = None
    result: GameResult | None = None
    unlist: bool = False


@dataclass(frozen=True)
class SeatChange:
    """A seat's new name, token, claim and account, stored if its token is still the
    expected one; ``unrate``: the table is no longer rated (a person without an account
    took a seat)."""

    game_id: str
    seat: SeatRecord
    expected_token_hash: str | None
    unrate: bool = False


@dataclass(frozen=True)
class NewChat:
    """A chat message to store (refused, ``IntegrityError``, if its number is taken)."""

    game_id: str
    message: ChatMessage


# What a group commit stores: a new game (with its seats), a seat's change, an action, a
# chat message.
Write = GameRecord | SeatChange | NewAction | NewChat | TableChange


@dataclass(frozen=True)
class AccountRecord:
    id: int
    name: str
    name_key: str
    password_hash: str
    email: str | None = None
    notify: bool = True
    is_bot: bool = False
    owner_id: int | None = None  # a bot account's owner


class NameTaken(Exception):  # noqa: N818 - it names a situation
    """An account with that name (ignoring case) exists already."""


class StaleWrite(Exception):  # noqa: N818 - it names a situation, not a failure of ours
    """The stored game is not at the version the writer expected (another writer won)."""


def name_key(name: str) -> str:
    """The key an account name is unique by: its NFKC casefold (unique ignoring case)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def database_url(url: str | None = None) -> str:
    """The URL to use: the argument, else MACHIAVEL_DATABASE_URL, else machiavel.db here.

    A bare path is taken as a SQLite file; ``postgresql://`` URLs use psycopg 3.
    """
    url = url or os.environ.get(DATABASE_ENV) or DEFAULT_DATABASE_URL
    if "://" not in url:
        return f"sqlite:///{url}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def safe_url(url: str) -> str:
    """The database URL without its password (to print or log)."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        credentials, _, place = rest.rpartition("@")
        user = credentials.split(":", 1)[0]
        rest = f"{user}:***@{place}" if ":" in credentials else f"{user}@{place}"
    return scheme + sep + rest


def _is_sqlite_file(url: str) -> bool:
    return url.startswith("sqlite") and url not in ("sqlite://", "sqlite:///:memory:")


# The pool hands out the connection given back last (LIFO), not the one idle longest
# (SQLAlchemy's default, FIFO). A SQLite connection that starts a transaction after another
# connection committed throws its whole page cache away and reads every page again; with
# FIFO the group writer took each of the pool's connections in turn, so every commit found
# its connection's cache stale: 1.65 reads of a page (pread) an action in the closed loop,
# 0.55 with LIFO, where the writer's own connection keeps its cache (issue 18). PostgreSQL
# keeps each connection's prepared statements warm the same way.
POOL_LIFO = True


def make_engine(url: str, checkpoints_by_hand: bool = False) -> Engine:
    """An engine on ``url``; with ``checkpoints_by_hand``, SQLite's commits leave its log
    to a ``checkpoints.Checkpointer`` (whoever asks must run one)."""
    if not url.startswith("sqlite"):
        # No ping per checkout (a round trip per action): a dropped connection fails one
        # write (503, nothing played) and the pool then replaces it.
        engine = create_engine(
            url,
            pool_size=8,
            max_overflow=8,
            pool_recycle=3600,
            pool_use_lifo=POOL_LIFO,
            hide_parameters=True,
        )
        if engine.dialect.name == "postgresql":

            @event.listens_for(engine, "connect")
            def _asynchronous_commit(dbapi_connection: Any, _record: Any) -> None:
                # As SQLite's NORMAL: a commit survives this process being killed at any
                # moment (PostgreSQL has it); only a crash of the database's machine may
                # lose the last fraction of a second. It spares an fsync per action.
                with dbapi_connection.cursor() as cursor:
                    cursor.execute("SET synchronous_commit TO off")
                dbapi_connection.commit()

        return engine
    in_memory = not _is_sqlite_file(url)
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        poolclass=StaticPool if in_memory else None,
        hide_parameters=True,  # an error logged must not carry a token hash
        **({} if in_memory else {"pool_use_lifo": POOL_LIFO}),
    )

    @event.listens_for(engine, "connect")
    def _tune(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        if not in_memory:
            # WAL: readers never wait for the writer. NORMAL: a commit survives the
            # process being killed at any moment (only a power cut may lose the last ones).
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            if checkpoints_by_hand:  # not inside a commit: checkpoints.py says why
                cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


class Repository:
    """Every read and write of stored games. Blocking calls: run them off the event loop.

    Opening one brings the database's schema to the newest migration (``upgrade``, the
    result in ``schema``), or raises ``SchemaTooNew`` if a newer version of machiavel
    upgraded it beyond what this one knows.
    """

    def __init__(self, url: str | None = None, *, checkpoints_by_hand: bool = False) -> None:
        self.url = database_url(url)
        self.damage = DamageReport()  # damaged games found so far (logged once each)
        self.outage = Outage()  # the database out of reach (logged once per burst)
        # A SQLite file whose log its owner checkpoints (checkpoints.py), else False.
        self.checkpoints_by_hand = checkpoints_by_hand and _is_sqlite_file(self.url)
        self.engine = make_engine(self.url, self.checkpoints_by_hand)
        try:
            self.schema = upgrade(self.engine)
        except BaseException:
            self.engine.dispose()
            raise

    def close(self) -> None:
        self.engine.dispose()

    # ---- writes ---------------------------------------------------------------------
    def create_game(self, record: GameRecord) -> None:
        """Store a new game; raises ``IntegrityError`` if its id is taken, ``StaleWrite``
        if it is the rematch of a game that has one already."""
        with self.engine.begin() as conn:
            _insert_games(conn, [record])
            if not _link_rematches(conn, [record]):
                raise StaleWrite(f"game {record.rematch_of} has a rematch already")

    def append_action(
        self, game_id: str, number: int, player: int, action: str, is_over: bool
    ) -> None:
        """Store action ``number`` (1-based), moving the game from version number-1 to number.

        Raises ``StaleWrite`` if the stored game is not at version number-1 (nothing is
        written then).
        """
        self.store_action(NewAction(game_id, number, player, action, is_over))

    def store_action(self, new: NewAction) -> None:
        """``append_action`` of a ``NewAction`` (with its rating, if it ends a rated game)."""
        try:
            with self.engine.begin() as conn:
                if not _append_actions(conn, [new]):
                    raise StaleWrite(f"game {new.game_id} is not at version {new.number - 1}")
        except IntegrityError as error:
            raise StaleWrite(f"game {new.game_id} already has an action #{new.number}") from error

    def update_seat(
        self,
        game_id: str,
        seat: SeatRecord,
        expected_token_hash: str | None,
        unrate: bool = False,
    ) -> bool:
        """Replace a seat's name, token and claim if its token is still the expected one."""
        with self.engine.begin() as conn:
            return _change_seat(conn, SeatChange(game_id, seat, expected_token_hash, unrate))

    def write_group(self, writes: Sequence[Write]) -> list[Exception | None]:
        """Store writes of several games in one transaction (a group commit).

        Returns, per write, None if it is stored, else what refused it: ``StaleWrite`` (a
        game not at the version before its action, a seat whose token changed),
        ``IntegrityError`` (a new game's id is taken), or any other error of its own
        transaction. When nothing is refused (the usual case) one transaction stores them
        all; otherwise that transaction is rolled back whole and each write is stored on
        its own, so that one refusal refuses only its write. An error of the shared
        transaction itself (its commit, say) raises: then none of the writes is stored.
        """
        if not writes:
            return []
        try:
            with self.engine.begin() as conn:
                if not _write_all(conn, writes):
                    raise _SomeRefused
            return [None] * len(writes)
        except (_SomeRefused, IntegrityError):
            pass  # rolled back: find out which ones are refused, one at a time
        return [self._write_alone(write) for write in writes]

    def _write_alone(self, write: Write) -> Exception | None:
        try:
            if isinstance(write, GameRecord):
                self.create_game(write)
            elif isinstance(write, SeatChange):
                if not self.update_seat(
                    write.game_id, write.seat, write.expected_token_hash, write.unrate
                ):
                    return StaleWrite(f"seat {write.seat.player} of game {write.game_id} changed")
            elif isinstance(write, NewChat):
                with self.engine.begin() as conn:
                    _insert_chat(conn, [write])
            elif isinstance(write, TableChange):
                with self.engine.begin() as conn:
                    if not _change_table(conn, write):
                        return StaleWrite(f"game {write.game_id} moved on")
            else:
                self.store_action(write)
        except Exception as error:
            return error
        return None

    # ---- reads ----------------------------------------------------------------------
    def load(self, game_id: str) -> tuple[GameRecord, list[tuple[int, str]]] | None:
        """A game's record and its actions in order, or None if there is no such game.

        Raises ``DamagedGame`` (reported once) if its rows cannot make a game."""
        try:
            return self._load(game_id)
        except DamagedGame as damaged:
            self.damage.add(damaged)
            raise

    def _load(self, game_id: str) -> tuple[GameRecord, list[tuple[int, str]]] | None:
        with self.engine.connect() as conn:
            try:
                read = _read_game(conn, game_id)
            except ROW_DAMAGE as error:
                raise unreadable_row(game_id, error) from None
        if read is None:
            return None
        row, seats, actions = read
        record = _checked_record(row, seats)
        stored = [(a.player, a.action) for a in actions]
        check_actions(record, [a.number for a in actions], stored)
        return record, stored

    # ---- chat -----------------------------------------------------------------------
    def recent_chat(self, game_id: str) -> tuple[list[ChatMessage], int]:
        """The latest ``RECENT`` messages of each channel of a game, and the highest
        message number stored (0: none)."""
        with self.engine.connect() as conn:
            messages: list[ChatMessage] = []
            for channel in ("players", "spectators", "table"):
                rows = conn.execute(
                    select(ChatMessageRow)
                    .where(ChatMessageRow.game_id == game_id, ChatMessageRow.channel == channel)
                    .order_by(ChatMessageRow.number.desc())
                    .limit(RECENT)
                ).all()
                messages += [_chat_message(r) for r in rows]
        last = max((m.number for m in messages), default=0)
        return sorted(messages, key=lambda m: m.number), last

    def chat_page(
        self,
        game_id: str,
        channels: Sequence[str],
        before: int | None,
        limit: int,
        after: int | None = None,
    ) -> list[ChatMessage]:
        """Messages of these channels, oldest first: the ``limit`` latest numbered below
        ``before`` (all if None), or, with ``after``, every one numbered above it."""
        query = select(ChatMessageRow).where(
            ChatMessageRow.game_id == game_id, ChatMessageRow.channel.in_(list(channels))
        )
        if after is not None:
            query = query.where(ChatMessageRow.number > after).order_by(ChatMessageRow.number)
        else:
            if before is not None:
                query = query.where(ChatMessageRow.number < before)
            query = query.order_by(ChatMessageRow.number.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return sorted((_chat_message(r) for r in rows), key=lambda m: m.number)

    def action_numbers(self, game_id: str) -> list[int]:
        """The stored numbers of a game's actions, in order (for integrity checks)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ActionRow.number)
                .where(ActionRow.game_id == game_id)
                .order_by(ActionRow.number)
            ).all()
        return [r.number for r in rows]

    def list_games(self, status: str, limit: int, listed_only: bool = True) -> list[GameRecord]:
        """Games most recently changed first. ``status``: active (not over), open (not over,
        a human seat free), running (not over, every seat taken), finished, or all."""
        free_seat = (
            select(SeatRow.player)
            .where(
                SeatRow.game_id == GameRow.id,
                SeatRow.kind == "human",
                SeatRow.claimed.is_(False),
            )
            .exists()
        )
        not_over: ColumnElement[bool] = GameRow.is_over.is_(False)
        filters: dict[str, list[ColumnElement[bool]]] = {
            "active": [not_over],
            "open": [not_over, free_seat],
            "running": [not_over, ~free_seat],
            "finished": [GameRow.is_over.is_(True)],
            "all": [],
        }
        query = select(GameRow).where(*filters[status])
        if listed_only:
            query = query.where(GameRow.listed.is_(True))
        query = query.order_by(GameRow.updated_at.desc(), GameRow.id).limit(limit)
        with self.engine.connect() as conn:
            rows = self._game_rows(conn, query)
            by_game = _seats_of(conn, rows)
        return [record for record, _ in self._sound(rows, by_game)]

    def unfinished_to_resume(self) -> list[str]:
        """Ids of the games going on that a server must load at start: those with a bot
        seat or a stand-in (bots resume) or a clock (deadlines run on)."""
        played_by_bots = (
            select(SeatRow.game_id)
            .where(or_(SeatRow.kind == "bot", SeatRow.stand_in.is_(True)))
            .distinct()
        )
        query = select(GameRow.id).where(
            GameRow.is_over.is_(False),
            or_(GameRow.id.in_(played_by_bots), GameRow.clock.is_not(None)),
        )
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(query).all()]

    def hosted(
        self, account_id: int | None, address: str | None
    ) -> tuple[list[GameRecord], list[GameRecord]]:
        """The unfinished games opened by this account, and by this address."""
        found: list[list[GameRecord]] = []
        with self.engine.connect() as conn:
            for column, value in (
                (GameRow.host_account_id, account_id),
                (GameRow.host_address, address),
            ):
                if value is None:
                    found.append([])
                    continue
                query = select(GameRow).where(GameRow.is_over.is_(False), column == value)
                rows = self._game_rows(conn, query)
                by_game = _seats_of(conn, rows)
                found.append([record for record, _ in self._sound(rows, by_game)])
        return found[0], found[1]

    def unfinished_activity(self) -> list[tuple[str, datetime, int]]:
        """(id, when a person last acted (else its creation), abandon period in seconds)
        of every game going on."""
        query = select(
            GameRow.id, GameRow.human_acted_at, GameRow.created_at, GameRow.abandon_after
        ).where(GameRow.is_over.is_(False))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            (r.id, _aware(r.human_acted_at or r.created_at), int(r.abandon_after)) for r in rows
        ]

    # ---- damaged rows -----------------------------------------------------------
    def _game_rows(self, conn: Connection, query: Select[*tuple[Any, ...]]) -> list[Any]:
        """The rows of a query on games, leaving out the damaged ones found so far; if a
        row cannot be decoded, the rows are read again by chunks, a failing chunk row by
        row, and the damaged ones (reported) left out: one damaged row costs its game only."""
        known = self.damage.excluded()
        if known:
            query = query.where(GameRow.id.not_in(known))
        try:
            return list(conn.execute(query).all())
        except ROW_DAMAGE:
            pass  # found out below
        ids = list(conn.execute(query.with_only_columns(GameRow.id)).scalars().all())
        rows: list[Any] = []
        for start in range(0, len(ids), DAMAGE_CHUNK):  # in the query's order
            chunk = ids[start : start + DAMAGE_CHUNK]
            try:
                rows += conn.execute(query.where(GameRow.id.in_(chunk))).all()
                continue
            except ROW_DAMAGE:
                pass
            for game_id in chunk:
                try:
                    rows += conn.execute(query.where(GameRow.id == game_id)).all()
                except ROW_DAMAGE as error:
                    self.damage.add(unreadable_row(game_id, error))
        return rows

    def _sound(
        self, rows: Sequence[Any], by_game: dict[str, list[Any]]
    ) -> list[tuple[GameRecord, Any]]:
        """(record, row) of the rows that make a game; the others reported, left out."""
        sound = []
        for row in rows:
            try:
                sound.append((_checked_record(row, by_game.get(row.id, [])), row))
            except DamagedGame as damaged:
                self.damage.add(damaged)
        return sound

    # ---- accounts and sessions (written directly: rare, each its own transaction) -----
    def create_account(
        self,
        name: str,
        name_key: str,
        password_hash: str,
        email: str | None,
        owner_id: int | None = None,
    ) -> AccountRecord:
        """A new account, a bot account of ``owner_id`` if given; raises ``NameTaken`` if
        its name_key is taken."""
        try:
            with self.engine.begin() as conn:
                new_id = conn.execute(
                    insert(AccountRow)
                    .values(
                        name=name,
                        name_key=name_key,
                        password_hash=password_hash,
                        email=email,
                        notify=True,
                        is_bot=owner_id is not None,
                        owner_id=owner_id,
                        created_at=datetime.now(UTC),
                    )
                    .returning(AccountRow.id)
                ).scalar_one()
        except IntegrityError as error:
            raise NameTaken(name) from error
        is_bot = owner_id is not None
        return AccountRecord(new_id, name, name_key, password_hash, email, True, is_bot, owner_id)

    def bots_of(self, owner_id: int) -> list[AccountRecord]:
        """The bot accounts a person owns, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(AccountRow).where(AccountRow.owner_id == owner_id).order_by(AccountRow.id)
            ).all()
        return [_account(row) for row in rows]

    def account_by_key(self, name_key: str) -> AccountRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(AccountRow).where(AccountRow.name_key == name_key)).first()
        return _account(row) if row is not None else None

    def account_by_id(self, account_id: int) -> AccountRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(AccountRow).where(AccountRow.id == account_id)).first()
        return _account(row) if row is not None else None

    def update_account(self, account_id: int, **values: Any) -> None:
        """Change ``email``, ``notify`` or ``password_hash`` of an account."""
        with self.engine.begin() as conn:
            conn.execute(update(AccountRow).where(AccountRow.id == account_id).values(**values))

    def create_session(self, session_hash: str, account_id: int, expires_at: datetime) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(SessionRow).values(
                    id=session_hash,
                    account_id=account_id,
                    created_at=datetime.now(UTC),
                    expires_at=expires_at,
                )
            )

    def session(self, session_hash: str) -> tuple[int, datetime] | None:
        """The account and expiry of a session, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(SessionRow.account_id, SessionRow.expires_at).where(
                    SessionRow.id == session_hash
                )
            ).first()
        return (row.account_id, _aware(row.expires_at)) if row is not None else None

    def delete_sessions(
        self,
        *,
        session_hash: str | None = None,
        account_id: int | None = None,
        keep: str | None = None,
    ) -> None:
        """Delete one session, or every session of an account (but ``keep``), and the
        expired ones of everybody."""
        with self.engine.begin() as conn:
            if session_hash is not None:
                conn.execute(delete(SessionRow).where(SessionRow.id == session_hash))
            if account_id is not None:
                query = delete(SessionRow).where(SessionRow.account_id == account_id)
                if keep is not None:
                    query = query.where(SessionRow.id != keep)
                conn.execute(query)
            conn.execute(delete(SessionRow).where(SessionRow.expires_at < datetime.now(UTC)))

    def games_of_account(
        self, account_id: int, finished: int = 20, unfinished: int = 1000
    ) -> list[tuple[GameRecord, int]]:
        """(game, the account's seat) of every unfinished game the account has a seat in
        (at most ``unfinished``) and of its ``finished`` most recently finished ones."""
        base = (
            select(GameRow, SeatRow.player.label("my_seat"))
            .join(SeatRow, SeatRow.game_id == GameRow.id)
            .where(SeatRow.account_id == account_id)
        )
        with self.engine.connect() as conn:
            rows = self._game_rows(
                conn,
                base.where(GameRow.is_over.is_(False))
                .order_by(GameRow.updated_at.desc(), GameRow.id)
                .limit(unfinished),
            )
            rows += self._game_rows(
                conn,
                base.where(GameRow.is_over.is_(True))
                .order_by(GameRow.updated_at.desc(), GameRow.id)
                .limit(finished),
            )
            by_game = _seats_of(conn, rows)
        return [(record, row.my_seat) for record, row in self._sound(rows, by_game)]

    # ---- ratings --------------------------------------------------------------------
    def leaderboard(self, game: str, limit: int, offset: int) -> list[tuple[str, ratings.Rating]]:
        """(key, rating) of a game's rated entities, best first (by mu - 3 sigma, what
        ``ratings.display`` shows), ``limit`` of them from ``offset``."""
        ordinal = RatingRow.mu - ratings.DISPLAY_Z * RatingRow.sigma
        query = (
            select(RatingRow.key, RatingRow.mu, RatingRow.sigma, RatingRow.games)
            .where(RatingRow.game == game)
            .order_by(ordinal.desc(), RatingRow.games.desc(), RatingRow.key)
            .limit(limit)
            .offset(offset)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [(r.key, ratings.Rating(r.mu, r.sigma, r.games)) for r in rows]

    def ratings_of(self, key: str) -> dict[str, ratings.Rating]:
        """Every game's rating of one key."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(RatingRow.game, RatingRow.mu, RatingRow.sigma, RatingRow.games)
                .where(RatingRow.key == key)
                .order_by(RatingRow.game)
            ).all()
        return {r.game: ratings.Rating(r.mu, r.sigma, r.games) for r in rows}

    def rating_changes_of(self, key: str, limit: int = 20) -> list[Any]:
        """The rated games of one key, the most recent first: rows with game_id, game,
        finished_at, result, mu/sigma before and after (one per game: a bot level's seats
        of one game share their before and after; its best result is kept)."""
        query = (
            select(
                RatingChangeRow.game_id,
                GameRow.game,
                RatingChangeRow.rated_at.label("finished_at"),
                RatingChangeRow.result,
                RatingChangeRow.mu_before,
                RatingChangeRow.sigma_before,
                RatingChangeRow.mu_after,
                RatingChangeRow.sigma_after,
            )
            .join(GameRow, GameRow.id == RatingChangeRow.game_id)
            .where(RatingChangeRow.key == key)
            .order_by(RatingChangeRow.rated_at.desc(), RatingChangeRow.game_id)
        )
        best = {"won": 0, "shared": 1, "lost": 2}
        by_game: dict[str, Any] = {}
        with self.engine.connect() as conn:
            for row in conn.execute(query.limit(limit * 6)).all():  # 6 seats a game at most
                seen = by_game.get(row.game_id)
                if seen is None or best[row.result] < best[seen.result]:
                    by_game[row.game_id] = row
        return list(by_game.values())[:limit]  # in the query's order

    def account_names(self, ids: Sequence[int]) -> dict[int, str]:
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(list(ids)))
            ).all()
        return {r.id: r.name for r in rows}

    # ---- mail -----------------------------------------------------------------------
    def claim_notice(self, game_id: str, account_id: int, kind: str, version: int) -> bool:
        """Record that a notice is mailed; False if it was already (by any server)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(MailNoticeRow).values(
                        game_id=game_id,
                        account_id=account_id,
                        kind=kind,
                        version=version,
                        sent_at=datetime.now(UTC),
                    )
                )
        except IntegrityError:
            return False
        return True

    def accounts_by_ids(self, ids: Sequence[int]) -> dict[int, AccountRecord]:
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(AccountRow).where(AccountRow.id.in_(list(ids)))).all()
        return {row.id: _account(row) for row in rows}

    def server_secret(self, name: str) -> str:
        """The secret ``name``, made (random, 256 bits) the first time it is asked for."""
        with self.engine.connect() as conn:
            value = conn.execute(
                select(ServerSecretRow.value).where(ServerSecretRow.name == name)
            ).scalar_one_or_none()
        if value is not None:
            return str(value)
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(ServerSecretRow).values(name=name, value=secrets.token_urlsafe(32))
                )
        except IntegrityError:
            pass  # another server made it first: use theirs
        with self.engine.connect() as conn:
            return str(
                conn.execute(
                    select(ServerSecretRow.value).where(ServerSecretRow.name == name)
                ).scalar_one()
            )


class _SomeRefused(Exception):  # noqa: N818 - internal signal, never leaves this module
    """A write of a group was refused (a stale version or seat): roll the group back."""


def _write_all(conn: Connection, writes: Sequence[Write]) -> bool:
    """Every write in the transaction of ``conn``; False if one was refused as stale."""
    games = [w for w in writes if isinstance(w, GameRecord)]
    if games:
        _insert_games(conn, games)
        if not _link_rematches(conn, games):
            return False
    chats = [w for w in writes if isinstance(w, NewChat)]
    if chats:
        _insert_chat(conn, chats)
    for change in writes:
        if isinstance(change, SeatChange) and not _change_seat(conn, change):
            return False
    for table in writes:
        if isinstance(table, TableChange) and not _change_table(conn, table):
            return False
    actions = [w for w in writes if isinstance(w, NewAction)]
    return not actions or _append_actions(conn, actions)


def _change_table(conn: Connection, change: TableChange) -> bool:
    """Store a ``TableChange`` if the game is still at its version; False otherwise."""
    values: dict[str, Any] = {}
    if change.clock_state is not None:
        values["clock_state"] = change.clock_state
    if change.outcome is not None:
        values.update(outcome=change.outcome, is_over=True, to_move="")
    if change.unlist:
        values["listed"] = False
    found = conn.execute(
        update(GameRow)
        .where(GameRow.id == change.game_id, GameRow.version == change.version)
        .values(**values, updated_at=datetime.now(UTC) if change.outcome else GameRow.updated_at)
    )
    if found.rowcount != 1:
        return False
    for player, stand_in in change.stand_ins:
        conn.execute(
            update(SeatRow)
            .where(SeatRow.game_id == change.game_id, SeatRow.player == player)
            .values(stand_in=stand_in)
        )
    if change.result is not None:
        _rate(conn, change.game_id, change.result)
    return True


def _insert_games(conn: Connection, records: Sequence[GameRecord]) -> None:
    conn.execute(
        insert(GameRow),
        [
            {
                "id": r.id,
                "game": r.game,
                "players": r.players,
                "seed": _stored_seed(r.seed),
                "options": r.options,
                "rules_version": r.rules_version,
                "listed": r.listed,
                "version": r.version,
                "is_over": r.is_over,
                "created_at": r.created_at,
                "updated_at": r.updated_at,
                "to_move": _to_move_text(r.to_move),
                "host_token_hash": r.host_token_hash,
                "host_account_id": r.host_account_id,
                "rated": r.rated,
                "rematch_of": r.rematch_of,
                "rematch": r.rematch,
                "pace": r.pace,
                "clock": r.clock,
                "clock_state": r.clock_state,
                "stand_in_level": r.stand_in_level,
                "abandon_after": r.abandon_after,
                "human_acted_at": r.human_acted_at,
                "outcome": r.outcome,
                "host_address": r.host_address,
                "seed_chosen": r.seed_chosen,
            }
            for r in records
        ],
    )
    conn.execute(
        insert(SeatRow),
        [
            {
                "game_id": r.id,
                "player": s.player,
                "kind": s.kind,
                "level": s.level,
                "name": s.name,
                "token_hash": s.token_hash,
                "claimed": s.claimed,
                "account_id": s.account_id,
                "stand_in": s.stand_in,
            }
            for r in records
            for s in r.seats
        ],
    )


def _link_rematches(conn: Connection, records: Sequence[GameRecord]) -> bool:
    """Record each new game that is a rematch in the game it is the rematch of; False if
    that game has a rematch already (a game has one rematch)."""
    for record in records:
        if record.rematch_of is None:
            continue
        linked = conn.execute(
            update(GameRow)
            .where(GameRow.id == record.rematch_of, GameRow.rematch.is_(None))
            .values(rematch=record.id)
        )
        if linked.rowcount != 1:
            return False
    return True


def _insert_chat(conn: Connection, chats: Sequence[NewChat]) -> None:
    conn.execute(
        insert(ChatMessageRow),
        [
            {
                "game_id": c.game_id,
                "number": c.message.number,
                "channel": c.message.channel,
                "player": c.message.player,
                "name": c.message.name,
                "text": c.message.text,
                "version": c.message.version,
                "created_at": c.message.at,
            }
            for c in chats
        ],
    )


def _chat_message(row: Any) -> ChatMessage:
    return ChatMessage(
        row.number, row.channel, row.player, row.name, row.text, _aware(row.created_at), row.version
    )


def _change_seat(conn: Connection, change: SeatChange) -> bool:
    seat = change.seat
    mark = _mark(conn)
    values: tuple[Any, ...] = (
        seat.name,
        seat.token_hash,
        seat.claimed,
        seat.account_id,
        change.game_id,
        seat.player,
    )
    expected = change.expected_token_hash
    if expected is not None:
        values += (expected,)
    sql = groupsql.change_seat(mark, expected is not None)
    if conn.exec_driver_sql(sql, values).rowcount != 1:
        return False
    if change.unrate:
        conn.exec_driver_sql(groupsql.unrate_game(mark), (False, change.game_id))
    return True


def _append_actions(conn: Connection, actions: Sequence[NewAction]) -> bool:
    """Move each game one version on and store the actions (one action a game at most);
    False if a game was not at the version before its action.

    One statement moves every game (rather than one statement a game), and one adds every
    action: the writer's thread then hands the interpreter lock back and forth with the
    event loop's thread a few times a transaction, not twice a game. Both are plain SQL
    (``groupsql``): built as expressions they cost more than running them.
    """
    mark = _mark(conn)
    now = _bind_time(conn, datetime.now(UTC))
    values: list[Any] = [now, now]
    for a in actions:
        values += (a.game_id, _to_move_text(a.to_move), a.number - 1, a.human)
    sql = groupsql.move_games(mark, len(actions))
    if conn.exec_driver_sql(sql, tuple(values)).rowcount != len(actions):
        return False
    ended = [a.game_id for a in actions if a.is_over]
    if ended:  # a game in fifty or so: its own statement (groupsql.move_games says why)
        conn.exec_driver_sql(groupsql.end_games(mark, len(ended)), (True, *ended))
    for a in actions:  # rare (tables with a clock): one statement each
        if a.clock_state is not None:
            conn.execute(
                update(GameRow).where(GameRow.id == a.game_id).values(clock_state=a.clock_state)
            )
    rows = tuple(value for a in actions for value in (a.game_id, a.number, a.player, a.action))
    conn.exec_driver_sql(groupsql.insert_actions(mark, len(actions)), rows)
    for a in actions:  # in order: two games ending together may share a bot level
        if a.result is not None:
            _rate(conn, a.game_id, a.result)
    return True


def _mark(conn: Connection) -> str:
    """The positional parameter mark of this connection's driver."""
    return groupsql.parameter_mark(conn.dialect.paramstyle)


def _bind_time(conn: Connection, moment: datetime) -> Any:
    """A moment as this database's driver takes it for a ``DateTime`` column (SQLite
    stores text in SQLAlchemy's format; psycopg takes the datetime)."""
    dialect = conn.dialect
    processor = _TIME_TYPE.dialect_impl(dialect).bind_processor(dialect)
    return moment if processor is None else processor(moment)


_TIME_TYPE = DateTime(timezone=True)


def _rate(conn: Connection, game_id: str, result: GameResult) -> None:
    """Update the ratings of a rated game's seats and record what changed, in the
    transaction of the action that ended it (rating_changes' key refuses a second time)."""
    keys = sorted(set(result.keys))
    rows = conn.execute(
        select(RatingRow.key, RatingRow.mu, RatingRow.sigma, RatingRow.games).where(
            RatingRow.game == result.game, RatingRow.key.in_(keys)
        )
    ).all()
    before = {r.key: ratings.Rating(r.mu, r.sigma, r.games) for r in rows}
    after = ratings.rate_game(
        ratings.MODEL, result.game, result.keys, before, result.winners, result.scores
    )
    now = datetime.now(UTC)
    for key in keys:
        new = after[key]
        values = {"mu": new.mu, "sigma": new.sigma, "games": new.games, "updated_at": now}
        if key in before:
            conn.execute(
                update(RatingRow)
                .where(RatingRow.game == result.game, RatingRow.key == key)
                .values(**values)
            )
        else:
            conn.execute(insert(RatingRow).values(key=key, game=result.game, **values))
    shared = len(result.winners) > 1
    conn.execute(
        insert(RatingChangeRow),
        [
            {
                "game_id": game_id,
                "player": player,
                "key": key,
                "result": ("shared" if shared else "won") if player in result.winners else "lost",
                "mu_before": before.get(key, ratings.Rating()).mu,
                "sigma_before": before.get(key, ratings.Rating()).sigma,
                "mu_after": after[key].mu,
                "sigma_after": after[key].sigma,
                "rated_at": now,
            }
            for player, key in enumerate(result.keys)
        ],
    )


def _seats_with_bot_flag() -> Select[SeatRow, bool]:
    """Seat rows with ``bot_account``: whether the account holding each is a bot's."""
    return select(SeatRow, AccountRow.is_bot.label("bot_account")).outerjoin(
        AccountRow, SeatRow.account_id == AccountRow.id
    )


def _seats_of(conn: Connection, rows: Sequence[Any]) -> dict[str, list[Any]]:
    """The seat rows of these game rows, in seat order, by game id (one query)."""
    if not rows:
        return {}
    seats = conn.execute(
        _seats_with_bot_flag()
        .where(SeatRow.game_id.in_([r.id for r in rows]))
        .order_by(SeatRow.game_id, SeatRow.player)
    ).all()
    by_game: dict[str, list[Any]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    return by_game


LOAD_ATTEMPTS = 5  # reads of a game being played elsewhere before settling for one


def _read_game(conn: Connection, game_id: str) -> tuple[Any, list[Any], list[Any]] | None:
    """A game's row, seats and actions as of one version. The reads are separate
    statements, and another process may store an action between them; the version read
    again after the actions tells (an action and its version are one transaction): read
    again until it has not moved, and at worst keep the actions up to the row's version."""
    row: Any = None
    seats: list[Any] = []
    actions: list[Any] = []
    for _ in range(LOAD_ATTEMPTS):
        row = conn.execute(select(GameRow).where(GameRow.id == game_id)).first()
        if row is None:
            return None
        seats = list(
            conn.execute(
                _seats_with_bot_flag().where(SeatRow.game_id == game_id).order_by(SeatRow.player)
            ).all()
        )
        actions = list(
            conn.execute(
                select(ActionRow.number, ActionRow.player, ActionRow.action)
                .where(ActionRow.game_id == game_id)
                .order_by(ActionRow.number)
            ).all()
        )
        again = conn.execute(select(GameRow.version).where(GameRow.id == game_id)).scalar()
        if again == row.version:
            return row, seats, actions
    if isinstance(row.version, int):
        actions = [a for a in actions if a.number <= row.version]
    return row, seats, actions


def _checked_record(row: Any, seats: Sequence[Any]) -> GameRecord:
    """The record of a games row and its seat rows; ``DamagedGame`` if they cannot make
    a game."""
    check_game_row(row.id, row, seats)
    try:
        return _record(row, seats)
    except ROW_DAMAGE as error:  # a date or to_move SQLite kept as any text
        raise unreadable_row(row.id, error) from None


def _record(row: Any, seats: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row.id,
        game=row.game,
        players=row.players,
        seed=_read_seed(row.seed),
        options=dict(row.options or {}),
        seats=tuple(
            SeatRecord(
                s.player,
                s.kind,
                s.level,
                s.name,
                s.token_hash,
                bool(s.claimed),
                s.account_id,
                bool(s.stand_in),
                bool(s.bot_account),
            )
            for s in seats
        ),
        listed=bool(row.listed),
        rules_version=row.rules_version,
        version=row.version,
        is_over=bool(row.is_over),
        created_at=_aware(row.created_at),
        updated_at=_aware(row.updated_at),
        to_move=_to_move_tuple(row.to_move),
        host_token_hash=row.host_token_hash,
        host_account_id=row.host_account_id,
        rated=bool(row.rated),
        rematch_of=row.rematch_of,
        rematch=row.rematch,
        pace=row.pace,
        clock=row.clock,
        clock_state=row.clock_state,
        stand_in_level=row.stand_in_level,
        abandon_after=row.abandon_after,
        human_acted_at=_aware(row.human_acted_at) if row.human_acted_at else None,
        outcome=row.outcome,
        host_address=row.host_address,
        seed_chosen=bool(row.seed_chosen),
    )


def _account(row: Any) -> AccountRecord:
    return AccountRecord(
        row.id,
        row.name,
        row.name_key,
        row.password_hash,
        row.email,
        bool(row.notify),
        bool(row.is_bot),
        row.owner_id,
    )


def _stored_seed(seed: int) -> int:
    """A seed (0..MAX_SEED) as the signed BIGINT column holds it."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is from 0 to {MAX_SEED}, not {seed}")
    return seed - 2 * _SIGN_BIT if seed >= _SIGN_BIT else seed


def _read_seed(stored: int) -> int:
    """A stored seed back as 0..MAX_SEED (a negative one is its two's complement)."""
    return stored & MAX_SEED


def _to_move_text(to_move: Sequence[int] | None) -> str | None:
    return None if to_move is None else ",".join(str(p) for p in to_move)


def _to_move_tuple(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    return tuple(int(p) for p in text.split(",") if p)


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes; every stored time is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
