"""Request bodies (validated) and response shapes (for the OpenAPI page at /docs).

Bounds the service checks itself (answering 400 with a sentence) are given to the schema
only, as ``json_schema_extra``, from the constants it checks with.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictBool, StrictInt, StrictStr

from machiavel.bots import LEVELS
from machiavel.core.registry import games
from machiavel.server.accounts import MAX_NAME as MAX_ACCOUNT_NAME
from machiavel.server.accounts import MAX_PASSWORD, MIN_NAME, MIN_PASSWORD
from machiavel.server.chat import MAX_TEXT
from machiavel.server.service import MAX_NAME
from machiavel.server.storage import MAX_SEED

JsonDict = dict[str, JsonValue]
SEAT_NAME: JsonDict = {"minLength": 1, "maxLength": MAX_NAME}
PASSWORD: JsonDict = {"minLength": MIN_PASSWORD, "maxLength": MAX_PASSWORD}

Pace = Literal["live", "turn-based"]
Level = Literal["easy", "medium", "hard", "expert"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatIn(Strict):
    kind: Literal["human", "bot"] = Field(description="a person's seat or a bot's")
    level: StrictStr | None = Field(
        None,
        description="a bot's level: easy, medium, hard, expert",
        json_schema_extra={"enum": [*LEVELS, None]},
    )
    name: StrictStr | None = Field(
        None,
        description="display name, 1 to 40 characters; a named human seat is taken",
        json_schema_extra=SEAT_NAME,
    )
    account: StrictStr | None = Field(
        None,
        max_length=64,
        description="a human seat reserved for the account of this name, which is invited",
    )


class CreateGameIn(Strict):
    game: StrictStr = Field(
        description="game id: tyrus, djambi, guildes, tyros",
        json_schema_extra={"enum": list(games())},
    )
    players: StrictInt | None = Field(
        None, description="number of players (default: seats)", json_schema_extra={"minimum": 1}
    )
    options: dict[str, Any] | None = Field(None, description="game options; defaults otherwise")
    seed: StrictInt | None = Field(
        None,
        description="seed of the game, 0 to 2**64-1 (default: drawn by the server); refused "
        "at a table of two or more people or a rated one: it tells every hidden card",
        json_schema_extra={"minimum": 0, "maximum": MAX_SEED},
    )
    seats: list[SeatIn] | None = Field(
        None, max_length=16, description="one per player (default: all human)"
    )
    listed: StrictBool = Field(True, description="shown in the lobby (false: by invitation only)")
    rated: StrictBool | None = Field(
        None,
        description="whether the result updates ratings (default: rated if every human seat "
        "is an account's; true is refused for a table that cannot be rated)",
    )
    pace: Pace = Field(
        "live",
        description="live (one sitting) or turn-based (over days: mail says whose turn it is)",
    )
    clock: dict[str, Any] | None = Field(
        None,
        description='a clock: {"kind": "live", "initial": S, "increment": S} (a bank per '
        'seat plus time per move) or {"kind": "turn-based", "per_move": S}; none by default',
    )
    stand_in: Level = Field(
        "medium", description="the level of the bot that plays for a person out of time or gone"
    )
    abandon_after: StrictInt | None = Field(
        None,
        ge=1,
        le=365 * 24 * 3600,
        description="seconds without a person's move after which the table ends (two weeks)",
    )


class ActionIn(Strict):
    token: StrictStr | None = Field(None, description="the seat's token")
    action: StrictStr = Field(max_length=2000, description="an action as the game spells it")
    version: StrictInt = Field(description="the version the action was chosen at")


class ChatIn(Strict):
    text: StrictStr = Field(
        description="1 to 500 characters (after trimming)",
        json_schema_extra={"minLength": 1, "maxLength": MAX_TEXT},
    )
    token: StrictStr | None = Field(
        None, description="the seat's token (none: signed in, else a spectator)"
    )
    channel: Literal["players", "spectators"] | None = Field(
        None, description="the writer's own channel (players: players, spectators: spectators)"
    )


class ChatMessageOut(BaseModel):
    number: int = Field(description="1, 2, ... per game over both channels")
    channel: Literal["players", "spectators"]
    player: int | None = Field(description="the seat that wrote it; null: a spectator")
    name: str
    text: str = Field(description="exactly as written (trimmed): text, never HTML")
    at: str = Field(description="ISO 8601, UTC")
    version: int = Field(description="the game's version when it was written")


class ChatPageOut(BaseModel):
    chat: list[ChatMessageOut]
    more: bool = Field(description="older messages exist (ask with before=)")


class YourSeatIn(Strict):
    token: StrictStr | None = Field(
        None, description="your seat's token (signed in: not needed for your account's seat)"
    )


class RematchIn(Strict):
    token: StrictStr | None = Field(None, description="your seat's token in the finished game")


class RematchOut(BaseModel):
    id: str = Field(description="the new game")
    game: str
    player: int | None = Field(description="your seat in it")
    token: str | None = Field(description="your seat's token (null: your account opens it)")
    seats: list[SeatTokenOut] = Field(
        description="invite tokens of the other seats without an account, to share (first call)"
    )
    rated: bool
    created: bool = Field(description="this call made it (false: it was made already)")


class JoinIn(Strict):
    name: StrictStr | None = Field(
        None,
        description="display name, 1 to 40 characters (signed in: the account's name)",
        json_schema_extra=SEAT_NAME,
    )
    seat: StrictInt | None = Field(
        None,
        description="the seat to take (default: the first free)",
        json_schema_extra={"minimum": 0},
    )
    token: StrictStr | None = Field(None, description="an invite token: take that seat")


class SignUpIn(Strict):
    name: StrictStr = Field(
        description="2 to 24 letters, digits, _ - . (unique ignoring case)",
        json_schema_extra={"minLength": MIN_NAME, "maxLength": MAX_ACCOUNT_NAME},
    )
    password: StrictStr = Field(
        description="8 to 200 characters, not your name", json_schema_extra=PASSWORD
    )
    email: StrictStr | None = Field(None, description="optional, for notifications")


class SignInIn(Strict):
    name: StrictStr
    password: StrictStr


class MeIn(Strict):
    email: StrictStr | None = Field(None, description='a new address; null or "": none')
    notify: StrictBool | None = Field(None, description="send notifications by e-mail")
    password: StrictStr | None = Field(
        None, description="a new password (with old_password)", json_schema_extra=PASSWORD
    )
    old_password: StrictStr | None = Field(None, description="the current password")


class AccountOut(BaseModel):
    name: str
    email: str | None


class MeOut(AccountOut):
    notify: bool
    bot: bool = Field(False, description="an external bot's account (it acts with a token)")


class BotIn(Strict):
    name: StrictStr = Field(
        description="the bot account's name: 2 to 24 letters, digits, _ - . (unique ignoring "
        "case, among people and bots)",
        json_schema_extra={"minLength": MIN_NAME, "maxLength": MAX_ACCOUNT_NAME},
    )


class BotOut(BaseModel):
    name: str
    bot: bool = True
    owner: str = Field(description="the person who made it")


class BotTokenOut(BotOut):
    token: str = Field(
        description="the bot's token, shown once: send it as 'Authorization: Bearer TOKEN'"
    )


class BotsOut(BaseModel):
    bots: list[BotOut]


class SessionOut(BaseModel):
    account: MeOut | None = Field(description="the signed-in account; null: nobody")


class ClaimIn(Strict):
    token: StrictStr = Field(description="the token of the seat to keep in your account")


class InviteIn(Strict):
    token: StrictStr | None = Field(
        None,
        description="the creator's token: the one the first human seat was given at creation "
        "(not needed signed in as the creator)",
    )
    account: StrictStr | None = Field(
        None,
        max_length=64,
        description="reserve the seat for the account of this name, which is invited "
        '("": no longer reserved)',
    )


class InviteOut(BaseModel):
    player: int
    token: str
    account: str | None = Field(None, description="the account the seat is reserved for")


class MyGameOut(BaseModel):
    id: str
    game: str
    title: str
    player: int = Field(description="your seat")
    your_turn: bool
    waiting_since: str | None = Field(
        description="ISO 8601 UTC: since when it is your turn (null: it is not)"
    )
    invited: bool = Field(description="the seat is reserved for you and you have not taken it")
    pace: Pace
    to_move: list[int] = Field(description="the seats whose turn it is")
    turn_since: str | None = Field(description="ISO 8601 UTC: since when they wait")
    status: Literal["open", "running", "finished", "read-only"]
    seats: list[SeatOut]
    version: int


class MyGamesOut(BaseModel):
    games: list[MyGameOut]


class SeatTokenOut(BaseModel):
    player: int
    token: str | None


class CreatedOut(BaseModel):
    id: str
    game: str
    seats: list[SeatTokenOut]
    version: int
    rated: bool = Field(description="whether the result updates ratings")
    pace: Pace
    clock: dict[str, Any] | None
    stand_in: Level
    abandon_after: int


class SeatOut(BaseModel):
    player: int
    kind: str
    level: str | None
    name: str | None
    claimed: bool
    reserved: bool = Field(False, description="kept for an invited account, not yet taken")
    stand_in: bool = Field(False, description="a stand-in bot plays it for its absent person")
    bot_account: bool = Field(
        False, description="the account holding it is an external bot's (kind stays human)"
    )


class StateOut(BaseModel):
    id: str
    game: str
    version: int
    view: dict[str, Any]
    to_move: list[int]
    legal_actions: list[str]
    is_over: bool
    winners: list[int]
    player: int | None = Field(description="the seat this view is for; null: a spectator")
    seats: list[SeatOut]
    log_start: int = Field(description="number of the first log line given (0: all)")
    log: list[str] = Field(
        description="the game in words (English), as this viewer knows it, from line log_start on"
    )
    log_fr: list[str] = Field(description="the same lines in French, line for line")
    rated: bool = Field(False, description="whether the result updates ratings")
    rematch: str | None = Field(None, description="the rematch made of this game, if any")
    pace: Pace = "live"
    seed_chosen: bool = Field(
        False, description="its creator chose the seed (a practice table: unrated)"
    )
    turn_since: str | None = Field(
        None, description="ISO 8601 UTC: since when the seats in to_move wait (null: over)"
    )
    clocks: dict[str, Any] | None = Field(
        None,
        description="the clock and each seat's time: left (seconds), deadlines (ISO 8601 UTC, "
        "null where no clock runs), deadline (the earliest)",
    )
    outcome: dict[str, Any] | None = Field(
        None, description='an end outside the rules: {"reason": "resigned"|"abandoned", ...}'
    )
    chat: list[ChatMessageOut] | None = Field(
        None, description="in a whole state (log_start 0): the latest 100 messages one may read"
    )


class ReadOnlySetupOut(BaseModel):
    players: int
    options: dict[str, Any]
    rules_version: int = Field(description="the version of the game's rules it was stored under")
    seed: int | None = Field(None, description="given once the stored game was over")


class ReadOnlyOut(BaseModel):
    """A stored game that no longer replays: shown as far as it replays, never played."""

    id: str
    game: str
    status: Literal["read-only"]
    message: str = Field(description="why it no longer replays, in a sentence")
    version: int = Field(description="the number of stored actions")
    replayed: int = Field(description="how many of them still replay: view and log stop there")
    view: dict[str, Any] | None = Field(description="as of the last action that replays")
    to_move: list[int] = Field(description="always empty: nobody may act")
    legal_actions: list[str] = Field(description="always empty")
    is_over: bool
    winners: list[int]
    player: int | None
    seats: list[SeatOut]
    log_start: int
    log: list[str]
    log_fr: list[str]
    current_rules_version: int | None = Field(description="the game's rules on this server")
    setup: ReadOnlySetupOut
    actions: list[tuple[int, str | None]] = Field(
        description="the stored actions; null where this viewer may not know it"
    )


class JoinedOut(StateOut):
    token: str


class StaleOut(StateOut):
    detail: str


class ErrorOut(BaseModel):
    detail: str


class LobbyGameOut(BaseModel):
    id: str
    game: str
    title: str
    players: int
    options: dict[str, Any]
    seats: list[SeatOut]
    open_seats: list[int]
    status: Literal["open", "running", "finished", "read-only"]
    message: str | None = Field(description="why a read-only game no longer replays")
    rules_version: int = Field(description="the version of the game's rules it was created under")
    version: int
    is_over: bool
    rated: bool = Field(description="whether the result updates ratings")
    pace: Pace
    seed_chosen: bool = Field(
        description="its creator chose the seed and knows the deal (a practice table: unrated)"
    )
    to_move: list[int] = Field(description="the seats whose turn it is")
    turn_since: str | None = Field(description="ISO 8601 UTC: since when they wait")
    created_at: str
    updated_at: str


class LobbyOut(BaseModel):
    games: list[LobbyGameOut]


class LeaderboardEntryOut(BaseModel):
    name: str = Field(description="an account's name, or a bot level's (\"hard bot\")")
    rating: int = Field(description="the conservative rating shown (1500 for a new player)")
    games: int = Field(description="rated games played")
    bot: bool = Field(description="a bot level, or an external bot's account")


class LeaderboardOut(BaseModel):
    game: str
    players: list[LeaderboardEntryOut]


class GameRatingOut(BaseModel):
    rating: int
    games: int


class RecentGameOut(BaseModel):
    id: str
    game: str
    finished_at: str
    result: Literal["won", "shared", "lost"]
    rating: int = Field(description="the rating after that game")
    rating_change: int = Field(description="what that game changed of the rating shown")


class PlayerOut(BaseModel):
    name: str
    bot: bool = Field(description="a bot level, or an external bot's account")
    owner: str | None = Field(None, description="who made this bot account (null: not one)")
    ratings: dict[str, GameRatingOut]
    recent: list[RecentGameOut] = Field(description="the 20 most recent rated games")


MyGameOut.model_rebuild()  # SeatOut is declared after it
