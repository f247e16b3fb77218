"""Accounts: sign up, sign in, sign out, sessions, the rules of names and passwords, the
limits on failed sign-ins and the cross-site check of cookie-authenticated requests.

Free of HTTP (the routes in ``app.py`` set and read the cookie). Passwords are hashed
with Argon2id through ``pwdlib`` (its cost is a parameter: tests lower it); failed
sign-ins are counted with ``limits`` (moving windows, in memory: a restart forgets them).
A session is a random token in the browser's cookie; the database keeps only its
SHA-256, so a stolen copy of the database opens no session.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from machiavel.core.contract import JsonDict
from machiavel.server.live import new_token
from machiavel.server.service import ApiError
from machiavel.server.storage import AccountRecord, NameTaken, Repository, name_key

COOKIE = "machiavel_session"
SESSION_DAYS = 30
# A bot's token is a session too, but a program cannot sign in again by itself when it
# ends: it lasts a year, and its owner can replace it at any time (which ends the old one).
BOT_TOKEN_DAYS = 365
MAX_BOTS_PER_OWNER = 10
MIN_NAME, MAX_NAME = 2, 24
MIN_PASSWORD, MAX_PASSWORD = 8, 200
MAX_EMAIL = 254
NAME_PUNCTUATION = "_-."
FAILURES_PER_NAME = 10  # failed sign-ins per account name ...
FAILURES_PER_ADDRESS = 50  # ... and per client address ...
FAILURE_WINDOW_MINUTES = 15  # ... in any moving window of this many minutes
MAX_CACHED_SESSIONS = 10_000
BOT_ACTS_WITH_TOKEN = (
    "it acts with the token its owner was given (header 'Authorization: Bearer TOKEN'); "
    "the owner gets a new one with POST /api/me/bots/NAME/token"
)
BOT_HAS_NO_PASSWORD = f"it has no password and does not sign in; {BOT_ACTS_WITH_TOKEN}"
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class PasswordCost:
    """Argon2id's cost: passes, memory in KiB, lanes (pwdlib's defaults: RFC 9106's
    second recommended option, 64 MiB)."""

    time_cost: int = 3
    memory_kib: int = 65536
    parallelism: int = 4


DEFAULT_COST = PasswordCost()
TEST_COST = PasswordCost(1, 64, 1)  # for tests only: fast, and worthless against attacks


# ---- names, passwords, e-mail addresses ---------------------------------------------
def account_name(name: Any) -> tuple[str, str]:
    """(the name as shown, its key): NFKC-normalised, 2 to 24 letters, digits, _ - or .;
    the key (its casefold) is unique, so names are unique ignoring case."""
    if not isinstance(name, str):
        raise ApiError(400, "a name is a string")
    shown = unicodedata.normalize("NFKC", name).strip()
    if not MIN_NAME <= len(shown) <= MAX_NAME:
        raise ApiError(400, f"a name has {MIN_NAME} to {MAX_NAME} characters")
    if not all(c.isalnum() or c in NAME_PUNCTUATION for c in shown):
        raise ApiError(400, "a name is made of letters, digits and the signs _ - . (no spaces)")
    return shown, name_key(shown)


def check_password(password: Any, key: str) -> str:
    """The password if it follows the rules, else a 400 saying which one it breaks."""
    if not isinstance(password, str):
        raise ApiError(400, "a password is a string")
    if len(password) < MIN_PASSWORD:
        raise ApiError(400, f"the password is too weak: use at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise ApiError(400, f"a password has at most {MAX_PASSWORD} characters")
    if len(set(password)) == 1:
        raise ApiError(400, "the password is too weak: it repeats a single character")
    if name_key(password) == key:
        raise ApiError(400, "the password is too weak: it is your name")
    return password


def clean_email(email: Any) -> str | None:
    """An e-mail address, loosely checked (one @, a dot in the domain); None or "": none."""
    if email is None or email == "":
        return None
    if not isinstance(email, str):
        raise ApiError(400, "an e-mail address is a string")
    address: str = email.strip()
    local, at, domain = address.partition("@")
    if (
        len(address) > MAX_EMAIL
        or not at
        or not local
        or "@" in domain
        or "." not in domain.strip(".")
        or any(c.isspace() for c in address)
    ):
        raise ApiError(400, "this is not an e-mail address (like name@example.org)")
    return address


# ---- cross-site requests -------------------------------------------------------------
def _origin_of(url: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or (443 if scheme == "https" else 80)


def same_origin(origin: str | None, referer: str | None, scheme: str, host: str | None) -> bool:
    """Whether ``Origin`` (or, without it, ``Referer``) names this server: the scheme, host
    and port the request came to. Neither header: False."""
    claimed = origin if origin else referer
    if not claimed or not host or claimed == "null":
        return False
    own = _origin_of(f"{scheme}://{host}")
    return own is not None and _origin_of(claimed) == own


# ---- failed sign-ins -----------------------------------------------------------------
class SignInLimits:
    """At most FAILURES_PER_NAME failed sign-ins per name and FAILURES_PER_ADDRESS per
    client address in any FAILURE_WINDOW_MINUTES (moving window, in memory)."""

    def __init__(
        self,
        per_name: int = FAILURES_PER_NAME,
        per_address: int = FAILURES_PER_ADDRESS,
        minutes: int = FAILURE_WINDOW_MINUTES,
    ) -> None:
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.per_name = RateLimitItemPerMinute(per_name, minutes, namespace="name")
        self.per_address = RateLimitItemPerMinute(per_address, minutes, namespace="address")

    def check(self, key: str, address: str) -> None:
        """429 if this name or this address has used up its failed sign-ins."""
        for item, identifier, what in (
            (self.per_name, key, "for this name"),
            (self.per_address, address, "from your address"),
        ):
            if not self.limiter.test(item, identifier):
                reset = self.limiter.get_window_stats(item, identifier).reset_time
                minutes = max(1, math.ceil((reset - time.time()) / 60))
                raise ApiError(
                    429,
                    f"too many failed sign-ins {what} ({item.amount} in "
                    f"{item.multiples} minutes): try again in {minutes} minute"
                    + ("s" if minutes > 1 else ""),
                )

    def failed(self, key: str, address: str) -> None:
        self.limiter.hit(self.per_name, key)
        self.limiter.hit(self.per_address, address)


def hash_session(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# ---- accounts and sessions -----------------------------------------------------------
class Accounts:
    """Sign-up, sign-in, sessions. Hashing runs in threads (argon2 releases the GIL)."""

    def __init__(
        self,
        repository: Repository,
        cost: PasswordCost = DEFAULT_COST,
        limits: SignInLimits | None = None,
    ) -> None:
        self.repo = repository
        self.hasher = PasswordHash(
            (Argon2Hasher(cost.time_cost, cost.memory_kib, cost.parallelism),)
        )
        self.limits = limits or SignInLimits()
        # Compared against when the name is unknown, so both failures take as long
        # (made on first need: creating an app stays cheap).
        self._dummy_hash: str | None = None
        # session hash -> (account id, expiry); this server is the only one writing.
        self._sessions: OrderedDict[str, tuple[int, datetime]] = OrderedDict()

    async def sign_up(self, name: Any, password: Any, email: Any) -> tuple[AccountRecord, str]:
        """A new account and a session token for it (400 bad name, password or e-mail;
        409 the name is taken, whatever its case)."""
        shown, key = account_name(name)
        check_password(password, key)
        address = clean_email(email)
        if await asyncio.to_thread(self.repo.account_by_key, key) is not None:
            raise ApiError(409, f"the name {shown!r} is taken (names ignore case)")
        hashed = await asyncio.to_thread(self.hasher.hash, password)
        try:
            account = await asyncio.to_thread(self.repo.create_account, shown, key, hashed, address)
        except NameTaken as error:
            raise ApiError(409, f"the name {shown!r} is taken (names ignore case)") from error
        return account, await self.open_session(account.id)

    async def sign_in(self, name: Any, password: Any, address: str) -> tuple[AccountRecord, str]:
        """The account and a new session token; 401 for a wrong name or password (which,
        it does not say), 429 once the failed sign-ins are used up."""
        if not isinstance(name, str) or not isinstance(password, str):
            raise ApiError(401, "wrong name or password")
        key = name_key(name.strip())[:100]
        self.limits.check(key, address)
        account = await asyncio.to_thread(self.repo.account_by_key, key)
        if account is not None and account.is_bot:
            # Bots are shown as bots everywhere: saying so tells nothing secret.
            raise ApiError(401, f"{account.name!r} is a bot account: {BOT_HAS_NO_PASSWORD}")
        if not await self.verify(account, password):
            self.limits.failed(key, address)
            raise ApiError(401, "wrong name or password")
        assert account is not None
        return account, await self.open_session(account.id)

    async def verify(self, account: AccountRecord | None, password: str) -> bool:
        if len(password) > MAX_PASSWORD:
            password = password[: MAX_PASSWORD + 1]  # still wrong, and cheap to hash
        if account is None and self._dummy_hash is None:
            self._dummy_hash = await asyncio.to_thread(self.hasher.hash, new_token())
        stored = account.password_hash if account is not None else self._dummy_hash
        assert stored is not None
        valid, new_hash = await asyncio.to_thread(self.hasher.verify_and_update, password, stored)
        if account is None or not valid:
            return False
        if new_hash is not None:  # the cost changed since: store the stronger hash
            await asyncio.to_thread(self.repo.update_account, account.id, password_hash=new_hash)
        return True

    async def open_session(self, account_id: int, days: int = SESSION_DAYS) -> str:
        token = new_token()
        expires = datetime.now(UTC) + timedelta(days=days)
        await asyncio.to_thread(self.repo.create_session, hash_session(token), account_id, expires)
        self._remember(hash_session(token), account_id, expires)
        return token

    async def sign_out(self, token: str | None) -> None:
        if not token:
            return
        digest = hash_session(token)
        self._sessions.pop(digest, None)
        await asyncio.to_thread(self.repo.delete_sessions, session_hash=digest)

    async def account_id(self, token: str | None) -> int | None:
        """The account a session token opens (None: none, unknown or expired)."""
        if not token or len(token) > 200:
            return None
        digest = hash_session(token)
        found = self._sessions.get(digest)
        if found is None:
            found = await asyncio.to_thread(self.repo.session, digest)
            if found is None:
                return None
            self._remember(digest, *found)
        else:
            self._sessions.move_to_end(digest)
        account_id, expires = found
        if expires <= datetime.now(UTC):
            self._sessions.pop(digest, None)
            return None
        return account_id

    def _remember(self, digest: str, account_id: int, expires: datetime) -> None:
        self._sessions[digest] = (account_id, expires)
        while len(self._sessions) > MAX_CACHED_SESSIONS:
            self._sessions.popitem(last=False)

    async def account(self, token: str | None) -> AccountRecord | None:
        account_id = await self.account_id(token)
        if account_id is None:
            return None
        return await asyncio.to_thread(self.repo.account_by_id, account_id)

    # ---- bot accounts ---------------------------------------------------------------
    async def create_bot(self, owner: AccountRecord, name: Any) -> tuple[AccountRecord, str]:
        """A bot account owned by ``owner`` and its token (403 the owner is a bot itself,
        400 a bad name, 409 a taken one, 429 the owner has the most bots allowed)."""
        if owner.is_bot:
            raise ApiError(403, "a bot account cannot make bots: its owner, signed in, can")
        shown, key = account_name(name)
        owned = await asyncio.to_thread(self.repo.bots_of, owner.id)
        if len(owned) >= MAX_BOTS_PER_OWNER:
            raise ApiError(
                429,
                f"you have {len(owned)} bot accounts, the most one may have "
                f"({MAX_BOTS_PER_OWNER}): use one of them (a new token: POST "
                "/api/me/bots/NAME/token)",
            )
        if await asyncio.to_thread(self.repo.account_by_key, key) is not None:
            raise ApiError(409, f"the name {shown!r} is taken (names ignore case)")
        # A password nobody knows: the column stays a real hash, and a bot never signs in.
        unusable = await asyncio.to_thread(self.hasher.hash, new_token())
        try:
            bot = await asyncio.to_thread(
                self.repo.create_account, shown, key, unusable, None, owner.id
            )
        except NameTaken as error:
            raise ApiError(409, f"the name {shown!r} is taken (names ignore case)") from error
        return bot, await self.open_session(bot.id, BOT_TOKEN_DAYS)

    async def bots_of(self, owner: AccountRecord) -> list[AccountRecord]:
        return await asyncio.to_thread(self.repo.bots_of, owner.id)

    async def new_bot_token(self, owner: AccountRecord, name: str) -> tuple[AccountRecord, str]:
        """A new token for one of ``owner``'s bots; its other tokens stop working (404 no
        such bot of this owner)."""
        bot = await asyncio.to_thread(self.repo.account_by_key, name_key(name.strip())[:100])
        if bot is None or bot.owner_id != owner.id:
            raise ApiError(404, f"you have no bot account named {name!r}")
        self._forget_sessions(bot.id)
        await asyncio.to_thread(self.repo.delete_sessions, account_id=bot.id)
        return bot, await self.open_session(bot.id, BOT_TOKEN_DAYS)

    def _forget_sessions(self, account_id: int, keep: str | None = None) -> None:
        for digest in [d for d, (a, _) in self._sessions.items() if a == account_id]:
            if digest != keep:
                del self._sessions[digest]

    async def update(
        self, account: AccountRecord, session: str, changes: dict[str, Any], address: str
    ) -> AccountRecord:
        """Change e-mail, notify, password (with the old one: 403 if wrong; the account's
        other sessions are then closed). A bot has neither password nor e-mail (403)."""
        if account.is_bot and (changes.get("password") is not None or "email" in changes):
            raise ApiError(403, f"a bot account has no password nor e-mail: {BOT_ACTS_WITH_TOKEN}")
        values: dict[str, Any] = {}
        if "email" in changes:
            values["email"] = clean_email(changes["email"])
        if "notify" in changes:
            if not isinstance(changes["notify"], bool):
                raise ApiError(400, "notify is true or false")
            values["notify"] = changes["notify"]
        new_password = changes.get("password")
        if new_password is not None:
            check_password(new_password, account.name_key)
            old = changes.get("old_password")
            if not isinstance(old, str):
                raise ApiError(400, "give your current password as old_password to change it")
            self.limits.check(account.name_key, address)
            if not await self.verify(account, old):
                self.limits.failed(account.name_key, address)
                raise ApiError(403, "the current password (old_password) is wrong")
            values["password_hash"] = await asyncio.to_thread(self.hasher.hash, new_password)
        if values:
            await asyncio.to_thread(self.repo.update_account, account.id, **values)
        if "password_hash" in values:  # every other browser signs in again
            keep = hash_session(session)
            self._forget_sessions(account.id, keep)
            await asyncio.to_thread(self.repo.delete_sessions, account_id=account.id, keep=keep)
        fresh = await asyncio.to_thread(self.repo.account_by_id, account.id)
        assert fresh is not None
        return fresh


def me(account: AccountRecord) -> JsonDict:
    return {
        "name": account.name,
        "email": account.email,
        "notify": account.notify,
        "bot": account.is_bot,
    }
