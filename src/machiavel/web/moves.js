// What just happened: log entries told as an action and the events that followed it, the
// moves of the others since my turn (stepped through near the board, marked on it), the
// reason a game ended, and a Djambi player told at once that they are out.
import { h } from "./dom.js";
import { t, getLang, logLine } from "./i18n.js";
import { logText } from "./players.js";
import "./moves-words.js";

const MAX_MOVES = 12; // older moves than these are for the log, not the board

/** One log entry: its first line is the action, the others the events that followed. */
export function logEntryNodes(seats, text) {
  const [action, ...events] = String(text).split("\n");
  return [
    h("span", { class: "log-action" }, logText(seats, action)),
    events.length ? h("ul", { class: "log-events", "aria-label": t("moves.events") }, events.map((line) => h("li", { class: "log-event" }, logText(seats, line)))) : null,
  ];
}

/** The moves of a log: runs of consecutive entries by one player (a Djambi move and the
 * corpse it places are one move). ``marks`` is parallel to the log, each with "player". */
export function movesOf(marks, from = 0) {
  const moves = [];
  for (let i = from; i < marks.length; i++) {
    const player = (marks[i] || {}).player;
    const last = moves[moves.length - 1];
    if (last && last.player === player && player !== undefined) last.last = i;
    else moves.push({ player, first: i, last: i });
  }
  return moves;
}

/**
 * Which moves the page shows as "what just happened", and which one is stepped to.
 * A player sees the others' moves since their own last one (their own move alone when
 * nobody has moved since); a spectator, the moves that came with the last change.
 */
export class MoveTrail {
  constructor() {
    this.step = null; // the index of the move stepped to, null: the latest, all marked
    this.changeFrom = 0; // the first log entry of the last change
    this.visits = 0; // counts steps, so that a move stepped to animates again
  }

  /** The log grew from ``before`` to ``after`` entries: a new change, seen from its end. */
  grew(before, after) {
    if (after <= before) return;
    this.changeFrom = before === 0 ? Math.max(0, after - 1) : before;
    this.step = null;
  }

  recent(marks, me) {
    if (!marks.length) return { moves: [], mine: false };
    if (me !== null && me !== undefined) {
      const own = lastIndexOf(marks, me);
      if (own >= 0) {
        const since = movesOf(marks, own + 1);
        if (since.length) return { moves: since.slice(-MAX_MOVES), mine: true };
        const moves = movesOf(marks);
        return { moves: moves.slice(-1), mine: true, ownOnly: true };
      }
      // Not played yet: every move so far, so that the bots' opening moves are all seen.
      return { moves: movesOf(marks).slice(-MAX_MOVES), mine: false, fromStart: true };
    }
    const moves = movesOf(marks);
    const start = moves.findIndex((m) => m.last >= this.changeFrom);
    return { moves: moves.slice(start < 0 ? -1 : start).slice(-MAX_MOVES), mine: false };
  }

  /** The board's marks: [{mark, kind: "last"|"earlier", id}], the move stepped to alone,
   * else every recent move, the latest as "last". */
  boardMarks(marks, me) {
    const { moves } = this.recent(marks, me);
    const shown = this.shownIndex(moves);
    const chosen = this.step === null ? moves : [moves[shown]];
    const items = [];
    for (const move of chosen) {
      const kind = move === moves[moves.length - 1] || this.step !== null ? "last" : "earlier";
      const id = `move-${move.first}-${this.step === null ? "latest" : this.visits}`;
      for (let i = move.first; i <= move.last; i++) items.push({ mark: marks[i] || {}, kind, id });
    }
    return items;
  }

  shownIndex(moves) {
    if (this.step === null || this.step >= moves.length) return moves.length - 1;
    return Math.max(0, this.step);
  }

  go(index, count) {
    this.step = Math.min(Math.max(0, index), count - 1);
    this.visits += 1;
  }
}

function lastIndexOf(marks, player) {
  for (let i = marks.length - 1; i >= 0; i--) if ((marks[i] || {}).player === player) return i;
  return -1;
}

