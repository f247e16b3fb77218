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
- what each player has placed this round was in their kept cards: a player's kept cards
  must contain the cards they showed;
- the discard pile: the cards ``p`` can tell are in it (their own discards, cards
  discarded face up, and what the drafting of finished rounds proves others kept but did
  not place) stay there; the rest of it is pooled with the deck.

While every player's kept cards are unconstrained (drafting, Redistribution choice, placing
before the first reveal) each segment and the pool are shuffled uniformly; the result
depends only on what ``p`` knows. Once cards have been shown, a random assignment meeting
every player's shown cards is built from ``p``'s knowledge alone, then mixed by random
exchanges. After a Redistribution (whose given and received cards are hidden) the mixing
starts from the true assignment instead; so do the kept cards of a player who has already
discarded them in the Coup Tordu phase, which stay as they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from machiavel.core.rng import Rng
from machiavel.games.guildes.data import GUILD_COUNT
from machiavel.games.guildes.rules import DRAFT, OVER, PLACE, REDISTRIBUTE, zeros

if TYPE_CHECKING:
    from machiavel.games.guildes.rules import GuildesState

POOL = -1
SLOT, PACKET, DECK, FREE, DRAWN = range(5)
GUILDS = range(GUILD_COUNT)
SEARCH_BUDGET = 20_000  # nodes; the search almost always succeeds within a few hundred
MIXING_AFTER_BUILD = 2  # exchanges tried per movable card
MIXING_FROM_TRUTH = 8


def resample(state: GuildesState, player: int, rng: Rng) -> GuildesState:
    world = state.clone()
    if state.phase == OVER:
        return world
    world.rng = rng.fork()  # future draws (D, Redistribution, deals) are unknown too
    future = sorted(state.event_order[state.round + 1 :])
    rng.shuffle(future)
    world.event_order = state.event_order[: state.round + 1] + future
    Redraw(world, player, known_discard(state, player), rng).run()
    return world


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
    """Cards ``player`` can tell are in the discard pile after the finished rounds.

    A lower bound, kept sound through every change: a card drawn by D from the pile may
    have been any of them, so one known card of its guild is forgotten.
    """
    known = zeros()
    for record in state.records:
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


