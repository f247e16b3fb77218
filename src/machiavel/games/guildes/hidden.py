"""``resample``: a state one player cannot tell from the true one, hidden cards redrawn.

What player ``p`` knows, and so what a resampled state keeps:

- everything in ``p``'s views (own cards, tableaux, sizes, who has chosen...);
- the drafting of the current round. Each hand ("packet") travels round the table; ``p``
  sees a packet each time it comes to them. Between two sightings the packet lost one card
  to each player it visited: ``p`` knows the lost cards as a whole (a *segment*), not who
  took which. Cards a packet lost before ``p`` first saw it, packets ``p`` has not seen
  yet, the deck and the unknown part of the discard pile form the *pool*: anything ``p``
  cannot locate. A resample moves cards only inside a segment (between the players who
  visited it, or the packet's present holder) or inside the pool.
- what each player has shown this round (cards placed face up, E's card) was in their kept
  cards: their drafted cards, less the card they gave at the Redistribution (G6) plus the
  one they received. Who gave what to whom is hidden: only ``p``'s own exchange is known.
- the discard pile: the cards ``p`` can tell are in it (their own discards, cards
  discarded face up, and what the drafting of finished rounds proves others kept but did
  not place) stay there; the rest of the earlier rounds' discards is pooled with the deck.
  The unplaced cards others discarded face down this round (G7) are whatever their kept
  cards hold besides what they showed, so they are redrawn with them. Cards drawn by D
  must have been in the pile before the draw.

While no player has shown a card of the current round, each segment and the pool are
shuffled uniformly. Otherwise a random assignment meeting everything above is built from
``p``'s knowledge alone, then mixed by random exchanges. Either way the world depends only
on what ``p`` knows and on ``rng`` (the honesty tests check it); only the records of
finished rounds, which ``known_discard`` reads, and the history are kept as they are.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from itertools import chain
from typing import TYPE_CHECKING, TypeVar

from mypy_extensions import mypyc_attr

from machiavel.core.contract import JsonDict
from machiavel.core.rng import Rng
from machiavel.games.guildes.data import DRAW, GUILD_COUNT
from machiavel.games.guildes.rules import DRAFT, OVER, PLACE, REDISTRIBUTE, zeros

if TYPE_CHECKING:
    from machiavel.games.guildes.rules import GuildesState

T = TypeVar("T")
POOL = -1
NO_GROUP = -2  # an option taking no card from a group: the observer's Redistribution card
SLOT, PACKET, DECK, FREE = range(4)
GUILDS = range(GUILD_COUNT)
SEARCH_BUDGET = 20_000  # nodes; the search almost always succeeds within a few hundred
SEARCH_ATTEMPTS = 3  # with a budget, each in a new random order; then one without
MIXING = 2  # exchanges tried per movable card

# A source for one required card: (group, pile, giver, receiver), see ``Plan``.
Option = tuple[int, int, int, int]


def resample(state: GuildesState, player: int, rng: Rng) -> GuildesState:
    world = state.clone()
    world.rng = rng.fork()  # future draws (D, Redistribution, deals) are unknown too
    future = sorted(state.event_order[state.round + 1 :])
    rng.shuffle(future)
    world.event_order = state.event_order[: state.round + 1] + future
    layout_of(state, player).drawn_into(world, rng).run()
    return world


def layout_of(state: GuildesState, player: int) -> Redraw:
    """What ``player`` knows of ``state``, as ``Redraw`` lays it out: read once per state
    and player, since search draws thousands of worlds from one state. A state changes
    only by its actions (the contract), so its identity and history length tell whether
    the layout kept is still its own; a clone shares the field but is not its owner."""
    kept = state.layouts
    if kept is None or kept[0] is not state or kept[1] != len(state.history):
        kept = (state, len(state.history), {})
        state.layouts = kept
    layouts = kept[2]
    layout = layouts.get(player)
    if layout is None:
        # Once the game is over the last round is among the records, but its hidden cards
        # (the others' Redistribution, G6) are still hidden: redrawn like a round going on.
        earlier = state.records[:-1] if state.phase == OVER else state.records
        layout = layouts[player] = Redraw(state, player, discard_known_from(earlier, player))
    return layout


def known_kept_by_others(log: list[list[int]], direction: int, player: int) -> list[int]:
    """Cards ``player`` saw leave a packet for other players' kept piles in a whole draft."""
    n = len(log[0]) if log else 0
    known = zeros()
    seen: set[int] = set()
    for step in range(len(log)):
        packet = (player - direction * step) % n
        content = zeros()
        for later in range(step, len(log)):
            content[log[later][(packet + direction * later) % n]] += 1
        if packet in seen:  # what came back was not kept by the others
            for g in GUILDS:
                known[g] -= content[g]
        content[log[step][player]] -= 1
        for g in GUILDS:
            known[g] += content[g]
        seen.add(packet)
    return known


