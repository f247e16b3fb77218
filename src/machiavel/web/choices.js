// @ts-check
// Picking one of the legal actions by successive clicks.
//
// A game's board module turns every legal action into a list of *keys*, one per click:
// Tyrus "M8 rival-citadel" is ["tile:M8", "bld:rival-citadel"], Djambi "c3-e5" is
// ["sq:c3", "sq:e5"]. The chooser keeps the keys clicked so far (the prefix) and offers as
// next keys only those that continue at least one legal action, so an illegal choice can
// never be made: the board highlights and lets one click exactly these keys.
//
// Keys of an "unordered" action (Guildes' two cards placed at once) may be clicked in any
// order. A next key offered alone is taken without asking (there is no choice to make);
// when one action is left the chooser says so: if every key was clicked, it is played at
// once, if some were filled in by themselves it asks to confirm.

export const DONE = "done:"; // offered when an action ends here but longer ones go on

/** @typedef {{keys: string[], unordered?: boolean}} KeySpec  a board module's keys of an action */
/** @typedef {{action: string, keys: string[], unordered: boolean}} Entry */

export class Chooser {
  /** @param {string[]} actions @param {(action: string) => KeySpec} keysOf */
  constructor(actions, keysOf) {
    this.entries = actions.map((action) => {
      const spec = keysOf(action);
      return { action, keys: spec.keys, unordered: !!spec.unordered };
    });
    /** @type {string[]} */
    this.prefix = [];
    this.autoFilled = false; // keys were filled in after the last click
    this.spent = false; // played: the next state gets a fresh chooser (game.js)
    this.advance();
  }

  /** @param {Entry} entry @param {string[]} prefix */
  static matches(entry, prefix) {
    if (entry.unordered) {
      const rest = [...entry.keys];
      for (const key of prefix) {
        const at = rest.indexOf(key);
        if (at < 0) return false;
        rest.splice(at, 1);
      }
      return true;
    }
    if (prefix.length > entry.keys.length) return false;
    return prefix.every((key, i) => entry.keys[i] === key);
  }

  /** @param {Entry} entry @param {string[]} prefix */
  static remaining(entry, prefix) {
    if (!entry.unordered) return entry.keys.slice(prefix.length);
    const rest = [...entry.keys];
    for (const key of prefix) rest.splice(rest.indexOf(key), 1);
    return rest;
  }

  matching() {
    return this.entries.filter((entry) => Chooser.matches(entry, this.prefix));
  }

  /** The keys that may be clicked next (a Set), DONE included where an action ends. */
  candidates() {
    /** @type {Set<string>} */
    const next = new Set();
    for (const entry of this.matching()) {
      const rest = Chooser.remaining(entry, this.prefix);
      if (rest.length === 0) next.add(DONE);
      else if (entry.unordered) rest.forEach((key) => next.add(key));
      else next.add(rest[0]);
    }
    return next;
  }

  /** The single action left, or null while several remain. */
  decided() {
    const left = this.matching();
    return left.length === 1 ? left[0].action : null;
  }

  /** True when the decided action still has keys nobody clicked (ask to confirm). */
  needsConfirm() {
    const left = this.matching();
    if (left.length !== 1) return false;
    return Chooser.remaining(left[0], this.prefix).length > 0 || this.autoFilled;
  }

  /** Take the only next key while there is exactly one and several actions remain. */
  advance() {
    for (;;) {
      const left = this.matching();
      if (left.length <= 1) return;
      const next = this.candidates();
      if (next.size !== 1 || next.has(DONE)) return;
      this.prefix.push([...next][0]);
    }
  }

  /** Click a key; returns the action to play if it is now decided by clicks alone.
   * @param {string} key @returns {string | null} */
  choose(key) {
    if (key === DONE) {
      const left = this.matching().filter((e) => Chooser.remaining(e, this.prefix).length === 0);
      return left.length ? left[0].action : null;
    }
    if (!this.candidates().has(key)) return null;
    this.prefix.push(key);
    const clickedLength = this.prefix.length;
    this.advance();
    this.autoFilled = this.prefix.length > clickedLength;
    const action = this.decided();
    if (action !== null && !this.needsConfirm()) return action;
    return null;
  }

  back() {
    this.prefix = [];
    this.autoFilled = false;
    this.advance();
  }

  get selected() {
    return new Set(this.prefix);
  }
}