class Redraw:
    """The hidden cards of the world as positions, each in a group it may not leave."""

    def __init__(self, world: GuildesState, player: int, known: list[int], rng: Rng) -> None:
        self.world, self.player, self.rng = world, player, rng
        self.n = world.n
        self.cards: list[int] = []
        self.kind: list[int] = []
        self.owner: list[int] = []
        self.where: list[int] = []
        self.group: list[int] = []
        self.free = [max(0, world.discard[g] - known[g] - world.round_adds[g]) for g in GUILDS]
        self._collect()
        self.members: dict[int, list[int]] = {}
        for index, group in enumerate(self.group):
            self.members.setdefault(group, []).append(index)
        self.kept_total = [self._slots_of(q) for q in range(self.n)]
        self.need = [self._need_of(q) for q in range(self.n)]

    # ---- positions --------------------------------------------------------------------
    def _add(self, card: int, kind: int, owner: int, where: int, group: int) -> None:
        self.cards.append(card)
        self.kind.append(kind)
        self.owner.append(owner)
        self.where.append(where)
        self.group.append(group)

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
                if q != p and not world.hand_discarded[q]:
                    group = self._segment(self._packet_at(q, step), step)
                    self._add(card, SLOT, q, step, group)
        if world.phase == DRAFT:
            step = len(world.draft_log)
            for holder, packet in enumerate(world.packets):
                if holder != p:
                    group = self._segment(self._packet_at(holder, step), step)
                    for g in GUILDS:
                        for _ in range(packet[g]):
                            self._add(g, PACKET, holder, 0, group)
        for card in world.deck:
            self._add(card, DECK, -1, 0, POOL)
        for g in GUILDS:
            for _ in range(self.free[g]):
                self._add(g, FREE, -1, 0, POOL)
        if world.drawn and world.waiting != (p,):
            for card in world.drawn:
                self._add(card, DRAWN, -1, 0, POOL)

    def _slots_of(self, q: int) -> list[int]:
        total = zeros()
        for index, kind in enumerate(self.kind):
            if kind == SLOT and self.owner[index] == q:
                total[self.cards[index]] += 1
        return total

    def _hidden_of(self, q: int) -> list[int]:
        """What ``q`` holds unseen: kept cards (the pending choice among them), face down."""
        held = self.world.kept[q][:]
        for card in self.world.face_down[q]:
            held[card] += 1
        return held

    def _need_of(self, q: int) -> list[int]:
        """Cards ``q``'s kept pile must contain: those shown since (and Redistribution's)."""
        if q == self.player or self.world.hand_discarded[q] or self.world.phase == DRAFT:
            return zeros()
        held = self._hidden_of(q)
        return [self.kept_total[q][g] - held[g] for g in GUILDS]

    # ---- drawing ----------------------------------------------------------------------
    def run(self) -> None:
        redistributed = any(out >= 0 for out in self.world.red_out)
        if not redistributed and not any(any(need) for need in self.need):
            self._shuffle_groups()
        else:
            built = not redistributed and self._construct()
            # a built start is random already; from the truth, mix longer
            self._mix(MIXING_AFTER_BUILD if built else MIXING_FROM_TRUTH)
        self.kept_total = [self._slots_of(q) for q in range(self.n)]
        self._write_back()

    def _shuffle_groups(self) -> None:
        for members in self.members.values():
            cards = sorted(self.cards[i] for i in members)
            self.rng.shuffle(cards)
            for index, card in zip(members, cards, strict=True):
                self.cards[index] = card

    def _construct(self) -> bool:
        """A random assignment meeting every player's shown cards, from ``p``'s knowledge.

        Each shown card needs a slot of its player in a group holding a card of its guild:
        a small search (most constrained first, candidates in random order, dead ends cut
        by counting what is still available) finds one; the rest of each group is then
        dealt at random. Fails only if the search runs out of budget.
        """
        groups = sorted(self.members)
        multiset = {gid: zeros() for gid in groups}
        slots = {gid: [0] * self.n for gid in groups}
        for gid in groups:
            for index in self.members[gid]:
                multiset[gid][self.cards[index]] += 1
                if self.kind[index] == SLOT:
                    slots[gid][self.owner[index]] += 1
        wanted = [(q, g) for q in range(self.n) for g in GUILDS if self.need[q][g] > 0]
        options = {
            (q, g): [gid for gid in groups if slots[gid][q] and multiset[gid][g]] for q, g in wanted
        }
        self.rng.shuffle(wanted)
        wanted.sort(key=lambda t: (len(options[t]), -self.need[t[0]][t[1]]))
        for t in wanted:
            self.rng.shuffle(options[t])
        search = UnitSearch(wanted, [self.need[q][g] for q, g in wanted], options, multiset, slots)
        if not search.run():
            return False
        chosen: dict[int, list[list[int]]] = {gid: [[] for _ in range(self.n)] for gid in groups}
        for (q, g), gid in zip(search.units, search.picks, strict=True):
            chosen[gid][q].append(g)
        self._deal_rest(chosen, multiset)
        return True

    def _deal_rest(
        self, chosen: dict[int, list[list[int]]], multiset: dict[int, list[int]]
    ) -> None:
        for gid, members in self.members.items():
            rest = multiset[gid][:]
            for cards in chosen[gid]:
                for g in cards:
                    rest[g] -= 1
            pile = [g for g in GUILDS for _ in range(rest[g])]
            self.rng.shuffle(pile)
            hands = [cards[:] for cards in chosen[gid]]
            by_owner: dict[int, list[int]] = {}
            for index in members:
                key = self.owner[index] if self.kind[index] == SLOT else -1
                by_owner.setdefault(key, []).append(index)
            for key, indices in sorted(by_owner.items()):
                cards = hands[key] if key >= 0 else []
                while len(cards) < len(indices):
                    cards.append(pile.pop())
                self.rng.shuffle(cards)
                for index, card in zip(indices, cards, strict=True):
                    self.cards[index] = card
        self.kept_total = [self._slots_of(q) for q in range(self.n)]  # for the mixing

    def _allowed(self, q: int, lose: int, gain: int) -> bool:
        """May ``q``'s kept pile hold ``gain`` instead of ``lose`` without showing it?"""
        total = self.kept_total[q]
        if total[lose] - 1 < self.need[q][lose]:
            return False
        out = self.world.red_out[q]
        return out < 0 or total[out] - (lose == out) + (gain == out) >= 1

    def _mix(self, per_position: int) -> None:
        """Random exchanges inside groups, each keeping every player's shown cards."""
        movable = [
            i
            for i, kind in enumerate(self.kind)
            if kind == SLOT and len(self.members[self.group[i]]) > 1
        ]
        if not movable:
            return
        cards, owner, kind = self.cards, self.owner, self.kind
        for _ in range(per_position * len(movable)):
            i = self.rng.choice(movable)
            j = self.rng.choice(self.members[self.group[i]])
            x, y = cards[i], cards[j]
            if x == y:
                continue
            qi = owner[i]
            qj = owner[j] if kind[j] == SLOT else -1
            if qi != qj:
                if not self._allowed(qi, x, y) or (qj >= 0 and not self._allowed(qj, y, x)):
                    continue
                self.kept_total[qi][x] -= 1
                self.kept_total[qi][y] += 1
                if qj >= 0:
                    self.kept_total[qj][y] -= 1
                    self.kept_total[qj][x] += 1
            cards[i], cards[j] = y, x

    # ---- back into the world ----------------------------------------------------------
    def _write_back(self) -> None:
        world, n = self.world, self.n
        log = [row[:] for row in world.draft_log]
        packets = [zeros() for _ in range(n)]
        deck: list[int] = []
        free = zeros()
        drawn: list[int] = []
        for index, card in enumerate(self.cards):
            kind = self.kind[index]
            if kind == SLOT:
                log[self.where[index]][self.owner[index]] = card
            elif kind == PACKET:
                packets[self.owner[index]][card] += 1
            elif kind == DECK:
                deck.append(card)
            elif kind == FREE:
                free[card] += 1
            else:
                drawn.append(card)
        world.draft_log = log
        deck.sort()
        self.rng.shuffle(deck)
        world.deck = deck
        world.discard = [world.discard[g] - self.free[g] + free[g] for g in GUILDS]
        if world.drawn and world.waiting != (self.player,):
            world.drawn = drawn
        for q in range(n):
            if q == self.player or world.hand_discarded[q]:
                continue
            if world.phase == DRAFT:
                world.kept[q] = self.kept_total[q][:]
                world.packets[q] = packets[q]
                if world.pending[q] is not None:
                    world.pending[q] = (self._pick(packets[q], 1)[0],)
            else:
                self._split_hidden(q)

    def _split_hidden(self, q: int) -> None:
        """Deal ``q``'s unseen cards again into face-down cards, kept cards and choice."""
        world = self.world
        held = [self.kept_total[q][g] - self.need[q][g] for g in GUILDS]
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
        self.rng.shuffle(pile)
        return pile[:how_many]


