"""Guildes rules as a pure state machine (rulings G1-G7 of shared/rules/RULINGS.md).

Cards of one guild are alike, so every hand, kept pile, tableau and pile is a list of nine
counts indexed by guild (see ``data``). Players are numbered clockwise: passing "to the
left" gives to player + 1, "to the right" to player - 1.

A round: deal (G1), drafting (G3, simultaneous), the Redistribution event if it is in
effect, placing (G3, simultaneous unless the event "Plus de pose simultanée"), the Coup
Tordu cards in letter order (G7), then the count (G4).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, combinations, compress
from typing import TYPE_CHECKING

from machiavel.core.contract import JsonDict, Setup, State
from machiavel.core.fields import CACHE, LIST, RNG, ROWS, SETTING, SHARED, StateFields
from machiavel.core.rng import Rng, prepare_blocks
from machiavel.games.guildes import actions as act
from machiavel.games.guildes.count import count_details, count_votes
from machiavel.games.guildes.data import (
    COPIES,
    DEALT,
    DRAW,
    EVENT_DIRECTIONS,
    EVENT_IDS,
    EXCHANGE,
    FACE_DOWN,
    GUILD_COUNT,
    GUILD_NAMES,
    IN_TURN,
    ONE_LESS,
    ONE_OR_TWO,
    PLAYED,
    PROTECTION,
    REDISTRIBUTION,
    REMOVED,
    SACRIFICE,
    SWAP,
    TEN_OR_MORE,
    TIES_IGNORED,
    TRICK_EXCLUDED_WITH,
    TRICK_GUILD,
    TRICK_LETTERS,
    TRICK_TITLES,
)
from machiavel.games.guildes.words import describe as describe_action

if TYPE_CHECKING:
    from machiavel.core.contract import Game
    from machiavel.games.guildes.hidden import Redraw

DRAFT, REDISTRIBUTE, PLACE, TRICKS, OVER = range(5)
PHASE_NAMES = ("draft", "redistribute", "place", "tricks", "over")
ROUNDS = 3
GUILDS = range(GUILD_COUNT)
EVERYONE = {n: tuple(range(n)) for n in range(1, 7)}  # who chooses at a simultaneous step


def combinations_by_size(players: range) -> chain[tuple[int, ...]]:
    """Every set of ``players`` as a sorted tuple, the empty one included."""
    return chain.from_iterable(combinations(players, size) for size in range(len(players) + 1))


def _without_each(waiting: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    return {player: tuple(q for q in waiting if q != player) for player in waiting}


# Who still has to choose once ``player`` has: STILL_WAITING[waiting][player], for every
# set of players (up to 6) in order, so that a choice makes no tuple.
STILL_WAITING = {
    waiting: _without_each(waiting) for waiting in combinations_by_size(range(max(EVERYONE)))
}


# Rng.below(bound) takes the first 64-bit draw under DRAW_LIMITS[bound] (a multiple of
# bound: every index equally likely), modulo bound; up to 9 guilds or 6 players.
DRAW_LIMITS = (0, *((1 << 64) - (1 << 64) % bound for bound in range(1, GUILD_COUNT + 1)))
SINGLE = tuple((guild,) for guild in GUILDS)  # a card chosen, as _play's actions.SIMPLE
# The history's entry for each player's one-card action, by the actions' table (as
# ``_one_card`` gives it): a play-out records shared tuples instead of making one an action.
HISTORY_ENTRIES = {
    actions: tuple(tuple((player, action) for action in actions) for player in range(6))
    for actions in (act.KEEP, act.PLACE, act.DISCARD)
}
prepare_blocks()  # random_playout reads Rng.upcoming's blocks: numpy loads with the game
PLAYOUT_DRAWS = 256  # draws worked out at once in a random play-out (about 350 in a game)


def _redraw(rng: Rng, draws: list[int], at: int, limit: int) -> tuple[int, list[int], int]:
    """``Rng.below``'s next tries once ``draws[at - 1]`` was refused (over ``limit``:
    about once in 2**61 draws), from the block while it lasts."""
    while True:
        if at == len(draws):
            rng.skip(at)
            draws, at = rng.upcoming(PLAYOUT_DRAWS), 0
        draw = draws[at]
        at += 1
        if draw < limit:
            return draw, draws, at


def zeros() -> list[int]:
    return [0] * GUILD_COUNT


def guilds_in(cards: Sequence[int]) -> list[int]:
    """The guilds of which ``cards`` holds at least one."""
    return [g for g in GUILDS if cards[g]]


def named(cards: Sequence[int]) -> dict[str, int]:
    """Counts as ``{guild name: number}``, only guilds present, in the count card's order."""
    return {GUILD_NAMES[g]: c for g, c in enumerate(cards) if c}


