"""Djambi in words for the game log and the end screen, in English and French.

``describe`` tells an action (before it is applied), ``events`` what followed it (read by
comparing the states before and after, ``changes.py``): deaths and where the corpse went,
players put out and who took their pieces (D8), vassals (D10), the centre taken or lost
(D9), a revival earned (D12), the quiet rounds running out (D11), the end. ``ending`` says
why a finished game ended.

Seats are named "player N" / "joueur N" (0-based, as in actions) and pieces by their owner's
seat ("the Reporter of player 2"): the page shows each such mention as the seat's badge and
name. Djambi hides nothing but whose each corpse is (D12): a corpse is never named after
its piece once it lies on the board. The French words are those of djambi.fr.txt: le Chef,
l'Assassin, le Reporter, le Diplomate, le Nécromobile, les Militants; un cadavre; faire
éclater un scandale.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from machiavel.games.djambi.board import (
    ASSASSIN,
    CENTRE,
    COLOUR_OF,
    DIPLOMAT,
    KIND_OF,
    MOVE_ACTION_SQUARES,
    PASS,
    PIECE_NAMES,
    REVIVE_WORD,
    SCANDAL,
    SQUARE_ACTIONS,
    SQUARE_INDEX,
    SQUARE_NAMES,
)
from machiavel.games.djambi.changes import (
    Death,
    deaths,
    eliminations,
    vassal_change,
)
from machiavel.games.djambi.position import VASSAL

if TYPE_CHECKING:
    from machiavel.games.djambi.rules import DjambiState

KINDS_EN = ("Chief", "Assassin", "Reporter", "Diplomat", "Necromobile", "Militant")
KINDS_FR = ("Chef", "Assassin", "Reporter", "Diplomate", "Nécromobile", "Militant")
# D11: the quiet rounds left at which the log warns that the game is running out.
QUIET_WARNINGS = (10, 5, 1)


def describe(state: DjambiState, player: int, action: str, language: str) -> str:
    """An action of ``player`` about to be applied, in a sentence naming the seat."""
    words = FRENCH if language == "fr" else ENGLISH
    return f"{words.seat(player)} {_action(state, player, action, words)}"


def _action(state: DjambiState, player: int, action: str, words: Words) -> str:
    from machiavel.games.djambi import rules  # rules imports this module

    board = state.board
    squares = MOVE_ACTION_SQUARES.get(action)
    if squares is not None:
        origin, target = squares
        piece, other = board[origin], board[target]
        mine = words.piece(piece, player)
        if state.phase == rules.EXIT:
            return words.left_centre(mine, target, words.piece(other) if other > 0 else "")
        if other == 0:
            return words.moved(mine, origin, target)
        if other < 0:
            return words.took_corpse(mine, origin, target)
        if KIND_OF[piece] == DIPLOMAT:
            return words.took_up(mine, origin, target, words.piece(other, player))
        return words.killed_moving(mine, origin, target, words.piece(other))
    square = SQUARE_ACTIONS.get(action)
    if square is not None:
        if action.startswith("kill "):
            reporter = words.piece(board[state.actor], player)
            return words.reporter_killed(words.piece(board[square]), square, reporter)
        if state.hand > 0:
            return words.put_down(words.piece(state.hand, player), square)
        return words.put_corpse(square)
    if action == SCANDAL:
        return words.scandal(words.piece(board[state.actor], player), state.actor)
    if action == PASS:
        if state.phase != rules.MOVE:
            return words.spared(words.piece(board[state.actor], player))
        colour = state.moving_colour()
        return words.passed(colour if colour >= 0 and colour != player else -1)
    revived = _revival(state, action)
    if revived is not None:
        corpse, target, code = revived
        return words.revived(words.piece(code, player), corpse, target)
    return words.played


def _revival(state: DjambiState, action: str) -> tuple[int, int, int] | None:
    """D12 ``revive <corpse> <square>``: the squares and the piece that stands up again
    (once up, everybody sees which piece it is)."""
    parts = action.split()
    if len(parts) != 3 or parts[0] != REVIVE_WORD:
        return None
    if parts[1] not in SQUARE_INDEX or parts[2] not in SQUARE_INDEX:
        return None
    corpse, target = SQUARE_INDEX[parts[1]], SQUARE_INDEX[parts[2]]
    code = -state.board[corpse]
    if code not in PIECE_NAMES:  # not a corpse, or one nobody knows
        return None
    return corpse, target, code


# ---- what followed ----------------------------------------------------------------------
def events(
    before: DjambiState, after: DjambiState, player: int, action: str, language: str
) -> list[str]:
    """Lines for what followed ``action`` of ``player`` (``after`` is the state it made)."""
    words = FRENCH if language == "fr" else ENGLISH
    died = deaths(before, after, player, action)
    lines = _corpse_lines(before, action, died.direct, words)
    lines += [words.reporter_victim(words.piece(c), s) for s, c in died.by_reporter]
    if died.by_scandal:
        lines.append(words.scandal_victims([words.piece_on(c, s) for s, c in died.by_scandal]))
    lines += [words.walled_in(words.piece(c), s) for s, c in died.walled_in]
    lines += [words.died(words.piece(c), s) for s, c in died.other]
    lines += [
        _elimination(out, heir, colours, words)
        for out, heir, colours in eliminations(before, after)
    ]
    if after.over:
        lines.append(ending(after, language))
        return lines
    lines += _centre_lines(before, after, words)
    lines += _vassal_lines(before, after, words)
    lines += _revival_lines(before, after, player, words)
    lines += _quiet_lines(before, after, words)
    return lines


def _corpse_lines(
    before: DjambiState, action: str, direct: tuple[Death, ...], words: Words
) -> list[str]:
    """Where the corpse went when the action itself put it down: an Assassin's victim lies
    where the Assassin came from (D4), which is the centre when it kills on its way out."""
    squares = MOVE_ACTION_SQUARES.get(action)
    if not direct or squares is None:
        return []
    origin, _ = squares
    if KIND_OF[before.board[origin]] != ASSASSIN:
        return []
    return [words.assassin_corpse(origin)]


def _elimination(out: int, heir: int, colours: list[int], words: Words) -> str:
    if heir == VASSAL:
        return words.out_vassals(out, colours)
    return words.out_heir(out, heir, colours)


def _centre_lines(before: DjambiState, after: DjambiState, words: Words) -> list[str]:
    """D9: a Chief reaching the centre (and the extra turns it earns), or leaving it."""
    was, now = before.holder(), after.holder()
    if was == now:
        return []
    lines = []
    if was >= 0 and after.in_game(was):
        lines.append(words.centre_lost(was))
    if now >= 0:
        lines.append(words.centre_taken(now, len(after.players_in_game()) >= 3))
    return lines


def _vassal_lines(before: DjambiState, after: DjambiState, words: Words) -> list[str]:
    """D10: who commands the vassals, when new ones appear or their master changes."""
    vassals, master = vassal_change(before, after)
    if not vassals:
        return []
    return [words.vassals_obey(vassals, master)]


def _revival_lines(before: DjambiState, after: DjambiState, player: int, words: Words) -> list[str]:
    """D12: a revival earned by a third kill, taken right after the turn."""
    from machiavel.games.djambi import rules  # rules imports this module

    if after.phase != rules.REVIVE or after.current != player:
        return []
    return [words.may_revive(player, after.kills[player], before.phase == rules.REVIVE)]


def _quiet_lines(before: DjambiState, after: DjambiState, words: Words) -> list[str]:
    """D11: a warning when a quiet round ends with 10, 5 or 1 quiet rounds left."""
    if after.quiet <= before.quiet:
        return []
    per_round = after.turns_per_round()
    done = after.quiet // per_round
    left = after.quiet_rounds - done
    if done <= before.quiet // per_round or left not in QUIET_WARNINGS:
        return []
    return [words.quiet_rounds(done, left)]


# ---- the end ----------------------------------------------------------------------------
def ending(state: DjambiState, language: str) -> str:
    """D11: why a finished game ended, and the winner's margin where there is one."""
    words = FRENCH if language == "fr" else ENGLISH
    winners = list(state.winners)
    reason = state.end_reason
    if reason == "last Chief standing":
        return words.last_chief(winners[0], _pieces_commanded(state, winners[0]))
    if reason == "quiet rounds, centre held":
        return words.quiet_centre(state.quiet_rounds, winners[0])
    if reason == "quiet rounds, shared draw":
        return words.quiet_draw(state.quiet_rounds, winners)
    return words.no_chief_left(winners)