def hands_seen(state: GuildesState, player: int) -> list[list[int]]:
    """The hand ``player`` held at each drafting step of the round, as the draft log says.

    A resampled world must give the same list: it is what the player saw.
    """
    n, direction, log = state.n, state.direction, state.draft_log
    drafting = state.phase == DRAFT
    seen = []
    for step in range(len(log) + drafting):
        packet = (player - direction * step) % n
        content = state.packets[(packet + direction * len(log)) % n][:] if drafting else zeros()
        for later in range(step, len(log)):
            content[log[later][(packet + direction * later) % n]] += 1
        seen.append(content)
    return seen


def known_discard(state: GuildesState, player: int) -> list[int]:
    """Cards ``player`` can tell are in the discard pile after the finished rounds."""
    return discard_known_from(state.records, player)


def discard_known_from(records: list[JsonDict], player: int) -> list[int]:
    """Cards ``player`` can tell are in the discard pile after the rounds ``records`` tell.

    A lower bound, kept sound through every change: a card drawn by D from the pile may
    have been any of them, so one known card of its guild is forgotten.
    """
    known = zeros()
    for record in records:
        kept_by_others = known_kept_by_others(record["draft_log"], record["direction"], player)
        gave, got = record["red_out"][player], record["red_in"][player]
        e_holder, e_back, e_out = record["e"]
        for g in GUILDS:
            hidden = kept_by_others[g] + (gave == g) - (got == g)
            hidden -= sum(placed[g] for q, placed in enumerate(record["placed"]) if q != player)
            if e_holder >= 0 and e_holder != player:
                hidden -= e_out == g
                known[g] += e_back == g  # taken back face up, then discarded
            known[g] += max(0, hidden) + record["hand_discards"][player][g]
            known[g] += record["public_discards"][g]
        d_holder, d_placed, d_returned = record["d"]
        if d_holder >= 0:
            known[d_placed] = max(0, known[d_placed] - 1)
            if d_holder == player and d_returned >= 0:
                known[d_returned] = max(known[d_returned], 1)
    return known


CHUNK_BITS = 16  # a 64-bit draw of the generator gives four numbers below 2**16
CHUNK = 1 << CHUNK_BITS


def shuffle(rng: Rng, items: list[T]) -> None:
    """A uniform shuffle (Fisher-Yates), each index drawn from 16 bits of one of ``rng``'s
    64-bit draws: four indices a draw instead of one, and a resample shuffles a hundred
    cards. A 16-bit number at or above the largest multiple of the bound is drawn again,
    so every index is exactly as likely. Draws nothing for fewer than two items."""
    if len(items) > CHUNK:  # pragma: no cover - a resample holds at most 110 cards
        rng.shuffle(items)
        return
    word = bits = 0
    last = len(items) - 1
    while last > 0:
        if bits < CHUNK_BITS:
            word, bits = rng.next_u64(), 64
        draw = word & (CHUNK - 1)
        word >>= CHUNK_BITS
        bits -= CHUNK_BITS
        bound = last + 1
        if draw < CHUNK - CHUNK % bound:
            other = draw % bound
            items[last], items[other] = items[other], items[last]
            last -= 1


def small_draws(rng: Rng) -> Iterator[int]:
    """Uniform 16-bit numbers, four from each of ``rng``'s 64-bit draws, without end."""
    while True:
        word = rng.next_u64()
        for _ in range(4):
            yield word & (CHUNK - 1)
            word >>= CHUNK_BITS


def below(draws: Iterator[int], bound: int) -> int:
    """A number in ``range(bound)``, all equally likely (``bound`` up to 2**16): drawn
    again at or above the largest multiple of ``bound``, as ``shuffle`` does."""
    limit = CHUNK - CHUNK % bound
    for draw in draws:
        if draw < limit:
            return draw % bound
    raise AssertionError("small_draws never ends")  # pragma: no cover


def spelled(cards: list[int]) -> list[int]:
    """Counts by guild as one card after another, in guild order."""
    return [g for g in GUILDS for _ in range(cards[g])]