def names(guilds: Sequence[int]) -> list[str]:
    return [GUILD_NAMES[g] for g in guilds]


def describe(cards: Sequence[int]) -> str:
    return ", ".join(f"{c} {GUILD_NAMES[g]}" for g, c in enumerate(cards) if c) or "none"


class GuildesState(State):
    """A game of Guildes for 3 to 6 players."""

    fields = StateFields(
        n=SETTING,
        events_on=SETTING,  # G6
        tricks_on=SETTING,  # G7
        rng=RNG,
        round=SHARED,
        event=SHARED,
        direction=SHARED,
        event_order=SHARED,  # never changed in place
        phase=SHARED,
        waiting=SHARED,
        deck=LIST,
        packets=ROWS,
        packet_size=SHARED,
        kept=ROWS,
        pending=LIST,
        draft_log=LIST,  # rows are never changed in place
        tableau=ROWS,
        face_down=ROWS,
        placed_round=ROWS,
        last_reveal=LIST,  # rows are replaced, never changed
        place_done=SHARED,
        place_steps=SHARED,
        place_total=SHARED,
        batch=SHARED,
        seq_first=SHARED,
        seq_index=SHARED,
        red_out=LIST,
        red_in=LIST,
        discard=LIST,
        round_adds=LIST,
        hand_discarded=LIST,
        hand_discards=LIST,  # rows are replaced, never changed
        public_discards=LIST,
        e_record=LIST,
        d_record=LIST,
        records=LIST,
        scores_=LIST,
        counts_log=LIST,
        trick_log=LIST,
        tricks=LIST,
        prev_tricks=LIST,
        trick_letter=SHARED,
        drawn=LIST,
        modifiers=LIST,  # entries are never changed in place
        # resample's layouts of what each player knows, for this very state (hidden.py)
        layouts=CACHE,
    )

    def __init__(self, game: Game, setup: Setup, blank: bool = False) -> None:
        super().__init__(game, setup)
        if blank:
            return  # for ``_blank``: ``clone`` sets every field
        n = setup.players
        self.n = n
        self.events_on = bool(setup.options.get("events", False))
        self.tricks_on = bool(setup.options.get("dirty_tricks", False))
        rng = Rng(setup.seed)
        # G1: the cards removed for this player count never enter the game.
        self.deck = [g for g in GUILDS for _ in range(COPIES[g] - REMOVED[n][g])]
        rng.shuffle(self.deck)
        self.event_order = list(range(len(EVENT_IDS)))
        rng.shuffle(self.event_order)  # one event card a round, never the same twice
        self.rng = rng
        self.round = -1
        self.tableau = [zeros() for _ in range(n)]
        self.discard = zeros()
        self.scores_: list[float] = [0] * n
        self.counts_log: list[JsonDict] = []
        self.records: list[JsonDict] = []
        self.trick_log: list[JsonDict] = []
        self.tricks: list[int] = [-1] * n
        self.prev_tricks: list[int] = [-1] * n
        self.layouts: tuple[GuildesState, int, dict[int, Redraw]] | None = None
        self._begin_round()

    def _blank(self) -> GuildesState:
        return GuildesState(self.game, self.setup, blank=True)  # compiled: only through __init__

    # ---- rounds -----------------------------------------------------------------------
    def event_in_effect(self, event: int) -> bool:
        """G6: without the option, the event card only gives the direction."""
        return self.events_on and self.event == event

    def _begin_round(self) -> None:
        n = self.n
        self.round += 1
        self.event = self.event_order[self.round]
        self.direction = EVENT_DIRECTIONS[self.event]
        deal = DEALT[n]  # G1: new cards from the remaining deck every round
        self.packets = []
        deck = self.deck
        for _ in range(n):  # each hand the top ``deal`` cards (the end of the list)
            hand = zeros()
            for guild in deck[-deal:]:
                hand[guild] += 1
            del deck[-deal:]
            self.packets.append(hand)
        self.packet_size = deal
        self.kept = [zeros() for _ in range(n)]
        self.pending: list[tuple[int, ...] | None] = [None] * n
        self.draft_log: list[list[int]] = []
        self.face_down: list[list[int]] = [[] for _ in range(n)]
        self.placed_round = [zeros() for _ in range(n)]
        self.last_reveal: list[list[int]] = [[] for _ in range(n)]
        self.place_done = 0
        self.place_steps = 0
        self.place_total = PLAYED[n] - (1 if self.event_in_effect(ONE_LESS) else 0)
        self.batch = 1
        self.seq_first = -1
        self.seq_index = 0
        self.red_out = [-1] * n
        self.red_in = [-1] * n
        self.round_adds = zeros()
        self.hand_discarded = [False] * n
        self.hand_discards = [zeros() for _ in range(n)]
        self.public_discards = zeros()
        self.e_record = [-1, -1, -1]  # E this round: holder, card taken back, card placed
        self.d_record = [-1, -1, -1]  # D this round: holder, card placed, card returned
        self.modifiers: list[list[int]] = []  # F-I this round: [letter, player, +1 or -1]
        self.drawn: list[int] = []
        self.trick_letter = -1
        if self.tricks_on:
            self._deal_tricks()
        self.phase = DRAFT
        self.waiting: tuple[int, ...] = EVERYONE[n]

    def _deal_tricks(self) -> None:
        """G7: one Coup Tordu card each, never the one a player had last round; no I at 3."""
        cards = [c for c in range(len(TRICK_LETTERS)) if TRICK_EXCLUDED_WITH[c] != self.n]
        self.tricks = []
        for player in range(self.n):
            pick = self.rng.choice([c for c in cards if c != self.prev_tricks[player]])
            cards.remove(pick)
            self.tricks.append(pick)

    # ---- turn order -------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        return self.waiting

    def _carry_out_choices(self) -> None:
        """Everyone has made the simultaneous choice (``_play``): all are carried out."""
        if self.phase == DRAFT:
            self._resolve_draft()
        elif self.phase == REDISTRIBUTE:
            self._resolve_redistribution()
        else:
            self._resolve_placing()

    # ---- drafting (G3) ----------------------------------------------------------------
    def _resolve_draft(self) -> None:
        self._draft_step([choice[0] for choice in self.pending if choice is not None])

    def _draft_step(self, step: list[int]) -> None:
        """Every player keeps the card ``step`` says (``_resolve_draft``, or a random
        play-out's step straight from its draws); packets pass on."""
        self._keep_all(step)
        self._pass_packets()
        if self.packet_size == 1:  # the last card of each hand is simply kept
            self._keep_all([packet.index(1) for packet in self.packets])
        self.pending = [None] * self.n
        if self.packet_size == 0:
            self._end_draft()
        else:
            self.waiting = EVERYONE[self.n]

    def _keep_all(self, step: list[int]) -> None:
        packets, kept = self.packets, self.kept
        for player, guild in enumerate(step):
            packets[player][guild] -= 1
            kept[player][guild] += 1
        self.draft_log.append(step)
        self.packet_size -= 1

    def _pass_packets(self) -> None:
        """Player ``p``'s packet goes to ``p + direction``: a rotation of the list."""
        packets = self.packets
        if self.direction == 1:
            self.packets = packets[-1:] + packets[:-1]
        else:
            self.packets = packets[1:] + packets[:1]

    def _end_draft(self) -> None:
        if self.event_in_effect(REDISTRIBUTION):
            self.phase = REDISTRIBUTE
            self.waiting = EVERYONE[self.n]
        else:
            self._start_placing()

    def _resolve_redistribution(self) -> None:
        """Event Redistribution: the given cards are shuffled and one dealt to each player."""
        pile = []
        for player, choice in enumerate(self.pending):
            assert choice is not None
            self.kept[player][choice[0]] -= 1
            self.red_out[player] = choice[0]
            pile.append(choice[0])
        self.rng.shuffle(pile)
        for player, guild in enumerate(pile):
            self.kept[player][guild] += 1
            self.red_in[player] = guild
        self.pending = [None] * self.n
        self._start_placing()

    # ---- placing (G3) -----------------------------------------------------------------
    def _start_placing(self) -> None:
        self.phase = PLACE
        if self.event_in_effect(IN_TURN):
            # a player drawn at random begins, then play goes to the right (player - 1)
            self.seq_first = self.rng.below(self.n)
            self.seq_index = 0
            self.waiting = (self.seq_first,)
        else:
            self.batch = self._batch_size()
            self.waiting = EVERYONE[self.n]

    def _batch_size(self) -> int:
        """Cards each player places at this step: 1, or 2-1-2... with 'Pose d'une ou deux'.

        The book says 2 first, then 1, then 2; its 4-player example (7 cards) goes
        1-2-1-2-1. Both agree with: alternate so that the last step is full, beginning
        with 2 unless the total leaves 1 after whole pairs of steps.
        """
        if not self.event_in_effect(ONE_OR_TWO):
            return 1
        first = 1 if self.place_total % 3 == 1 else 2
        size = first if self.place_steps % 2 == 0 else 3 - first
        return min(size, self.place_total - self.place_done)

    def _resolve_placing(self) -> None:
        face_down = self.event_in_effect(FACE_DOWN)
        last = self.place_done + self.batch >= self.place_total
        kept_rows, placed_rows, tableaux = self.kept, self.placed_round, self.tableau
        for player, choice in enumerate(self.pending):
            assert choice is not None
            kept, placed, tableau = kept_rows[player], placed_rows[player], tableaux[player]
            for guild in choice:
                kept[guild] -= 1
                placed[guild] += 1
                if not face_down:  # shown at once
                    tableau[guild] += 1
            if face_down:
                revealed = self._turn_over(player, choice, last)
                for guild in revealed:
                    tableau[guild] += 1
            else:
                revealed = list(choice)
            self.last_reveal[player] = revealed
        self.place_done += self.batch
        self.place_steps += 1
        self.pending = [None] * self.n
        if self.place_done >= self.place_total:
            self._end_placing()
        else:
            self.batch = self._batch_size()
            self.waiting = EVERYONE[self.n]

    def _turn_over(self, player: int, choice: tuple[int, ...], last: bool) -> list[int]:
        """Event 'face down': the previous card is revealed, this one stays face down (all
        revealed at the last step); returns the cards revealed now."""
        revealed = self.face_down[player]
        if last:
            self.face_down[player] = []
            return revealed + list(choice)
        self.face_down[player] = list(choice)
        return revealed

    def _place_in_turn(self, player: int, guild: int) -> None:
        """Event 'Plus de pose simultanée': each in turn, the card shown at once."""
        self.kept[player][guild] -= 1
        self.tableau[player][guild] += 1
        self.placed_round[player][guild] += 1
        self.last_reveal[player] = [guild]
        self.seq_index += 1
        if self.seq_index == self.n:  # everyone placed: the first player moves right
            self.seq_index = 0
            self.place_done += 1
            self.seq_first = (self.seq_first - 1) % self.n
        if self.place_done >= self.place_total:
            self._end_placing()
        else:
            self.waiting = ((self.seq_first - self.seq_index) % self.n,)

    def _end_placing(self) -> None:
        if self.tricks_on:
            # G7: unplayed cards stay in hand until their owner's Coup Tordu turn.
            self.phase = TRICKS
            self.trick_letter = -1
            self._next_trick()
        else:
            self._discard_hands()
            self._count()

    def _discard_hands(self) -> None:
        """Everyone's unplaced cards at once (``_discard_hand`` for each player)."""
        n = self.n
        for guild, cards in enumerate(zip(*self.kept, strict=True)):
            thrown = sum(cards)
            self.discard[guild] += thrown
            self.round_adds[guild] += thrown
        self.hand_discards = self.kept
        self.kept = [zeros() for _ in range(n)]
        self.hand_discarded = [True] * n

    def _discard_hand(self, player: int) -> None:
        hand = self.kept[player]
        for guild in GUILDS:
            self.discard[guild] += hand[guild]
            self.round_adds[guild] += hand[guild]
        self.hand_discards[player] = hand
        self.kept[player] = zeros()
        self.hand_discarded[player] = True

    # ---- Coup Tordu (G7) --------------------------------------------------------------
    def holder(self, letter: int) -> int:
        """Who holds the Coup Tordu card ``letter`` this round, or -1."""
        return self.tricks.index(letter) if letter in self.tricks else -1

    def protected(self) -> int:
        """A, Protection: its holder is immune to every other Coup Tordu card."""
        return self.holder(PROTECTION) if self.tricks_on else -1

    def targets(self) -> list[int]:
        shielded = self.protected()
        return [p for p in range(self.n) if p != shielded]

    def _next_trick(self) -> None:
        """The next card in letter order whose holder has a choice; then the count."""
        while True:
            self.trick_letter += 1
            letter = self.trick_letter
            if letter >= len(TRICK_LETTERS):
                self._count()
                return
            holder = self.holder(letter)
            if holder < 0:
                continue
            if letter == PROTECTION or not self._trick_possible(holder, letter):
                self._discard_hand(holder)  # nothing to decide: Protection is passive
                continue
            self.waiting = (holder,)
            return

    def _trick_possible(self, holder: int, letter: int) -> bool:
        tab = self.tableau
        if letter == SWAP:
            targets = self.targets()
            return any(
                len(set(guilds_in(tab[a])) | set(guilds_in(tab[b]))) >= 2
                and any(tab[a])
                and any(tab[b])
                for i, a in enumerate(targets)
                for b in targets[i + 1 :]
            )
        if letter == SACRIFICE:
            own = tab[holder]
            if not any(own[g] for g in TEN_OR_MORE):
                return False
            others = any(any(tab[t]) for t in self.targets() if t != holder)
            return others or sum(own) >= 2
        if letter == DRAW:
            return sum(self.discard) > 0
        if letter == EXCHANGE:
            placed, hand = guilds_in(tab[holder]), guilds_in(self.kept[holder])
            return any(x != y for x in placed for y in hand)
        return True  # F-I: '+1' on oneself is always possible

    def _trick_actions(self, holder: int) -> list[str]:
        if self.drawn:
            return [act.PLACE[g] for g in sorted(set(self.drawn))]
        letter, tab = self.trick_letter, self.tableau
        targets = self.targets()
        actions = [act.PASS]
        if letter == SWAP:
            for i, a in enumerate(targets):
                for b in targets[i + 1 :]:
                    for ga in guilds_in(tab[a]):
                        for gb in guilds_in(tab[b]):
                            if ga != gb:
                                actions.append(f"swap {a} {GUILD_NAMES[ga]} {b} {GUILD_NAMES[gb]}")
        elif letter == SACRIFICE:
            own = tab[holder]
            for g in TEN_OR_MORE:
                if own[g]:
                    for t in targets:
                        for h in guilds_in(tab[t]):
                            if t != holder or h != g or own[g] >= 2:
                                actions.append(f"sacrifice {GUILD_NAMES[g]} {t} {GUILD_NAMES[h]}")
        elif letter == DRAW:
            if sum(self.discard):
                actions.append(act.DRAW)
        elif letter == EXCHANGE:
            for x in guilds_in(tab[holder]):
                for y in guilds_in(self.kept[holder]):
                    if x != y:
                        actions.append(f"exchange {GUILD_NAMES[x]} {GUILD_NAMES[y]}")
        else:
            guild = TRICK_GUILD[letter]
            for t in targets:
                actions.append(f"plus {t}")
                if tab[t][guild]:
                    actions.append(f"minus {t}")
        return actions

    def _play_trick(self, player: int, verb: str, numbers: tuple[int, ...], action: str) -> None:
        letter, tab = self.trick_letter, self.tableau
        if verb == "draw":
            self._draw_from_discard(min(2, sum(self.discard)))
            self.trick_log.append(self._log_entry(player, action))
            return  # the same player now places one of the drawn cards
        if verb == "place":  # after D's draw: place one, the other goes back
            guild = numbers[0]
            tab[player][guild] += 1
            self.drawn.remove(guild)
            returned = self.drawn[0] if self.drawn else -1
            if returned >= 0:
                self.discard[returned] += 1
            self.d_record = [player, guild, returned]
            self.drawn = []
        elif verb == "swap":
            a, ga, b, gb = numbers
            tab[a][ga] -= 1
            tab[b][ga] += 1
            tab[b][gb] -= 1
            tab[a][gb] += 1
        elif verb == "sacrifice":
            own, target, guild = numbers
            tab[player][own] -= 1
            tab[target][guild] -= 1
            for card in (own, guild):
                self.discard[card] += 1
                self.round_adds[card] += 1
                self.public_discards[card] += 1
        elif verb == "exchange":
            back, out = numbers
            tab[player][back] -= 1
            self.kept[player][back] += 1
            self.kept[player][out] -= 1
            tab[player][out] += 1
            self.e_record = [player, back, out]
        elif verb in ("plus", "minus"):
            self.modifiers.append([letter, numbers[0], 1 if verb == "plus" else -1])
        self.trick_log.append(self._log_entry(player, action))
        self._discard_hand(player)  # G7: unplayed cards go once the card is used or not
        self._next_trick()

    def _log_entry(self, player: int, action: str) -> JsonDict:
        return {
            "round": self.round + 1,
            "card": TRICK_LETTERS[self.trick_letter],
            "player": player,
            "action": action,
        }

    def _draw_from_discard(self, how_many: int) -> None:
        """D: the discard pile is shuffled and cards drawn from it, unseen by others."""
        for _ in range(how_many):
            index = self.rng.below(sum(self.discard))
            for guild in GUILDS:
                index -= self.discard[guild]
                if index < 0:
                    self.discard[guild] -= 1
                    self.drawn.append(guild)
                    break

    # ---- the count (G4) ---------------------------------------------------------------
    def counted_tableaux(self) -> list[list[int]]:
        """The tableaux as counted: F-I's '+1'/'-1' are virtual cards for this count."""
        counted = [row[:] for row in self.tableau]
        for letter, player, delta in self.modifiers:
            guild = TRICK_GUILD[letter]
            counted[player][guild] = max(0, counted[player][guild] + delta)
        return counted

    def _count(self) -> None:
        counted = self.counted_tableaux()
        ignore_ties = self.event_in_effect(TIES_IGNORED)
        votes = count_votes(self.round, counted, ignore_ties)
        for player, gained in enumerate(votes):
            self.scores_[player] += gained
        self.counts_log.append(
            {"round": self.round + 1, "tableaux": [named(t) for t in counted], "votes": votes}
        )
        self.records.append(self._round_record())
        self.prev_tricks = list(self.tricks)
        self.modifiers = []
        if self.round == ROUNDS - 1:
            self.phase = OVER
            self.waiting = ()
        else:
            self._begin_round()

    def count_detail(self, index: int) -> JsonDict:
        """Count ``index`` of ``counts_log`` guild by guild (``count.count_details``), for
        people to read: worked out when asked, since search holds thousands of counts
        nobody reads."""
        entry = self.counts_log[index]
        round_index = entry["round"] - 1
        counted = [[row.get(name, 0) for name in GUILD_NAMES] for row in entry["tableaux"]]
        ignore_ties = self.events_on and self.event_order[round_index] == TIES_IGNORED
        return {"ties_ignored": ignore_ties, **count_details(round_index, counted, ignore_ties)}

    def _round_record(self) -> JsonDict:
        """What a finished round leaves for ``resample`` to know what each player saw."""
        return {
            "direction": self.direction,
            "draft_log": self.draft_log,
            "placed": self.placed_round,
            "red_out": self.red_out,
            "red_in": self.red_in,
            "hand_discards": self.hand_discards,
            "public_discards": self.public_discards,
            "e": self.e_record,
            "d": self.d_record,
        }

    def card_totals(self) -> list[int]:
        """Every guild card of the game wherever it is (for checks: always G1's deck)."""
        total = self.discard[:]
        for card in self.deck + self.drawn:
            total[card] += 1
        for player in range(self.n):
            for cards in (self.packets[player], self.kept[player], self.tableau[player]):
                for guild in GUILDS:
                    total[guild] += cards[guild]
            for card in self.face_down[player]:
                total[card] += 1
        return total

    # ---- the contract -----------------------------------------------------------------
    def normalize_action(self, action: str) -> str:
        if action in act.SIMPLE:
            return action
        return act.normalize(action)

    def _is_legal(self, player: int, action: str) -> bool:
        """The frequent actions answered from the counts; the rest from the legal list."""
        listed = self._legal_cache.get(player)
        if listed is not None and len(listed) < 16:  # just listed: a short scan is quickest
            return action in listed
        simple = act.SIMPLE.get(action)
        phase = self.phase
        if simple is None or phase == TRICKS:
            return super()._is_legal(player, action)
        verb, guilds = simple
        if phase == DRAFT:
            return verb == "keep" and self.packets[player][guilds[0]] > 0
        kept = self.kept[player]
        if phase == REDISTRIBUTE:
            return verb == "discard" and kept[guilds[0]] > 0
        if verb != "place" or len(guilds) != self.batch:  # batch is 1 when placing in turn
            return False
        if len(guilds) == 2 and guilds[0] == guilds[1]:
            return kept[guilds[0]] >= 2
        return all(kept[g] > 0 for g in guilds)

    def _one_card(self) -> tuple[list[list[int]], tuple[str, ...]] | None:
        """When those to move choose one card of a guild: each player's counts chosen
        from and the action of each guild (a player's legal actions, in this order, are
        the guilds held); None for the other choices (two cards placed at once, Coup
        Tordu cards)."""
        phase = self.phase
        if phase == DRAFT:
            return self.packets, act.KEEP
        if phase == PLACE:
            return (self.kept, act.PLACE) if self.batch == 1 else None
        if phase == REDISTRIBUTE:
            return self.kept, act.DISCARD
        return None

    def _legal(self, player: int) -> list[str]:
        one_card = self._one_card()
        if one_card is not None:
            rows, actions = one_card
            # compress: the action of each guild held (counts are never negative)
            return list(compress(actions, rows[player]))
        if self.phase == PLACE:
            kept = self.kept[player]
            held = guilds_in(kept)
            return [
                act.PLACE_PAIR[a][b]
                for i, a in enumerate(held)
                for b in held[i:]
                if a != b or kept[a] >= 2
            ]
        return self._trick_actions(player)

    def _play(self, player: int, action: str) -> None:
        phase = self.phase
        if phase == TRICKS:
            verb, numbers = act.parse(action)
            self._play_trick(player, verb, numbers, action)
            return
        # Drafting, Redistribution and placing take only the simple actions.
        self._choose(player, act.SIMPLE[action][1])

    def _choose(self, player: int, guilds: tuple[int, ...]) -> None:
        """A card kept, given or placed (two at once with 'Pose d'une ou deux')."""
        if self.seq_first >= 0:  # placing in turn (-1 in every round until then)
            self._place_in_turn(player, guilds[0])
            return
        # A simultaneous choice, kept face down until everyone has chosen.
        self.pending[player] = guilds
        self.waiting = STILL_WAITING[self.waiting][player]
        if not self.waiting:
            self._carry_out_choices()

    def random_playout(self, rng: Rng, limit: int) -> int:
        """The contract's loop, the same draws and the same actions, without its strings:
        search plays about 180 random actions an iteration, and the contract's step (legal
        list, choice of a string, parsing it back) costs as much as the rules themselves.

        Where one card is chosen (``_one_card``: nearly every action), the index drawn
        into the legal list is taken into the guilds held, in the list's order; other
        steps are the contract's own. Each ``rng.choice(items)`` is written out as
        ``Rng.below`` draws: ``next_u64`` until under ``DRAW_LIMITS[len(items)]``; the
        draws are read from blocks ``rng.upcoming`` works out at once.
        """
        if limit <= 0 or not self.waiting:
            return 0
        self._legal_cache.clear()  # as play_legal leaves them; the loop adds to neither
        self._legal_sets.clear()
        record, limits = self.history.append, DRAW_LIMITS
        draws: list[int] = []  # rng's coming draws; ``at`` of them used
        at = played = 0
        while played < limit and (waiting := self.waiting):
            one_card = self._one_card()
            if one_card is None:  # two cards placed at once, Coup Tordu: rare
                rng.skip(at)  # the contract's step draws from rng itself
                draws, at = [], 0
                player = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
                self.play_legal(player, rng.choice(self._legal_list(player)))
                played += 1
                continue
            rows, actions = one_card
            entries = HISTORY_ENTRIES[actions]
            # Those waiting choose one after another in random order (placing in turn:
            # the one player waiting). ``left`` is ``waiting`` as each choice leaves it
            # (``_choose``: STILL_WAITING), without a look-up.
            in_turn, pending, left = self.seq_first >= 0, self.pending, list(waiting)
            player = guild = -1
            choices = min(len(left), limit - played)
            # A whole drafting step (nearly every one): the cards kept go straight to the
            # step, not through ``pending``.
            whole_draft = self.phase == DRAFT and choices == len(left) == self.n
            step = [0] * len(left) if whole_draft else []
            if at + 2 * choices > len(draws):  # two draws a choice (bar a rare redraw)
                rng.skip(at)
                draws, at = rng.upcoming(PLAYOUT_DRAWS), 0
            for count in range(len(left), len(left) - choices, -1):  # count: len(left)
                if count == 1:
                    player = left.pop()
                else:
                    draw = draws[at]
                    at += 1
                    if draw >= limits[count]:
                        draw, draws, at = _redraw(rng, draws, at, limits[count])
                    player = left.pop(draw % count)
                held = list(compress(GUILDS, rows[player]))  # the legal list's guilds
                options = len(held)
                draw = draws[at]
                at += 1
                if draw >= limits[options]:
                    draw, draws, at = _redraw(rng, draws, at, limits[options])
                guild = held[draw % options]
                record(entries[player][guild])
                if whole_draft:
                    step[player] = guild
                elif not in_turn:  # a simultaneous choice, kept until everyone has chosen
                    pending[player] = SINGLE[guild]
            played += choices
            if in_turn:
                self._place_in_turn(player, guild)
            elif whole_draft:
                self._draft_step(step)
            else:
                self.waiting = tuple(left)
                if not left:
                    self._carry_out_choices()
        rng.skip(at)
        return played

    def explain_illegal(self, player: int, action: str) -> str:
        try:
            verb, numbers = act.parse(action)
        except act.ActionError as error:
            return f"{error}; {self._what_now(player)}"
        phase = self.phase
        if phase == DRAFT:
            if verb != "keep":
                return f"now is the drafting: {self._what_now(player)}"
            return (
                f"the hand you draft from has no {GUILD_NAMES[numbers[0]]} "
                f"(it holds {describe(self.packets[player])})"
            )
        if phase == REDISTRIBUTE:
            if verb != "discard":
                return f"now is the Redistribution event: {self._what_now(player)}"
            return (
                f"you have no {GUILD_NAMES[numbers[0]]} (your cards: {describe(self.kept[player])})"
            )
        if phase == PLACE:
            if verb != "place":
                return f"now is the placing: {self._what_now(player)}"
            if len(numbers) != self.batch:
                return f"place exactly {self.batch} card(s) at this step"
            wanted = zeros()
            for guild in numbers:
                wanted[guild] += 1
            short = next(g for g in GUILDS if wanted[g] > self.kept[player][g])
            many = "enough" if wanted[short] > 1 else "any"
            return (
                f"you do not hold {many} {GUILD_NAMES[short]} "
                f"(your kept cards: {describe(self.kept[player])})"
            )
        return self._explain_trick(player, verb, numbers)

    def _describe(self, player: int, action: str, viewer: int | None, language: str) -> str:
        """Simultaneous choices are face down: others only learn that a choice was made."""
        return describe_action(self, PHASE_NAMES[self.phase], player, action, viewer, language)

    def _events(
        self, before: State, player: int, action: str, viewer: int | None, language: str
    ) -> list[str]:
        """Steps completed, cards revealed, counts with their arithmetic, rounds begun."""
        from machiavel.games.guildes.telling import events

        assert isinstance(before, GuildesState)
        return events(self, before, player, viewer, language)

    def _marks(self, before: State, player: int, action: str) -> JsonDict:
        """The cards this action put face up, and on whose tableau (public only)."""
        from machiavel.games.guildes.telling import marks

        assert isinstance(before, GuildesState)
        return marks(self, before, player, action)

    def _ending(self, language: str) -> str:
        """The final count and the winner's margin (G5: a tie shares the win)."""
        from machiavel.games.guildes.telling import ending

        return ending(self, language)

    def _what_now(self, player: int) -> str:
        phase = self.phase
        if phase == DRAFT:
            return f"keep one card with 'keep <guild>' (hand: {describe(self.packets[player])})"
        if phase == REDISTRIBUTE:
            return f"give one card with 'discard <guild>' (cards: {describe(self.kept[player])})"
        if phase == PLACE:
            what = "'place <guild>'" if self.batch == 1 else "'place <guild> <guild>'"
            return f"place with {what} (cards: {describe(self.kept[player])})"
        if phase == TRICKS:
            if self.drawn:
                return f"place one of the drawn cards: {', '.join(names(self.drawn))}"
            letter = self.trick_letter
            return (
                f"your Coup Tordu card is {TRICK_LETTERS[letter]} ({TRICK_TITLES[letter]}): "
                f"write 'pass' or for example '{_TRICK_EXAMPLES[letter]}'"
            )
        return "the game is over"

    def _explain_trick(self, player: int, verb: str, numbers: tuple[int, ...]) -> str:
        if self.drawn:
            return self._what_now(player)
        letter = self.trick_letter
        if verb not in _TRICK_VERBS[letter]:
            return self._what_now(player)
        shielded = self.protected()
        players = [numbers[i] for i in _PLAYER_ARGS.get(verb, ())]
        for target in players:
            if target >= self.n:
                return f"there is no player {target} (players are 0 to {self.n - 1})"
            if target == shielded:
                return f"player {target} holds Protection (A): no Coup Tordu can touch them"
        if verb == "draw":
            return "the discard pile is empty: there is nothing to draw"
        if verb == "minus":
            guild = GUILD_NAMES[TRICK_GUILD[letter]]
            return f"player {numbers[0]} has no {guild} to take one away from"
        if verb == "sacrifice" and numbers[0] not in TEN_OR_MORE:
            return "only Bourgeois, Chevaliers, Nobles, Prêtres or Alchimistes can be sacrificed"
        if verb in ("swap", "exchange") and numbers[-1] == numbers[1 if verb == "swap" else 0]:
            return "exchanging two cards of the same guild would change nothing"
        return "a tableau does not hold the cards named: " + self._what_now(player)

    @property
    def scores(self) -> list[float]:
        return list(self.scores_)

    @property
    def winners(self) -> tuple[int, ...]:
        """G5: the highest total after round 3; a tie is a shared win."""
        if self.phase != OVER:
            return ()
        best = max(self.scores_)
        return tuple(p for p, s in enumerate(self.scores_) if s == best)

    def _view(self, player: int | None) -> JsonDict:
        from machiavel.games.guildes.views import view

        return view(self, player)

    def _public_view(self) -> JsonDict:
        from machiavel.games.guildes.views import public_view

        return public_view(self)

    def _private_view(self, player: int | None) -> JsonDict:
        from machiavel.games.guildes.views import private_view

        return {} if player is None else private_view(self, player)

    def _resample(self, player: int, rng: Rng) -> GuildesState:
        from machiavel.games.guildes.hidden import resample

        return resample(self, player, rng)


_TRICK_EXAMPLES = {
    SWAP: "swap 0 Nobles 2 Milice",
    SACRIFICE: "sacrifice Nobles 2 Milice",
    DRAW: "draw",
    EXCHANGE: "exchange Nobles Milice",
}
for _letter in range(5, len(TRICK_LETTERS)):
    _TRICK_EXAMPLES[_letter] = "plus 0"
_TRICK_VERBS: dict[int, tuple[str, ...]] = {
    SWAP: ("pass", "swap"),
    SACRIFICE: ("pass", "sacrifice"),
    DRAW: ("pass", "draw"),
    EXCHANGE: ("pass", "exchange"),
}
for _letter in range(5, len(TRICK_LETTERS)):
    _TRICK_VERBS[_letter] = ("pass", "plus", "minus")
_PLAYER_ARGS = {"swap": (0, 2), "sacrifice": (1,), "plus": (0,), "minus": (0,)}


__all__ = ["DRAFT", "OVER", "PHASE_NAMES", "PLACE", "REDISTRIBUTE", "TRICKS", "GuildesState"]
