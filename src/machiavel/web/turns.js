// @ts-check
// Whose turn it is and since when, for the lobby, "your games" and the game page. The time
// is the server's `turn_since`, shown as a duration ("3 hours") with the date and time as a
// tooltip. One clock redraws every such duration from the time itself every 30 s, so the
// text stays right without asking the server again.
import { h } from "./dom.js";
import { t, getLang } from "./i18n.js";
import { playerLabel } from "./players.js";

const TICK = 30000; // ms between two redraws of the durations on screen
/** @type {[string, number][]} */
const UNITS = [
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
];
/** @type {ReturnType<typeof setInterval> | null} */
let clock = null;

/** How long ``ms`` milliseconds are, in words: "less than a minute", "5 minutes", "2 days".
 * @param {number} ms */
export function durationText(ms) {
  const seconds = Math.max(0, ms / 1000); // a clock a little behind the server's: "just now"
  for (const [unit, size] of UNITS) {
    if (seconds >= size) {
      const format = new Intl.NumberFormat(getLang(), { style: "unit", unit, unitDisplay: "long" });
      return format.format(Math.floor(seconds / size));
    }
  }
  return t("under_a_minute");
}

/** A <time> showing how long ago ``iso`` was, kept up to date by the clock.
 * @param {string} iso */
export function sinceNode(iso) {
  startClock();
  const moment = new Date(iso);
  const absolute = moment.toLocaleString(getLang(), { dateStyle: "full", timeStyle: "short" });
  return h("time", { class: "since", datetime: iso, title: absolute }, durationText(Date.now() - moment.getTime()));
}

function startClock() {
  if (clock === null) clock = setInterval(redraw, TICK);
}

function redraw() {
  for (const node of document.querySelectorAll("time.since")) {
    if (!(node instanceof HTMLTimeElement)) continue;
    node.textContent = durationText(Date.now() - Date.parse(node.dateTime));
  }
}

/** A translated text with ``{name}`` replaced by a node (never parsed as HTML).
 * @param {string} key @param {string} name @param {import("./dom.js").Child} node @param {Record<string, unknown>} [params] */
function withNode(key, name, node, params = {}) {
  const [before, after = ""] = t(key, params).split(`{${name}}`);
  return [before, node, after];
}

/**
 * "Bob's turn for 3 hours" / "your turn for 2 days" / "to play: Ada, Bob for 5 minutes";
 * null when nobody is to move (a game over). ``me``: the reader's seat, if any.
 * @param {{seats: import("./players.js").Seat[], toMove: number[] | null | undefined, turnSince: string | null | undefined, me?: number | null}} turn
 */
export function turnLine({ seats, toMove, turnSince, me = null }) {
  if (!turnSince || !toMove || !toMove.length) return null;
  let who;
  if (me !== null && me !== undefined && toMove.includes(me)) who = t("turn_yours");
  else if (toMove.length === 1) who = withNode("turn_of", "who", playerLabel(seats, toMove[0]));
  else who = withNode("turn_of_many", "who", toMove.map((p, i) => [i ? ", " : "", playerLabel(seats, p)]));
  return h(
    "span",
    { class: "turn-line", "data-to-move": toMove.join(",") },
    who,
    " ",
    withNode("turn_for", "time", sinceNode(turnSince)),
  );
}

/** The mark of a turn-based table (a live one has none: it is the usual pace). */
/** @param {string | undefined} pace */
export function paceTag(pace) {
  if (pace !== "turn-based") return null;
  return h("span", { class: "tag pace-tag", "data-pace": pace, title: t("pace_turn_based_note") }, t("pace_turn_based"));
}

/** The game page's line under its status: the pace, whose turn and since when.
 * @param {import("./api.js").Json} state */
export function turnNote(state) {
  if (state.is_over) return null;
  const line = turnLine({ seats: state.seats, toMove: state.to_move, turnSince: state.turn_since, me: state.player });
  if (!line && state.pace !== "turn-based") return null;
  return h("p", { class: "turn-note muted", id: "turn-note" }, paceTag(state.pace), line ? " " : null, line);
}