/** The control near the board: "Move 2 of 3 since your turn: <log entry>", ◀ ▶. */
export function moveStepper(page) {
  const state = page.state;
  const { moves, mine, ownOnly, fromStart } = page.trail.recent(page.marks, state.player);
  if (!moves.length) return null;
  const shown = page.trail.shownIndex(moves);
  const move = moves[shown];
  const entries = page.log.slice(move.first, move.last + 1).map((entry) => h("div", { class: "move-entry" }, logEntryNodes(state.seats, logLine(entry))));
  const heading = ownOnly
    ? t("moves.your_last")
    : t(mine ? "moves.since_turn" : fromStart ? "moves.since_start" : "moves.since_change", { n: shown + 1, total: moves.length });
  const step = (index) => {
    page.trail.go(index, moves.length);
    page.render();
  };
  const several = moves.length > 1;
  return h(
    "div",
    { id: "move-stepper", class: "move-stepper panel", "aria-label": t("moves.what_happened"), "data-move": shown + 1, "data-moves": moves.length, "data-player": move.player },
    h(
      "div",
      { class: "move-head" },
      several ? h("button", { class: "small", id: "move-prev", title: t("moves.previous"), "aria-label": t("moves.previous"), disabled: shown === 0, onclick: () => step(shown - 1) }, "◀") : null,
      several ? h("button", { class: "small", id: "move-next", title: t("moves.next"), "aria-label": t("moves.next"), disabled: shown === moves.length - 1, onclick: () => step(shown + 1) }, "▶") : null,
      h("strong", { class: "move-count" }, heading),
      several && page.trail.step !== null ? h("button", { class: "small", id: "move-all", onclick: () => ((page.trail.step = null), page.render()) }, t("moves.all")) : null,
    ),
    h("div", { class: "move-text", "aria-live": "polite" }, entries),
  );
}

/** Attributes of a board element marking a move: class and data-mark for the kind, and an
 * animation carried on across redraws (none for a move already there when the page opened). */
export function markAttrs(ctx, item, cls) {
  const elapsed = ctx.reveal ? ctx.reveal(item.id) : null;
  const animate = elapsed !== null && item.kind === "last";
  return {
    class: `mark mark-${item.kind} ${cls}${animate ? " mark-anim" : ""}`,
    "data-mark": item.kind,
    style: animate ? { "--elapsed": `${Math.round(elapsed)}ms` } : null,
  };
}

/** The marks the board draws (none in replays and wherever the page gave none). */
export function marksOf(ctx) {
  return Array.isArray(ctx.marks) ? ctx.marks : [];
}

/** Why the game ended, in the page's language (resignations and abandons keep the
 * clocks' own sentence). */
export function endingNote(state) {
  const reason = state.outcome && state.outcome.reason;
  if (reason === "resigned" || reason === "abandoned") return null;
  const ending = state.ending || {};
  const text = ending[getLang()] || ending.en;
  if (!text) return null;
  return h("p", { id: "ending", class: "ending" }, h("strong", {}, t("moves.why_it_ended"), ": "), logText(state.seats, text));
}

/** A player put out of a game that goes on (Djambi: their Chief died), told at once; they
 * may keep watching (the notice folds into a line) or go back to the lobby. */
export function outNotice(page) {
  const state = page.state;
  if (state.is_over || state.player === null || !page.module.isOut || !page.module.isOut(state.view)) return null;
  if (page.outSeen) return h("p", { id: "out-of-game", class: "out-note muted", "data-seen": "1" }, t("moves.out_watching"));
  return h(
    "section",
    { id: "out-of-game", class: "out-notice", role: "alertdialog", "aria-label": t("moves.out_title") },
    h("h2", {}, t("moves.out_title")),
    h("p", {}, t("moves.out_text")),
    h(
      "p",
      { class: "end-actions" },
      h("button", { id: "keep-watching", class: "primary", onclick: () => ((page.outSeen = true), page.render()) }, t("moves.keep_watching")),
      " ",
      h("a", { class: "button", id: "out-lobby", href: "#/" }, t("back_to_lobby")),
    ),
  );
}
