"""The game contract: what every game offers and what tools (bots, server, CLI) may rely on.

A *game* (``Game``) is metadata as data plus factories; a *state* (``State``) is a pure,
deterministic state machine. Players are indices ``0 .. players-1``. Actions are short
strings. ``to_move`` lists every player who may act now: one for ordinary turns, several
while players choose simultaneously, the same player across the steps of a multi-step
turn, another player when an answer is expected (a trade offer), none once the game is
over. What a player may know is exactly ``view(player)``; a bot gets only a ``Seat``.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from machiavel.core.errors import CorruptState, IllegalAction, InvalidSetup
from machiavel.core.fields import StateFields
from machiavel.core.rng import Rng, random_seed

if TYPE_CHECKING:
    from machiavel.bots.base import Bot

JsonDict = dict[str, Any]
FORMAT = "machiavel/1"
# The languages every game describes its actions in (``State.describe``); the first is the
# default. The words themselves belong to each game.
LANGUAGES: tuple[str, ...] = ("en", "fr")
StateT = TypeVar("StateT", bound="State")
# What a resampled world's history holds in place of another player's action.
HIDDEN_ACTION = "?"


@dataclass(frozen=True)
class Option:
    """A game option: its default and the values it accepts."""

    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def validate(self, value: Any) -> Any:
        if self.choices is not None:
            if value not in self.choices or type(value) is not type(self.default):
                allowed = ", ".join(json.dumps(c) for c in self.choices)
                raise InvalidSetup(
                    f"option {self.name!r} must be one of {allowed}, not {json.dumps(value)}"
                )
            return value
        if isinstance(self.default, int) and not isinstance(self.default, bool):
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidSetup(f"option {self.name!r} must be a whole number, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise InvalidSetup(f"option {self.name!r} must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise InvalidSetup(f"option {self.name!r} must be at most {self.maximum}")
        return value


@dataclass(frozen=True)
class Setup:
    """Everything needed to start a game; a stored game is its setup plus its actions."""

    game: str
    players: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    position: JsonDict | None = None

    def to_json(self) -> JsonDict:
        data: JsonDict = {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
        }
        if self.position is not None:
            data["position"] = self.position
        return data


class Seat:
    """One player's information set: all a bot is given.

    It offers what that player may see and do, never the state itself.
    """

    __slots__ = ("_state", "game", "player")

    def __init__(self, state: State, player: int) -> None:
        self._state = state
        self.player = player
        self.game = state.game.id

    def view(self) -> JsonDict:
        return self._state.view(self.player)

    def legal_actions(self) -> list[str]:
        return self._state.legal_actions(self.player)

    def resample(self, rng: Rng) -> State:
        """A complete state this player cannot tell apart from the true one."""
        return self._state.resample(self.player, rng)


class State(ABC):
    """A position of a game, with its setup and history. Mutated only through ``apply``."""

    # Each game declares its state's own fields once, with how ``clone`` copies each and
    # whether ``to_json`` saves it (core/fields.py); every attribute set outside this class
    # must be declared there (the conformance suite checks it).
    fields: ClassVar[StateFields]
    BASE_FIELDS: ClassVar[frozenset[str]] = frozenset(
        {"game", "setup", "history", "_legal_cache", "_legal_sets"}
    )

    def __init__(self, game: Game, setup: Setup) -> None:
        self.game = game
        self.setup = setup
        self.history: list[tuple[int, str]] = []
        self._legal_cache: dict[int, list[str]] = {}
        self._legal_sets: dict[int, frozenset[str]] = {}

    # ---- what each game implements -------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Players who may act now; empty once the game is over."""

    @abstractmethod
    def _legal(self, player: int) -> list[str]:
        """Legal actions of a player who is in ``to_move``."""

    @abstractmethod
    def _play(self, player: int, action: str) -> None:
        """Carry out an action already known to be legal."""

    @abstractmethod
    def _view(self, player: int | None) -> JsonDict:
        """The game-specific part of what ``player`` (None: a spectator) may know."""

    def _public_view(self) -> JsonDict:
        """The keys of ``_view`` that every viewer, spectators included, gets alike.

        A game whose views are mostly alike returns those keys here, the rest from
        ``_private_view``, and writes ``_view`` as the two together: a server then builds
        and encodes the common part once a version rather than once a viewer. ``{}`` by
        default: all of ``_view`` is then the viewer's own."""
        return {}

    def _private_view(self, player: int | None) -> JsonDict:
        """The keys of ``_view`` that are not in ``_public_view`` (by default all)."""
        return self._view(player)

    @property
    @abstractmethod
    def scores(self) -> list[float]:
        """One number per player."""

    def estimate(self) -> list[float]:
        """Each player's standing, comparable across players, before the game is over.

        Search bots that cut play-outs short value the position by it. The default is
        ``scores``; a game whose scores say nothing until the end (Djambi) overrides it.
        """
        return self.scores

    @property
    @abstractmethod
    def winners(self) -> tuple[int, ...]:
        """Winning players once the game is over (several: shared win or draw)."""

    def _snapshot(self) -> JsonDict:
        """Every saved field of the state, randomness included, as JSON-safe data."""
        return self.fields.snapshot(self)

    def normalize_action(self, action: str) -> str:
        """The canonical spelling of an action (games may accept variants)."""
        return " ".join(action.split())

    def explain_illegal(self, player: int, action: str) -> str:
        """Why an action is refused; games override to say more."""
        legal = self._legal_list(player)
        shown = ", ".join(legal[:12]) + (", ..." if len(legal) > 12 else "")
        return f"{action!r} is not a legal action now; legal actions: {shown}"

    def _describe(self, player: int, action: str, viewer: int | None, language: str) -> str:
        """``describe`` for a language known to be one of ``LANGUAGES``.

        The default shows the action itself: games override it to say it in words, and
        games whose actions carry hidden information must (a Tyrus tile placed face down
        is only "a tile in your citadel").
        """
        if language == "fr":
            return f"joueur {player} : {action}"
        return f"player {player}: {action}"

    def describe(self, player: int, action: str, viewer: int | None, language: str = "en") -> str:
        """An action of ``player`` (about to be applied) in words, as ``viewer`` may know it,
        in ``language`` (one of ``LANGUAGES``; any other raises ``ValueError``).

        A line tells ``viewer`` nothing their view will not show once the action is
        applied, in every language.
        """
        _check_language(language)
        # Every spelling ``apply`` accepts reads as the canonical action it plays.
        return self._describe(player, self.normalize_action(action), viewer, language)

    def describe_for_all(
        self, player: int, action: str, viewers: Sequence[int | None], language: str = "en"
    ) -> list[str]:
        """``describe`` for each of ``viewers`` in turn, in ``language``: the same lines,
        with the language checked and the action's spelling read once (the log of an
        action is written for every viewer at once)."""
        _check_language(language)
        canonical = self.normalize_action(action)
        return [self._describe(player, canonical, viewer, language) for viewer in viewers]

    def _events(
        self, before: State, player: int, action: str, viewer: int | None, language: str
    ) -> list[str]:
        """``events`` for a language known to be one of ``LANGUAGES``. The default: none."""
        return []

    def events(
        self, before: State, player: int, action: str, viewer: int | None, language: str = "en"
    ) -> list[str]:
        """What followed ``action`` of ``player``, beyond the action itself, in lines of
        words for ``viewer`` in ``language``: an election's result with its arithmetic, a
        count, a round's scoring, a death, an elimination. ``self`` is the state after the
        action, ``before`` a copy of the state it was played on.

        Like ``describe``, a line tells ``viewer`` nothing their view does not show.
        """
        _check_language(language)
        return self._events(before, player, action, viewer, language)

    def _events_for_all(
        self,
        before: State,
        player: int,
        action: str,
        viewers: Sequence[int | None],
        language: str,
    ) -> list[list[str]]:
        """``events_for_all`` for a language known to be one of ``LANGUAGES``. The
        default asks ``_events`` for each viewer; a game whose lines are mostly the same
        for everyone may work those out once."""
        return [self._events(before, player, action, viewer, language) for viewer in viewers]

    def events_for_all(
        self,
        before: State,
        player: int,
        action: str,
        viewers: Sequence[int | None],
        language: str = "en",
    ) -> list[list[str]]:
        """``events`` for each of ``viewers`` in turn, in ``language``: the same lines as
        asking each viewer's (the log of an action is written for every viewer at once)."""
        _check_language(language)
        return self._events_for_all(before, player, action, viewers, language)

    def _before_action(self) -> State:
        """What ``narrate`` keeps of this state, about to be played on, for ``_events``
        (or ``_events_for_all``) and ``_marks`` to read as ``before``: a clone by default.
        A game whose events and marks read only a few fields of ``before`` may copy just
        those (the log is written at every action)."""
        return self.clone()

    def _marks(self, before: State, player: int, action: str) -> JsonDict:
        """``marks``; the default marks nothing."""
        return {}

    def marks(self, before: State, player: int, action: str) -> JsonDict:
        """Where the page marks the move just played (``self`` after it, ``before`` a copy
        of the state it was played on), as JSON-safe data that every viewer may see:
        Djambi's path and corpse square, Tyros's route and what was built... Each game
        documents its keys (docs/games/<game>.md)."""
        return self._marks(before, player, action)

    def _ending(self, language: str) -> str:
        """``ending`` for a game that is over, in a language of ``LANGUAGES``."""
        winners = ", ".join(str(p) for p in self.winners)
        if language == "fr":
            return f"Partie terminée ; gagnant : joueur {winners}."
        return f"The game is over; winner: player {winners}."

    def ending(self, language: str = "en") -> str | None:
        """Why the game ended and by what margin, in a sentence or two (None while it goes
        on). Tie-breaks are named only when one decided the game."""
        _check_language(language)
        return self._ending(language) if self.is_over else None

    def _resample(self: StateT, player: int, rng: Rng) -> StateT:
        """``resample`` for a valid player: games with hidden information override this; a
        game without any returns a clone."""
        return self.clone()

    def resample(self: StateT, player: int, rng: Rng) -> StateT:
        """A state ``player`` cannot tell apart from this one, hidden things redrawn.

        The world's history keeps ``player``'s own actions and only who acted for the
        others (``HIDDEN_ACTION``): an action may hold what the view hides (a tile placed
        face down), and nothing in a world may depend on more than ``player`` knows.
        """
        self._check_player(player)
        world = self._resample(player, rng)
        world.history = [(p, a if p == player else HIDDEN_ACTION) for p, a in self.history]
        return world

    # ---- provided by the contract --------------------------------------------------
    @property
    def players(self) -> int:
        return self.setup.players

    @property
    def version(self) -> int:
        """Number of actions applied: a stale client's version no longer matches."""
        return len(self.history)

    @property
    def is_over(self) -> bool:
        return not self.to_move

    def legal_actions(self, player: int) -> list[str]:
        if type(player) is int and player in self.to_move:
            return list(self._legal_list(player))
        self._check_player(player)
        return []

    def apply(self, player: int, action: str) -> None:
        """Play ``action`` for ``player``; raise ``IllegalAction`` and change nothing if refused."""
        if type(player) is not int or type(action) is not str or player not in self.to_move:
            raise IllegalAction(self._why_not_now(player, action))
        canonical = self.normalize_action(action)
        if not self._is_legal(player, canonical):
            raise IllegalAction(self.explain_illegal(player, canonical))
        self._play(player, canonical)
        self.history.append((player, canonical))
        self._legal_cache.clear()
        self._legal_sets.clear()

    def play_legal(self, player: int, action: str) -> None:
        """``apply`` for an action taken as is from ``legal_list(player)`` of this very
        state, without checking it a second time.

        Search plays thousands of such actions a second in worlds it owns; anything else
        (a person's action, a stored one) goes through ``apply``, which refuses what is
        illegal. An action from anywhere else leaves the state undefined.
        """
        self._play(player, action)
        self.history.append((player, action))
        self._legal_cache.clear()
        self._legal_sets.clear()

    def random_playout(self, rng: Rng, limit: int) -> int:
        """Play uniformly random actions until the game is over or ``limit`` actions are
        played; return how many were.

        Each step takes a random player among those to move (``rng.choice(to_move)`` when
        there are several), then ``rng.choice`` of their legal list, and plays it. A game
        may override this with a faster loop that draws exactly the same numbers and plays
        exactly the same actions (the conformance suite compares the two): search's random
        play-outs are most of its time.
        """
        played = 0
        while played < limit:
            movers = self.to_move
            if not movers:
                break
            player = movers[0] if len(movers) == 1 else rng.choice(movers)
            self.play_legal(player, rng.choice(self._legal_list(player)))
            played += 1
        return played

    def legal_list(self, player: int) -> Sequence[str]:
        """``legal_actions(player)`` for a player in ``to_move``, without the copy: the
        state's own list, valid until the next action and never to be changed."""
        return self._legal_list(player)

    def _why_not_now(self, player: object, action: object) -> str:
        """Why ``player`` may not act at all now (before looking at the action itself)."""
        if not isinstance(player, int) or isinstance(player, bool):
            return f"player must be a player number, not {player!r}"
        if not 0 <= player < self.players:
            return (
                f"there is no player {player} in a {self.players}-player game "
                f"(players are 0 to {self.players - 1})"
            )
        if not isinstance(action, str):
            return f"an action is a string, not {type(action).__name__}"
        if self.is_over:
            return "the game is over: no more actions are accepted"
        names = ", ".join(str(p) for p in self.to_move)
        return f"it is not player {player}'s turn (waiting for player {names})"

    def _is_legal(self, player: int, action: str) -> bool:
        """Whether a canonical action is legal for a player in ``to_move``.

        Exactly ``action in legal_actions(player)``; games may answer faster.
        """
        legal = self._legal_sets.get(player)
        if legal is None:
            legal = frozenset(self._legal_list(player))
            self._legal_sets[player] = legal
        return action in legal

    def view(self, player: int | None) -> JsonDict:
        """What ``player`` may know (None: a spectator); JSON-safe."""
        if player is not None:
            self._check_player(player)
        data: JsonDict = {"game": self.game.id, "viewer": player}
        self._add_common_keys(data)
        data.update(self._view(player))
        return data

    def public_view(self) -> JsonDict:
        """The part of every viewer's ``view`` that is the same for all of them: the
        common keys but ``viewer``, and ``_public_view``. A new dict at every call."""
        data: JsonDict = {"game": self.game.id}
        self._add_common_keys(data)
        data.update(self._public_view())
        return data

    def _add_common_keys(self, data: JsonDict) -> None:
        """The keys every view has after ``game`` and ``viewer``, in their order."""
        data["players"] = self.players
        data["version"] = self.version
        data["to_move"] = list(self.to_move)
        data["is_over"] = self.is_over
        data["winners"] = list(self.winners)
        data["scores"] = list(self.scores)

    def private_view(self, player: int | None) -> JsonDict:
        """The rest of ``view(player)``: ``viewer`` and ``_private_view``. The two parts
        have no key in common, and ``{**public_view(), **private_view(player)}`` equals
        ``view(player)`` (the conformance suite checks both)."""
        if player is not None:
            self._check_player(player)
        data: JsonDict = {"viewer": player}
        data.update(self._private_view(player))
        return data

    def seat(self, player: int) -> Seat:
        self._check_player(player)
        return Seat(self, player)

    def clone(self: StateT) -> StateT:
        other = self._blank()
        other.history = self.history[:]
        self.fields.copy(self, other)
        return other

    def _blank(self: StateT) -> StateT:
        """A state of this game and setup whose own fields ``clone`` has yet to set. A state
        class compiled with mypyc (speedups.py) overrides it: such a class is only ever made
        through its ``__init__``."""
        other = self.__class__.__new__(self.__class__)
        State.__init__(other, self.game, self.setup)
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game and setup, then its history and declared fields (bot moves are
        worked out in other processes): pickle's default would make the state without
        ``__init__``, which a state class compiled with mypyc (speedups.py) does not allow.
        The fields come after, set once the state exists, so one may refer to the state;
        through a function of ours, as a compiled class has its own ``__setstate__``."""
        fields = {name: getattr(self, name) for name in self.fields}
        saved = (self.history, fields)
        return (_unpickled_state, (self.game.id, self.setup), saved, None, None, _set_fields)

    def __deepcopy__(self: StateT, memo: dict[int, Any]) -> StateT:
        """``copy.deepcopy`` of a state is its ``clone`` (which copies what may change and
        shares what never does, as the game's fields declare)."""
        return self.clone()

    def to_json(self) -> JsonDict:
        return {
            "format": FORMAT,
            "game": self.game.id,
            "setup": self.setup.to_json(),
            "history": [[p, a] for p, a in self.history],
            "state": self._snapshot(),
        }

    def _legal_list(self, player: int) -> list[str]:
        cached = self._legal_cache.get(player)
        if cached is None:
            cached = self._legal(player)
            self._legal_cache[player] = cached
        return cached

    def _check_player(self, player: int) -> None:
        if not isinstance(player, int) or isinstance(player, bool):
            raise InvalidSetup(f"a player is a number, not {player!r}")
        if not 0 <= player < self.players:
            raise InvalidSetup(
                f"there is no player {player} in a {self.players}-player game "
                f"(players are 0 to {self.players - 1})"
            )

    def __repr__(self) -> str:
        return f"<{self.game.id} state, {self.version} actions, to move {self.to_move}>"


class Game(ABC):
    """A game's metadata (as data) and its factories."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[Option, ...]] = ()
    summary: ClassVar[str] = ""
    # Defaults a search bot uses for this game unless told otherwise (see docs/bots.md):
    # e.g. {"rollout": "heuristic"} where the heuristic is cheap and much better than chance.
    search_hints: ClassVar[dict[str, Any]] = {}
    # The version of the rules as this code plays them: raised whenever a change of the
    # rules could make a stored game (its setup and actions) replay differently. Every
    # stored game records the version it was created under (docs/server.md).
    rules_version: ClassVar[int] = 1

    @property
    def options(self) -> dict[str, Any]:
        """Option names and their defaults."""
        return {o.name: o.default for o in self.option_specs}

    @abstractmethod
    def _initial_state(self, setup: Setup) -> State:
        """The state at the start of a game with this (validated) setup."""

    @abstractmethod
    def render(self, view: JsonDict) -> str:
        """A player's (or spectator's) view as text for a terminal."""

    def heuristic_bot(self, seed: int | None) -> Bot:
        """The game's own heuristic bot; games that have one override this."""
        from machiavel.bots.random_bot import RandomBot

        return RandomBot(seed)

    def new(
        self, players: int, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> State:
        setup = self.make_setup(players, seed, options)
        return self._initial_state(setup)

    def make_setup(
        self,
        players: int,
        seed: int | None,
        options: Mapping[str, Any] | None,
        position: JsonDict | None = None,
    ) -> Setup:
        if not isinstance(players, int) or isinstance(players, bool):
            raise InvalidSetup(f"the number of players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                allowed = f"exactly {self.min_players}"
            else:
                allowed = f"{self.min_players} to {self.max_players}"
            raise InvalidSetup(f"{self.title} is played by {allowed} players, not {players}")
        if seed is None:
            seed = random_seed()
        elif not isinstance(seed, int) or isinstance(seed, bool):
            raise InvalidSetup(f"the seed must be a whole number, not {seed!r}")
        return Setup(self.id, players, seed, self.validate_options(options), position)

    def validate_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise InvalidSetup(f"options must be a mapping of names to values, not {options!r}")
        specs = {o.name: o for o in self.option_specs}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            known = ", ".join(sorted(specs)) or "none"
            raise InvalidSetup(
                f"{self.title} has no option {', '.join(map(repr, unknown))} (options: {known})"
            )
        return {
            name: spec.validate(options.get(name, spec.default)) for name, spec in specs.items()
        }

    def state_from_setup(self, setup: Setup) -> State:
        """Start a game from a stored setup (validated again: stored data may be corrupt)."""
        checked = self.make_setup(setup.players, setup.seed, setup.options, setup.position)
        return self._initial_state(checked)

    def replay(self, setup: Setup, actions: Sequence[tuple[int, str]]) -> State:
        """The state reached by playing ``actions`` from ``setup``; raises on an illegal one."""
        state = self.state_from_setup(setup)
        for number, (player, action) in enumerate(actions, start=1):
            try:
                state.apply(player, action)
            except IllegalAction as error:
                raise CorruptState(
                    f"action #{number} ({action!r} by player {player}) is illegal: {error}"
                ) from error
        return state

    def from_json(self, data: JsonDict | str | bytes) -> State:
        """Rebuild a state from ``to_json()`` output (a dict or its JSON text).

        The state is replayed from its setup and history, then checked against the stored
        snapshot, so a corrupt or tampered file is refused rather than half-loaded.
        """
        record = _parse_record(data, self.id)
        setup = _parse_setup(record["setup"], self.id)
        actions = _parse_history(record.get("history", []))
        try:
            state = self.replay(setup, actions)
        except InvalidSetup as error:
            raise CorruptState(f"the saved setup is invalid: {error}") from error
        stored = record.get("state")
        if stored is not None and stored != state._snapshot():
            raise CorruptState("the stored state does not match what its setup and history give")
        return state

    def __repr__(self) -> str:
        return f"<game {self.id}: {self.title}, {self.min_players}-{self.max_players} players>"


def _unpickled_state(game_id: str, setup: Setup) -> State:
    """A state of ``setup`` for ``_set_fields`` to fill (``State.__reduce__``)."""
    from machiavel.core.registry import game  # the registry imports this module

    return game(game_id).state_from_setup(setup)


def _set_fields(state: State, saved: tuple[list[tuple[int, str]], dict[str, Any]]) -> None:
    state.history, fields = saved
    for name, value in fields.items():
        setattr(state, name, value)


def _check_language(language: str) -> None:
    if language not in LANGUAGES:
        raise ValueError(
            f"no log in language {language!r}: the languages are {', '.join(LANGUAGES)}"
        )


def _parse_record(data: JsonDict | str | bytes, game_id: str) -> JsonDict:
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise CorruptState(f"not valid JSON: {error}") from error
    if not isinstance(data, dict):
        raise CorruptState("a saved game is a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise CorruptState(f"unknown format {data.get('format')!r} (expected {FORMAT!r})")
    if data.get("game", game_id) != game_id:
        raise CorruptState(f"this is a saved game of {data.get('game')!r}, not {game_id!r}")
    if "setup" not in data:
        raise CorruptState("a saved game needs its 'setup'")
    return data


def _parse_setup(raw: Any, game_id: str) -> Setup:
    if not isinstance(raw, dict):
        raise CorruptState("'setup' must be an object")
    try:
        players, seed = raw["players"], raw["seed"]
    except KeyError as error:
        raise CorruptState(f"'setup' lacks {error.args[0]!r}") from error
    options = raw.get("options", {})
    position = raw.get("position")
    if not isinstance(options, dict) or (position is not None and not isinstance(position, dict)):
        raise CorruptState("'setup' options and position must be objects")
    if raw.get("game", game_id) != game_id:
        raise CorruptState(f"setup is for {raw.get('game')!r}, not {game_id!r}")
    return Setup(game_id, players, seed, options, position)


def _parse_history(raw: Any) -> list[tuple[int, str]]:
    if not isinstance(raw, list):
        raise CorruptState("'history' must be a list of [player, action] pairs")
    actions: list[tuple[int, str]] = []
    for number, item in enumerate(raw, start=1):
        if (
            not isinstance(item, list | tuple)
            or len(item) != 2
            or not isinstance(item[0], int)
            or not isinstance(item[1], str)
        ):
            raise CorruptState(f"history entry #{number} is not a [player, action] pair: {item!r}")
        actions.append((item[0], item[1]))
    return actions