def _pieces_commanded(state: DjambiState, player: int) -> int:
    """The living pieces of every colour ``player`` controls."""
    return sum(1 for v in state.board if v > 0 and state.controllers[COLOUR_OF[v]] == player)


# ---- English and French -----------------------------------------------------------------
class Words:
    """The phrases of one language; ``ENGLISH`` and ``FRENCH`` are its instances."""

    played = "played"

    def seat(self, player: int) -> str:
        return f"player {player}"

    def kind(self, code: int) -> str:
        return KINDS_EN[KIND_OF[code]]

    def rounds(self, count: int) -> str:
        return f"{count} round" if count == 1 else f"{count} rounds"

    def seats(self, players: list[int]) -> str:
        names = [self.seat(p) for p in players]
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

    def piece(self, code: int, mover: int = -1) -> str:
        """``their Chief`` when the piece is the mover's own colour, else ``the Chief of
        player 2``."""
        if COLOUR_OF[code] == mover:
            return f"their {self.kind(code)}"
        return f"the {self.kind(code)} of {self.seat(COLOUR_OF[code])}"

    def square(self, square: int) -> str:
        return "the centre (e5)" if square == CENTRE else SQUARE_NAMES[square]

    def piece_on(self, code: int, square: int) -> str:
        return f"{self.piece(code)} on {self.square(square)}"

    def moved(self, piece: str, origin: int, target: int) -> str:
        return f"moved {piece} from {self.square(origin)} to {self.square(target)}"

    def took_corpse(self, piece: str, origin: int, target: int) -> str:
        return f"{self.moved(piece, origin, target)} and took up the corpse there"

    def took_up(self, piece: str, origin: int, target: int, victim: str) -> str:
        return f"{self.moved(piece, origin, target)} and took up {victim}"

    def killed_moving(self, piece: str, origin: int, target: int, victim: str) -> str:
        return f"{self.moved(piece, origin, target)} and killed {victim}"

    def left_centre(self, piece: str, target: int, victim: str) -> str:
        line = f"moved {piece} out of the centre (e5) to {self.square(target)}"
        return f"{line} and killed {victim}" if victim else line

    def reporter_killed(self, victim: str, square: int, reporter: str) -> str:
        return f"killed {victim} on {self.square(square)} with {reporter}"

    def put_down(self, piece: str, square: int) -> str:
        return f"put {piece} down on {self.square(square)}"

    def put_corpse(self, square: int) -> str:
        return f"put the corpse down on {self.square(square)}"

    def scandal(self, reporter: str, square: int) -> str:
        return f"caused a scandal with {reporter} on {self.square(square)}"

    def spared(self, reporter: str) -> str:
        return f"chose no victim for {reporter}"

    def passed(self, colour: int) -> str:
        if colour >= 0:
            return f"passed the turn of the pieces of {self.seat(colour)}: none of them can move"
        return "passed: none of their pieces can move"

    def revived(self, piece: str, corpse: int, target: int) -> str:
        return (
            f"raised {piece} from the dead: the corpse on {self.square(corpse)} "
            f"stands up on {self.square(target)}"
        )

    # events
    def assassin_corpse(self, square: int) -> str:
        return f"The corpse lies on {self.square(square)}, where the Assassin came from"

    def reporter_victim(self, victim: str, square: int) -> str:
        return (
            f"The Reporter then killed {victim} on {self.square(square)}, next to it; "
            "the corpse stays there"
        )

    def scandal_victims(self, victims: list[str]) -> str:
        return f"The scandal killed {self._and(victims)}"

    def walled_in(self, chief: str, square: int) -> str:
        return f"{_capital(chief)} on {self.square(square)} was walled in with no way out and died"

    def died(self, piece: str, square: int) -> str:
        return f"{_capital(piece)} on {self.square(square)} died"

    def out_heir(self, out: int, heir: int, colours: list[int]) -> str:
        return (
            f"{_capital(self.seat(out))} is out of the game: {self.seat(heir)} takes over "
            f"the pieces of {self.seats(colours)}"
        )

    def out_vassals(self, out: int, colours: list[int]) -> str:
        return (
            f"{_capital(self.seat(out))} is out of the game: the pieces of {self.seats(colours)} become "
            "vassals, which obey whoever holds the centre"
        )

    def centre_taken(self, holder: int, extra_turns: bool) -> str:
        line = f"The Chief of {self.seat(holder)} now holds the centre"
        if extra_turns:
            line += f": {self.seat(holder)} plays an extra turn after each other player's turn"
        return line

    def centre_lost(self, holder: int) -> str:
        return f"{_capital(self.seat(holder))} no longer holds the centre"

    def vassals_obey(self, colours: list[int], master: int) -> str:
        pieces = f"the vassal pieces of {self.seats(colours)}"
        if master >= 0:
            return f"{_capital(pieces)} obey {self.seat(master)} while they hold the centre"
        return f"Nobody may move or touch {pieces} while nobody holds the centre"

    def may_revive(self, player: int, kills: int, again: bool) -> str:
        if again:
            return f"{_capital(self.seat(player))} may raise one more of their dead pieces"
        return (
            f"{_capital(self.seat(player))} has killed {kills} enemy pieces: they may raise one of "
            "their dead pieces in their starting corner"
        )

    def quiet_rounds(self, done: int, left: int) -> str:
        rounds = "round" if left == 1 else f"{left} rounds"
        return (
            f"No piece has died for {self.rounds(done)}: if none dies in the next {rounds}, the game "
            "ends, won by whoever then holds the centre (a draw if nobody does)"
        )

    def last_chief(self, winner: int, pieces: int) -> str:
        return (
            f"{_capital(self.seat(winner))} wins: their Chief is the last one standing, with {pieces} "
            f"living {'piece' if pieces == 1 else 'pieces'} under their command"
        )

    def quiet_centre(self, rounds: int, winner: int) -> str:
        return (
            f"No piece died for {self.rounds(rounds)} in a row: {self.seat(winner)} wins, as their "
            "Chief holds the centre"
        )

    def quiet_draw(self, rounds: int, winners: list[int]) -> str:
        return (
            f"No piece died for {self.rounds(rounds)} in a row and nobody holds the centre: "
            f"{self.seats(winners)} share a draw"
        )

    def no_chief_left(self, winners: list[int]) -> str:
        return (
            "The last Chiefs died in the same turn: "
            f"{self.seats(winners)}, still in the game when it began, share a draw"
        )

    def _and(self, items: list[str]) -> str:
        return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