# Not a native class when compiled (speedups.py): ``drawn_into`` copies a layout, and only
# a Python class can be made without its ``__init__``.
@mypyc_attr(native_class=False)
class Redraw:
    """The hidden cards of the world as positions, each in a group it may not leave.

    A position holds one card: a drafted card of another player (``SLOT``), a card of a
    packet being drafted, of the deck, or of the part of the discard pile the observer
    cannot identify (``FREE``). Each drafted card and each ``FREE`` card belongs to a *pile*
    that must hold some cards: pile ``q`` is what player ``q`` kept (their drafted cards,
    less the Redistribution card given, plus the one received), which holds every card
    ``q`` showed; pile ``free_pile`` (numbered after the players) is the unknown part of
    the discard pile, which may have to hold a card D drew.
    """

    rng: Rng  # given by ``drawn_into``: laying out draws nothing

    def __init__(self, world: GuildesState, player: int, known: list[int]) -> None:
        self.world, self.player = world, player
        self.n = world.n
        self.free_pile = world.n
        self.others = [q for q in range(world.n) if q != player]
        self.redistributed = world.red_out[player] >= 0
        self.shown = [self._shown_by(q) for q in range(world.n)] + [zeros()]
        self._draw_facts()
        # earlier rounds' discards the observer cannot identify: the pile as it was before
        # D's draw, less what they know is there and this round's discards
        self.free = [
            world.discard[g] + self.truth_removed[g] - known[g] - world.round_adds[g]
            for g in GUILDS
        ]
        self.unsourced = self._cards_needing_a_source(known)
        self.cards: list[int] = []
        self.kind: list[int] = []
        self.owner: list[int] = []
        self.pile: list[int] = []
        self.where: list[int] = []
        self.group: list[int] = []
        self.members: dict[int, list[int]] = {}  # group -> its positions, in order
        self.by_pile: dict[int, dict[int, list[int]]] = {}  # group -> pile -> positions
        self.deck_at = range(0)  # the deck's positions, one run
        self._collect()
        self.constrained = bool(self.redistributed or self.unsourced or any(map(any, self.shown)))
        # each group's cards by guild, and its positions in each pile (for ``Plan``)
        self.group_cards: dict[int, list[int]] = {}
        self.group_slots: dict[int, list[int]] = {}
        # drafted cards that ``_mix`` may exchange: in a group with another position
        self.mixable: list[int] = []
        self.piles_in_order: dict[int, list[tuple[int, list[int]]]] = {}  # for ``_deal``
        if self.constrained:
            self._count_groups()
        self.gift_at = [-1] * self.n  # the position of each player's Redistribution card
        self.received = [-1] * self.n
        self.reserved = [zeros() for _ in range(self.n + 1)]  # cards D drew, by pile

    def _count_groups(self) -> None:
        for gid in sorted(self.members):
            cards, slots = zeros(), [0] * (self.n + 1)
            for index in self.members[gid]:
                cards[self.cards[index]] += 1
                if self.pile[index] >= 0:
                    slots[self.pile[index]] += 1
            self.group_cards[gid], self.group_slots[gid] = cards, slots
            self.piles_in_order[gid] = sorted(self.by_pile[gid].items())
        self.mixable = [
            i
            for i, kind in enumerate(self.kind)
            if kind == SLOT and len(self.members[self.group[i]]) > 1
        ]

    def drawn_into(self, world: GuildesState, rng: Rng) -> Redraw:
        """This layout, to redraw ``world`` (a clone of the state it was read from) with
        ``rng``: what a draw changes is new, the rest (read only) is shared."""
        redraw = copy.copy(self)
        redraw.world, redraw.rng = world, rng
        redraw.cards = self.cards[:]
        redraw.gift_at = [-1] * self.n
        redraw.received = [-1] * self.n
        redraw.reserved = [zeros() for _ in range(self.n + 1)]
        return redraw

    # ---- what the observer knows of the round, beyond the drafting -----------------------
    def _shown_by(self, q: int) -> list[int]:
        """Cards ``q`` showed from their kept pile: those placed face up, and E's (G7)."""
        world = self.world
        if q == self.player:
            return zeros()
        shown = world.placed_round[q][:]
        for card in world.face_down[q]:
            shown[card] -= 1
        holder, _, placed = world.e_record
        if holder == q:
            shown[placed] += 1
        return shown

    def _draw_facts(self) -> None:
        """D (G7): what left the discard pile this round and what the observer knows of it.

        While its holder chooses, the two cards drawn are out of the pile; once one is
        placed, the other is back and the pile is short of the placed card only.
        """
        world, p = self.world, self.player
        self.truth_removed = zeros()
        self.must_hold: list[int] = []  # cards the pile surely held before the draw
        self.removed: list[int] = []  # known cards out of the pile
        self.hidden_draw = 0  # cards out of the pile the observer has not seen
        holder, placed, returned = world.d_record
        if world.drawn:
            for card in world.drawn:
                self.truth_removed[card] += 1
            if world.waiting == (p,):
                self.must_hold = world.drawn[:]
                self.removed = world.drawn[:]
            else:
                self.hidden_draw = len(world.drawn)
        elif holder >= 0:
            self.truth_removed[placed] += 1
            self.removed = [placed]
            self.must_hold = [placed] + ([returned] if holder == p and returned >= 0 else [])

    def _cards_needing_a_source(self, known: list[int]) -> list[int]:
        """The cards D drew that the part of the pile the observer knows cannot explain."""
        world, p = self.world, self.player
        certain = known[:]
        for g in GUILDS:
            certain[g] += world.public_discards[g]
            if world.tricks[p] < DRAW:  # the observer's own discards, if made before D
                certain[g] += world.hand_discards[p][g]
        unsourced = []
        for card in self.must_hold:
            if certain[card]:
                certain[card] -= 1
            else:
                unsourced.append(card)
        return unsourced

    def discarded_before_draw(self) -> list[int]:
        """Others whose face-down discards were in the pile when D drew (A-C holders)."""
        world = self.world
        return [q for q in self.others if world.hand_discarded[q] and world.tricks[q] < DRAW]

    # ---- positions --------------------------------------------------------------------
    def _add(self, card: int, kind: int, owner: int, where: int, group: int) -> None:
        index = len(self.cards)
        pile = owner if kind == SLOT else self.free_pile if kind == FREE else -1
        self.members.setdefault(group, []).append(index)
        self.by_pile.setdefault(group, {}).setdefault(pile, []).append(index)
        self.cards.append(card)
        self.kind.append(kind)
        self.owner.append(owner)
        self.pile.append(pile)
        self.where.append(where)
        self.group.append(group)

    def _add_run(self, cards: list[int], kind: int, owner: int, group: int) -> range:
        """``_add`` for many cards of one kind, owner and group at once (not slots): the
        deck alone is most of the positions."""
        start, count = len(self.cards), len(cards)
        pile = self.free_pile if kind == FREE else -1
        self.members.setdefault(group, []).extend(range(start, start + count))
        self.by_pile.setdefault(group, {}).setdefault(pile, []).extend(range(start, start + count))
        self.cards += cards
        self.kind += [kind] * count
        self.owner += [owner] * count
        self.pile += [pile] * count
        self.where += [0] * count
        self.group += [group] * count
        return range(start, start + count)

    def _segment(self, packet: int, step: int) -> int:
        """The group of a card a packet held at ``step``: a segment, or the pool."""
        first = (self.world.direction * (self.player - packet)) % self.n
        return POOL if step < first else packet * 64 + (step - first) // self.n

    def _packet_at(self, holder: int, step: int) -> int:
        return (holder - self.world.direction * step) % self.n

    def _collect(self) -> None:
        world, p = self.world, self.player
        for step, row in enumerate(world.draft_log):
            for q, card in enumerate(row):
                if q != p:
                    group = self._segment(self._packet_at(q, step), step)
                    self._add(card, SLOT, q, step, group)
        if world.phase == DRAFT:
            step = len(world.draft_log)
            for holder, packet in enumerate(world.packets):
                if holder != p:
                    group = self._segment(self._packet_at(holder, step), step)
                    self._add_run(spelled(packet), PACKET, holder, group)
        self.deck_at = self._add_run(world.deck, DECK, -1, POOL)
        self._add_run(spelled(self.free), FREE, -1, POOL)

    def _totals(self) -> list[list[int]]:
        """What each pile holds now: drafted cards less the card given plus the one received."""
        totals = [zeros() for _ in range(self.n + 1)]
        cards, piles = self.cards, self.pile
        for index in self._beside_deck():
            pile = piles[index]
            if pile >= 0:
                totals[pile][cards[index]] += 1
        for q in self.others:
            if self.gift_at[q] >= 0:
                totals[q][self.cards[self.gift_at[q]]] -= 1
                totals[q][self.received[q]] += 1
        return totals

    def _beside_deck(self) -> chain[int]:
        """Every position but the deck's (most of them, and in no pile)."""
        return chain(range(self.deck_at.start), range(self.deck_at.stop, len(self.cards)))

    # ---- drawing ----------------------------------------------------------------------
    def run(self) -> None:
        if self.constrained:
            self._construct()
            self._mix(MIXING)
        else:
            self._shuffle_groups()
        self._write_back()

    def _shuffle_groups(self) -> None:
        positions = self.cards
        for members in self.members.values():
            cards = sorted(map(positions.__getitem__, members))  # what the truth holds, no more
            shuffle(self.rng, cards)
            for index, card in zip(members, cards, strict=True):
                positions[index] = card

    def _construct(self) -> None:
        """A random assignment meeting everything the observer saw, from that alone.

        Each shown card needs a source: a drafted card of its player, or the card they
        received at the Redistribution (G6), given by someone else; the card the observer
        received needs a giver; a card D drew needs a place in the pile before the draw.
        A small search (most constrained first, candidates in random order) finds sources;
        the rest of each group is then dealt at random. With the budget spent a few
        times, one last search without a budget runs: the true cards prove a world exists.
        """
        for attempt in range(SEARCH_ATTEMPTS + 1):
            plan = Plan(self)
            budget = SEARCH_BUDGET if attempt < SEARCH_ATTEMPTS else None
            if plan.search(budget):
                plan.complete()
                self._deal(plan)
                return
        raise AssertionError("no world fits what the player saw")  # pragma: no cover

    def _deal(self, plan: Plan) -> None:
        """Deal each group: the planned cards to their piles, the rest at random."""
        gift_guild, positions = plan.gift_guild, self.cards
        for gid in self.members:
            chosen = plan.chosen[gid]
            rest = plan.multiset[gid][:]
            for cards in chosen.values():
                for g in cards:
                    rest[g] -= 1
            spare = spelled(rest)
            shuffle(self.rng, spare)
            for key, indices in self.piles_in_order[gid]:
                cards = chosen.get(key, [])[:]
                if 0 <= key < self.n and plan.gift_group[key] == gid and gift_guild[key] < 0:
                    gift_guild[key] = spare.pop()  # a card given that no one needed
                    cards.append(gift_guild[key])
                planned = len(cards)
                taken = len(indices) - planned
                if taken:  # the last of the shuffled spare cards, as popped one by one
                    cards += spare[: -taken - 1 : -1]
                    del spare[-taken:]
                if planned:  # spare cards alone are in random order already
                    shuffle(self.rng, cards)
                for index, card in zip(indices, cards, strict=True):
                    positions[index] = card
        self._place_gifts(plan)
        for owner, card in plan.reserved:
            self.reserved[owner][card] += 1

    def _place_gifts(self, plan: Plan) -> None:
        if not self.redistributed:
            return
        p = self.player
        for q in self.others:
            self.gift_at[q] = next(
                i
                for i in self.members[plan.gift_group[q]]
                if self.pile[i] == q and self.cards[i] == plan.gift_guild[q]
            )
        for q in range(self.n):
            giver = plan.giver_of[q]
            self.received[q] = self.world.red_out[p] if giver == p else plan.gift_guild[giver]

    def _mix(self, per_position: int) -> None:
        """Random exchanges inside groups, each keeping every pile's required cards."""
        gifts = set(self.gift_at)
        movable = [i for i in self.mixable if i not in gifts]
        if not movable:
            return
        totals = self._totals()
        need = [
            [s + r for s, r in zip(shown, reserved, strict=True)]
            for shown, reserved in zip(self.shown, self.reserved, strict=True)
        ]
        cards, pile = self.cards, self.pile
        draws = small_draws(self.rng)  # two numbers an exchange: half a generator draw
        for _ in range(per_position * len(movable)):
            i = movable[below(draws, len(movable))]
            members = self.members[self.group[i]]
            j = members[below(draws, len(members))]
            x, y = cards[i], cards[j]
            if x == y or j in gifts:
                continue
            pi, pj = pile[i], pile[j]
            if pi != pj:
                if totals[pi][x] <= need[pi][x] or (pj >= 0 and totals[pj][y] <= need[pj][y]):
                    continue
                totals[pi][x] -= 1
                totals[pi][y] += 1
                if pj >= 0:
                    totals[pj][y] -= 1
                    totals[pj][x] += 1
            cards[i], cards[j] = y, x

    # ---- back into the world ----------------------------------------------------------
    def _write_back(self) -> None:
        world, n = self.world, self.n
        log = [row[:] for row in world.draft_log]
        packets = [zeros() for _ in range(n)]
        deck = self.cards[self.deck_at.start : self.deck_at.stop]
        free = zeros()
        cards, kinds, owners = self.cards, self.kind, self.owner
        for index in self._beside_deck():
            kind, card = kinds[index], cards[index]
            if kind == SLOT:
                log[self.where[index]][owners[index]] = card
            elif kind == PACKET:
                packets[owners[index]][card] += 1
            else:
                free[card] += 1
        world.draft_log = log
        # Already in random order: the deck's positions are dealt at random with the pool
        # (a shuffle, or ``_deal``'s), and ``_mix`` treats them all alike.
        world.deck = deck
        totals = self._totals()
        old_discards = [world.hand_discards[q] for q in self.others]
        for q in self.others:
            if world.phase == DRAFT:
                world.kept[q] = totals[q]
                world.packets[q] = packets[q]
                if world.pending[q] is not None:
                    world.pending[q] = (self._pick(packets[q], 1)[0],)
                continue
            hidden = [totals[q][g] - self.shown[q][g] for g in GUILDS]
            if world.hand_discarded[q]:
                self._discard_again(q, hidden)
            else:
                self._split_hidden(q, hidden)
            if self.redistributed:
                world.red_out[q] = self.cards[self.gift_at[q]]
                world.red_in[q] = self.received[q]
        self._rebuild_discard(free, old_discards)

    def _discard_again(self, q: int, hidden: list[int]) -> None:
        """``q``'s unplaced cards, discarded face down: their hidden cards (and E's card)."""
        world = self.world
        holder, back, _ = world.e_record
        if holder == q:
            hidden[back] += 1  # taken back face up, then discarded
        world.hand_discards[q] = hidden

    def _rebuild_discard(self, free: list[int], old_discards: list[list[int]]) -> None:
        """The pile before D's draw: what the observer knows, the unknown part and the
        others' face-down discards, both redrawn; then less what D took out of it."""
        world = self.world
        pile = [world.discard[g] + self.truth_removed[g] - self.free[g] + free[g] for g in GUILDS]
        for old, q in zip(old_discards, self.others, strict=True):
            for g in GUILDS:
                change = world.hand_discards[q][g] - old[g]
                pile[g] += change
                world.round_adds[g] += change
        if self.hidden_draw:  # drawn unseen by the observer: drawn again, from this pile
            world.drawn = self._pick(pile, self.hidden_draw)
        for card in world.drawn if self.hidden_draw else self.removed:
            pile[card] -= 1
        world.discard = pile

    def _split_hidden(self, q: int, held: list[int]) -> None:
        """Deal ``q``'s unseen cards again into face-down cards, kept cards and choice."""
        world = self.world
        face_down = self._pick(held, len(world.face_down[q]))
        placed = world.placed_round[q][:]  # face-down cards count as placed already
        for old, new in zip(world.face_down[q], face_down, strict=True):
            placed[old] -= 1
            placed[new] += 1
            held[new] -= 1
        world.placed_round[q] = placed
        world.face_down[q] = face_down
        world.kept[q] = held
        choice = world.pending[q]
        if choice is not None and world.phase in (PLACE, REDISTRIBUTE):
            world.pending[q] = tuple(sorted(self._pick(held, len(choice))))

    def _pick(self, cards: list[int], how_many: int) -> list[int]:
        """``how_many`` cards drawn at random from the counts ``cards`` (left unchanged)."""
        pile = [g for g in GUILDS for _ in range(cards[g])]
        shuffle(self.rng, pile)
        return pile[:how_many]