class UnitSearch:
    """Depth-first search giving each needed card (player, guild) a group to come from."""

    def __init__(
        self,
        kinds: list[tuple[int, int]],
        counts: list[int],
        options: dict[tuple[int, int], list[int]],
        multiset: dict[int, list[int]],
        slots: dict[int, list[int]],
    ) -> None:
        self.kinds, self.options = kinds, options
        self.units = [kind for kind, count in zip(kinds, counts, strict=True) for _ in range(count)]
        self.kind_of = [i for i, count in enumerate(counts) for _ in range(count)]
        self.remaining = counts[:]
        self.left = {gid: cards[:] for gid, cards in multiset.items()}
        self.free = {gid: owners[:] for gid, owners in slots.items()}
        self.picks: list[int] = []
        self.choice_index: list[int] = []
        self.budget = SEARCH_BUDGET

    def run(self) -> bool:
        return self._extend(0)

    def _extend(self, i: int) -> bool:
        if i == len(self.units):
            return True
        self.budget -= 1
        if self.budget < 0:
            return False
        q, g = self.units[i]
        kind = self.kind_of[i]
        candidates = self.options[(q, g)]
        # identical units take groups in non-decreasing order: no permutation is tried twice
        first = self.choice_index[-1] if i and self.kind_of[i - 1] == kind else 0
        for k in range(first, len(candidates)):
            gid = candidates[k]
            if not (self.free[gid][q] and self.left[gid][g]):
                continue
            self.free[gid][q] -= 1
            self.left[gid][g] -= 1
            self.remaining[kind] -= 1
            self.picks.append(gid)
            self.choice_index.append(k)
            if self._still_possible(kind) and self._extend(i + 1):
                return True
            self.picks.pop()
            self.choice_index.pop()
            self.free[gid][q] += 1
            self.left[gid][g] += 1
            self.remaining[kind] += 1
            if self.budget < 0:
                return False
        return False

    def _still_possible(self, current: int) -> bool:
        """Every kind still to place has enough room left, counted generously."""
        for kind in range(current, len(self.kinds)):
            need = self.remaining[kind]
            if not need:
                continue
            q, g = self.kinds[kind]
            room = 0
            for gid in self.options[(q, g)]:
                room += min(self.free[gid][q], self.left[gid][g])
                if room >= need:
                    break
            if room < need:
                return False
        return True
