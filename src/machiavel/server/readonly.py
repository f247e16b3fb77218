"""Stored games that no longer replay, served read-only.

A stored game is its setup plus its actions, replayed whenever it is loaded. When that
replay fails (a stored action the game now refuses, a setup it no longer accepts, an
engine failing, a game this server lacks), usually because the game's rules changed since
(``Game.rules_version``), the game is not lost and does not break anything else: it is
shown as far as it still replays, with a message saying why it stops there, and nothing
may be played in it (docs/server.md, "Read-only games").

What is shown keeps the rule that nothing secret leaves the server: views and log lines
come from the state reached by the actions that still replay, as for a live game; a
stored action is given as text only to the seat that played it, or to anyone once the
stored game was over (as the replay of a finished game reveals everything).
"""

from __future__ import annotations

from collections.abc import Sequence

from machiavel.core.contract import Game, JsonDict, Setup, State
from machiavel.core.errors import IllegalAction
from machiavel.core.narration import narrate
from machiavel.server.live import (
    LOG_KEYS,
    LiveGame,
    LogLines,
    Viewer,
    seat_of_token,
)
from machiavel.server.storage import GameRecord

STATUS = "read-only"


class ReadOnlyGame:
    """A stored game that no longer replays: what can be shown of it, and why."""

    def __init__(
        self,
        record: GameRecord,
        actions: Sequence[tuple[int, str]],
        spec: Game | None,
        shown: LiveGame | None,
        message: str,
        detail: str,
    ) -> None:
        self.record = record
        self.actions = list(actions)
        self.spec = spec
        self.shown = shown  # the game as it stands after the actions that still replay
        self.message = message  # why, for anyone (nothing secret in it)
        self.detail = detail  # why, in full, for the server's log

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def replayed(self) -> int:
        """How many stored actions still replay (those shown)."""
        return self.shown.state.version if self.shown is not None else 0

    def player_of(self, token: str) -> int | None:
        """The seat a token opens, or None (as ``LiveGame.player_of``)."""
        return seat_of_token(self.record.seats, token)

    def payload(self, viewer: Viewer, log_from: int = 0) -> JsonDict:
        """The state payload as ``viewer`` may see it, made read-only.

        The usual keys: ``view`` and the log (from line ``log_from`` on) as of the last
        action that still replays (``replayed`` of them; no view at all if not even the
        setup does), ``version`` the number of stored actions, nobody to move, no legal
        action. Plus ``status`` ("read-only"), ``message``, ``setup`` and ``actions``
        (the stored ones, ``[player, action or null]``).
        """
        record = self.record
        data: JsonDict
        if self.shown is not None:
            data = self.shown.payload(viewer, log_from)
        else:
            data = {
                "id": record.id,
                "game": record.game,
                "view": None,
                "player": viewer,
                "seats": [seat.public() for seat in record.seats],
                "log_start": 0,
                **{key: [] for key in LOG_KEYS},
            }
        setup: JsonDict = {
            "players": record.players,
            "options": record.options,
            "rules_version": record.rules_version,
        }
        if record.is_over:  # as the replay of a finished game, which tells its seed
            setup["seed"] = record.seed
        data.update(
            {
                "version": len(self.actions),
                "to_move": [],
                "legal_actions": [],
                "is_over": record.is_over,
                "winners": [],
                "status": STATUS,
                "message": self.message,
                "seed_chosen": record.seed_chosen,
                "replayed": self.replayed,
                "current_rules_version": self.spec.rules_version if self.spec else None,
                "setup": setup,
                "actions": [
                    [player, action if record.is_over or player == viewer else None]
                    for player, action in self.actions
                ],
            }
        )
        return data


def examine(
    spec: Game | None,
    record: GameRecord,
    actions: Sequence[tuple[int, str]],
    failure: BaseException,
) -> ReadOnlyGame:
    """The read-only game for a stored game whose replay failed with ``failure``.

    ``spec`` is the game (None: this server has no such game). The replay is done again,
    as far as it goes, to find the first action that fails and to show the game before it.
    """
    if spec is None:
        reason = f"this server has no game {record.game!r}"
        return ReadOnlyGame(
            record, actions, None, None, f"this game can no longer be replayed: {reason}", reason
        )
    setup = Setup(record.game, record.players, record.seed, record.options)
    try:
        state = spec.state_from_setup(setup)
    except Exception as error:  # InvalidSetup: options and player count are public
        reason = f"its setup is no longer valid: {error}"
        return ReadOnlyGame(record, actions, spec, None, _message(spec, record, reason), reason)
    log: list[LogLines] = []
    reason = detail = ""
    for number, (player, action) in enumerate(actions, start=1):
        try:
            lines = narrate(state, player, action)
        except IllegalAction as error:
            reason = f"action #{number}, by player {player}, is illegal"
            detail = f"action #{number} ({action!r} by player {player}) is illegal: {error}"
            break
        except Exception as error:  # the engine failed: its state may be half-changed
            reason = f"the game engine fails on action #{number}, by player {player}"
            detail = f"{reason} ({action!r}): {error!r}"
            state = _replayed(spec, setup, actions[: number - 1])
            break
        log.append(lines)
    else:  # everything replays this time: say what failed the first time
        reason = "replaying it failed"
        detail = f"{reason}: {failure!r}"
    message = _message(spec, record, reason)
    return ReadOnlyGame(record, actions, spec, LiveGame(record, state, log), message, detail)


def _replayed(spec: Game, setup: Setup, actions: Sequence[tuple[int, str]]) -> State:
    state = spec.state_from_setup(setup)
    for player, action in actions:
        state.apply(player, action)
    return state


def _message(spec: Game, record: GameRecord, reason: str) -> str:
    if record.rules_version != spec.rules_version:
        return (
            f"this game was stored under rules version {record.rules_version} of {spec.title} "
            f"(this server plays version {spec.rules_version}) and can no longer be "
            f"replayed: {reason}"
        )
    return f"this game can no longer be replayed from what is stored: {reason}"