class Plan:
    """The sources found for the cards the observer's knowledge requires (``Redraw``).

    An *option* is ``(group, pile, giver, receiver)``: the card comes from a position of
    ``pile`` in ``group`` (no group: the observer's own Redistribution card), and when
    ``giver`` is not -1 it went from ``giver`` to ``receiver`` at the Redistribution.
    """

    def __init__(self, redraw: Redraw) -> None:
        self.redraw = redraw
        self.rng = redraw.rng
        n = redraw.n
        self.groups = sorted(redraw.members)
        self.multiset = redraw.group_cards  # read only: the layout's, shared by every plan
        self.slots = redraw.group_slots
        self.chosen: dict[int, dict[int, list[int]]] = {gid: {} for gid in self.groups}
        self.gift_group = [NO_GROUP] * n  # the group of the card each player gave
        self.gift_guild = [-1] * n
        self.giver_of = [-1] * n
        self.reserved: list[tuple[int, int]] = []  # (pile, card) D drew from that pile
        self.kinds: list[tuple[int, list[Option], bool]] = []  # guild, options, drawn by D
        self.counts: list[int] = []
        self._units()
        self.found: UnitSearch | None = None

    def _units(self) -> None:
        redraw = self.redraw
        world, p = redraw.world, redraw.player
        for q in redraw.others:
            for g in GUILDS:
                if redraw.shown[q][g] > 0:
                    self._kind(g, self._kept_options(q, g), False, redraw.shown[q][g])
        drawn: dict[int, int] = {}
        for card in redraw.unsourced:
            drawn[card] = drawn.get(card, 0) + 1
        for card, count in drawn.items():
            self._kind(card, self._pile_options(card), True, count)
        if redraw.redistributed:
            self._kind(world.red_in[p], self._observer_gift_options(), False, 1)
        order = list(range(len(self.kinds)))
        shuffle(self.rng, order)
        order.sort(key=lambda k: (len(self.kinds[k][1]), -self.counts[k]))
        self.kinds = [self.kinds[k] for k in order]
        self.counts = [self.counts[k] for k in order]

    def _kind(self, guild: int, options: list[Option], drawn: bool, count: int) -> None:
        self.kinds.append((guild, options, drawn))
        self.counts.append(count)

    def _in_group(self, pile: int, guild: int) -> list[int]:
        return [g for g in self.groups if self.slots[g][pile] and self.multiset[g][guild]]

    def _kept_options(self, q: int, guild: int) -> list[Option]:
        """Sources of a card of ``q``'s kept pile: drafted by ``q`` first, then received."""
        redraw = self.redraw
        own: list[Option] = [(gid, q, -1, -1) for gid in self._in_group(q, guild)]
        received: list[Option] = []
        if redraw.redistributed:
            p = redraw.player
            for giver in redraw.others:
                if giver != q:
                    received += [(gid, giver, giver, q) for gid in self._in_group(giver, guild)]
            if redraw.world.red_out[p] == guild:
                received.append((NO_GROUP, -1, p, q))
        shuffle(self.rng, own)
        shuffle(self.rng, received)
        return own + received

    def _pile_options(self, card: int) -> list[Option]:
        """Where a card D drew was: the unknown part of the pile, or an early discard."""
        redraw = self.redraw
        options: list[Option] = []
        if POOL in self.slots and POOL in self._in_group(redraw.free_pile, card):
            options.append((POOL, redraw.free_pile, -1, -1))
        for q in redraw.discarded_before_draw():
            options += self._kept_options(q, card)
        shuffle(self.rng, options)
        return options

    def _observer_gift_options(self) -> list[Option]:
        """Who gave the card the observer received at the Redistribution (G6)."""
        redraw = self.redraw
        world, p = redraw.world, redraw.player
        guild = world.red_in[p]
        options: list[Option] = [
            (gid, giver, giver, p)
            for giver in redraw.others
            for gid in self._in_group(giver, guild)
        ]
        if world.red_out[p] == guild:
            options.append((NO_GROUP, -1, p, p))
        shuffle(self.rng, options)
        return options

    def search(self, budget: int | None) -> bool:
        redraw = self.redraw
        n = redraw.n
        exchanging = [1 if redraw.redistributed else 0] * n
        givers = redraw.others if redraw.redistributed else []
        search = UnitSearch(
            [(guild, options) for guild, options, _ in self.kinds],
            self.counts,
            self.multiset,
            self.slots,
            (exchanging, exchanging[:]),
            givers,
            budget,
        )
        if not search.run():
            return False
        self.found = search
        return True

    def complete(self) -> None:
        """Record the sources found, then pair the givers and receivers left at random."""
        search = self.found
        assert search is not None
        for kind, option in zip(search.units, search.picks, strict=True):
            guild, _, drawn = self.kinds[kind]
            gid, pile, giver, receiver = option
            if gid != NO_GROUP:
                self.chosen[gid].setdefault(pile, []).append(guild)
            if giver >= 0:
                self._exchange(giver, receiver, gid, guild)
            if drawn:
                self.reserved.append((receiver if giver >= 0 else pile, guild))
        if not self.redraw.redistributed:
            return
        givers = [a for a in range(self.redraw.n) if search.give[a]]
        receivers = [q for q in range(self.redraw.n) if search.recv[q]]
        shuffle(self.rng, receivers)
        for giver, receiver in zip(givers, receivers, strict=True):
            gid = NO_GROUP
            if giver != self.redraw.player:  # a card no one needed: any drafted card
                gid = self.rng.choice([g for g in self.groups if search.free[g][giver]])
                search.free[gid][giver] -= 1
            self._exchange(giver, receiver, gid, -1)

    def _exchange(self, giver: int, receiver: int, gid: int, guild: int) -> None:
        self.giver_of[receiver] = giver
        if giver != self.redraw.player:
            self.gift_group[giver] = gid
            self.gift_guild[giver] = guild