class French(Words):
    played = "a joué"

    def seat(self, player: int) -> str:
        return f"joueur {player}"

    def kind(self, code: int) -> str:
        return KINDS_FR[KIND_OF[code]]

    def rounds(self, count: int) -> str:
        return f"{count} tour de table" if count == 1 else f"{count} tours de table"

    def seats(self, players: list[int]) -> str:
        return self._and([self.seat(p) for p in players])

    def piece(self, code: int, mover: int = -1) -> str:
        """``son Chef``, ``le Chef du joueur 2``, ``l'Assassin du joueur 2``."""
        kind = self.kind(code)
        if COLOUR_OF[code] == mover:
            return f"son {kind}"
        article = "l'" if kind[0] in "AEIOUÉ" else "le "
        return f"{article}{kind} du {self.seat(COLOUR_OF[code])}"

    def at(self, square: int) -> str:
        return "au centre (e5)" if square == CENTRE else f"en {SQUARE_NAMES[square]}"

    def from_(self, square: int) -> str:
        return "du centre (e5)" if square == CENTRE else f"de {SQUARE_NAMES[square]}"

    def to(self, square: int) -> str:
        return "au centre (e5)" if square == CENTRE else f"à {SQUARE_NAMES[square]}"

    def piece_on(self, code: int, square: int) -> str:
        return f"{self.piece(code)} {self.at(square)}"

    def moved(self, piece: str, origin: int, target: int) -> str:
        return f"a déplacé {piece} {self.from_(origin)} {self.to(target)}"

    def took_corpse(self, piece: str, origin: int, target: int) -> str:
        return f"{self.moved(piece, origin, target)} et y a pris le cadavre"

    def took_up(self, piece: str, origin: int, target: int, victim: str) -> str:
        return f"{self.moved(piece, origin, target)} et a pris {victim}"

    def killed_moving(self, piece: str, origin: int, target: int, victim: str) -> str:
        return f"{self.moved(piece, origin, target)} et a tué {victim}"

    def left_centre(self, piece: str, target: int, victim: str) -> str:
        line = f"a fait sortir {piece} du centre (e5) {self.to(target)}"
        return f"{line} et y a tué {victim}" if victim else line

    def reporter_killed(self, victim: str, square: int, reporter: str) -> str:
        return f"a tué {victim} {self.at(square)} avec {reporter}"

    def put_down(self, piece: str, square: int) -> str:
        return f"a posé {piece} {self.at(square)}"

    def put_corpse(self, square: int) -> str:
        return f"a posé le cadavre {self.at(square)}"

    def scandal(self, reporter: str, square: int) -> str:
        return f"a fait éclater un scandale avec {reporter} {self.at(square)}"

    def spared(self, reporter: str) -> str:
        return f"n'a choisi aucune victime pour {reporter}"

    def passed(self, colour: int) -> str:
        if colour >= 0:
            return f"a passé le tour des pièces du {self.seat(colour)} : aucune ne peut bouger"
        return "a passé : aucune de ses pièces ne peut bouger"

    def revived(self, piece: str, corpse: int, target: int) -> str:
        return f"a ressuscité {piece} : le cadavre {self.at(corpse)} se relève {self.at(target)}"

    # events
    def assassin_corpse(self, square: int) -> str:
        return f"Le cadavre reste {self.at(square)}, d'où venait l'Assassin"

    def reporter_victim(self, victim: str, square: int) -> str:
        return (
            f"Le Reporter a alors tué {victim} {self.at(square)}, à côté de lui ; "
            "le cadavre reste sur place"
        )

    def scandal_victims(self, victims: list[str]) -> str:
        return f"Le scandale a tué {self._and(victims)}"

    def walled_in(self, chief: str, square: int) -> str:
        return f"{_capital(chief)} {self.at(square)}, encerclé sans issue, est mort"

    def died(self, piece: str, square: int) -> str:
        return f"{_capital(piece)} {self.at(square)} est mort"

    def out_heir(self, out: int, heir: int, colours: list[int]) -> str:
        owners = self._and([f"du {self.seat(c)}" for c in colours])
        return (
            f"{_capital(self.seat(out))} est éliminé : {self.seat(heir)} prend le contrôle "
            f"des pièces {owners}"
        )

    def out_vassals(self, out: int, colours: list[int]) -> str:
        owners = self._and([f"du {self.seat(c)}" for c in colours])
        return (
            f"{_capital(self.seat(out))} est éliminé : les pièces {owners} deviennent "
            "vassales et obéissent à qui tient le centre"
        )

    def centre_taken(self, holder: int, extra_turns: bool) -> str:
        line = f"Le Chef du {self.seat(holder)} tient maintenant le centre"
        if extra_turns:
            line += (
                f" : {self.seat(holder)} joue un tour de plus après le tour de chaque autre joueur"
            )
        return line

    def centre_lost(self, holder: int) -> str:
        return f"{_capital(self.seat(holder))} ne tient plus le centre"

    def vassals_obey(self, colours: list[int], master: int) -> str:
        owners = self._and([f"du {self.seat(c)}" for c in colours])
        if master >= 0:
            return (
                f"Les pièces vassales {owners} obéissent à {self.seat(master)} tant qu'il "
                "tient le centre"
            )
        return (
            f"Personne ne peut déplacer ni toucher les pièces vassales {owners} tant que "
            "personne ne tient le centre"
        )

    def may_revive(self, player: int, kills: int, again: bool) -> str:
        if again:
            return f"{_capital(self.seat(player))} peut ressusciter une autre de ses pièces mortes"
        return (
            f"{_capital(self.seat(player))} a tué {kills} pièces ennemies : il peut ressusciter "
            "une de ses pièces mortes dans son coin de départ"
        )

    def quiet_rounds(self, done: int, left: int) -> str:
        rounds = (
            "le prochain tour de table" if left == 1 else f"les {left} prochains tours de table"
        )
        return (
            f"Aucune pièce n'est morte depuis {self.rounds(done)} : si aucune ne meurt dans "
            f"{rounds}, la partie s'arrête, gagnée par qui tiendra alors le centre (sinon "
            "match nul)"
        )

    def last_chief(self, winner: int, pieces: int) -> str:
        living = "pièce vivante" if pieces == 1 else "pièces vivantes"
        return (
            f"{_capital(self.seat(winner))} gagne : son Chef est le dernier en vie, avec "
            f"{pieces} {living} sous ses ordres"
        )

    def quiet_centre(self, rounds: int, winner: int) -> str:
        return (
            f"Aucune pièce n'est morte pendant {self.rounds(rounds)} : {self.seat(winner)} "
            "gagne, car son Chef tient le centre"
        )

    def quiet_draw(self, rounds: int, winners: list[int]) -> str:
        return (
            f"Aucune pièce n'est morte pendant {self.rounds(rounds)} et personne ne tient "
            f"le centre : {self.seats(winners)} font match nul"
        )

    def no_chief_left(self, winners: list[int]) -> str:
        return (
            "Les derniers Chefs sont morts dans le même tour : "
            f"{self.seats(winners)}, encore en lice à son début, font match nul"
        )

    def _and(self, items: list[str]) -> str:
        return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} et {items[-1]}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


ENGLISH = Words()
FRENCH = French()