class UnitSearch:
    """Depth-first search giving each needed card a source (an option, see ``Plan``).

    Resources: the free positions of each pile in each group, the cards of each guild in
    each group, and at the Redistribution one card given and one received per player.
    """

    def __init__(
        self,
        kinds: list[tuple[int, list[Option]]],
        counts: list[int],
        multiset: dict[int, list[int]],
        slots: dict[int, list[int]],
        exchanges: tuple[list[int], list[int]],
        givers: list[int],
        budget: int | None,
    ) -> None:
        self.kinds = kinds
        self.units = [kind for kind, count in enumerate(counts) for _ in range(count)]
        self.remaining = counts[:]
        self.left = {gid: cards[:] for gid, cards in multiset.items()}
        self.free = {gid: piles[:] for gid, piles in slots.items()}
        piles = len(exchanges[0]) + 1  # a pile per player and the unknown discards
        self.free_total = [sum(free[pile] for free in slots.values()) for pile in range(piles)]
        self.give, self.recv = exchanges
        self.givers = givers  # players who must keep a drafted card to give
        self.picks: list[Option] = []
        self.choice_index: list[int] = []
        self.budget = budget

    def run(self) -> bool:
        return self._extend(0)

    def _out_of_budget(self) -> bool:
        return self.budget is not None and self.budget < 0

    def _extend(self, i: int) -> bool:
        if i == len(self.units):
            return self._givers_can_give()
        if self.budget is not None:
            self.budget -= 1
            if self.budget < 0:
                return False
        kind = self.units[i]
        guild, options = self.kinds[kind]
        # identical units take options in non-decreasing order: no permutation twice
        first = self.choice_index[-1] if i and self.units[i - 1] == kind else 0
        for k in range(first, len(options)):
            option = options[k]
            if self._room(option, guild) == 0:
                continue
            self._take(option, guild, -1)
            self.remaining[kind] -= 1
            self.picks.append(option)
            self.choice_index.append(k)
            if self._still_possible(kind) and self._extend(i + 1):
                return True
            self.picks.pop()
            self.choice_index.pop()
            self._take(option, guild, 1)
            self.remaining[kind] += 1
            if self._out_of_budget():
                return False
        return False

    def _room(self, option: Option, guild: int) -> int:
        gid, pile, giver, receiver = option
        room = 1 << 30
        if gid != NO_GROUP:
            room = min(self.free[gid][pile], self.left[gid][guild])
        if giver >= 0:
            room = min(room, self.give[giver], self.recv[receiver])
        return room

    def _take(self, option: Option, guild: int, delta: int) -> None:
        gid, pile, giver, receiver = option
        if gid != NO_GROUP:
            self.free[gid][pile] += delta
            self.free_total[pile] += delta
            self.left[gid][guild] += delta
        if giver >= 0:
            self.give[giver] += delta
            self.recv[receiver] += delta

    def _givers_can_give(self) -> bool:
        return all(self.free_total[q] > 0 for q in self.givers if self.give[q])

    def _still_possible(self, current: int) -> bool:
        """Every kind still to place has enough room left, counted generously."""
        if not self._givers_can_give():
            return False
        for kind in range(current, len(self.kinds)):
            need = self.remaining[kind]
            if not need:
                continue
            guild, options = self.kinds[kind]
            room = 0
            for option in options:
                room += self._room(option, guild)
                if room >= need:
                    break
            if room < need:
                return False
        return True
