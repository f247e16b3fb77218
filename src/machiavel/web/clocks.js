// @ts-check
// Clocks and absent players on the game page (docs/server.md, "Clocks and absent players"):
// each seat's time, counting down to the deadlines of the state; the seats a stand-in bot
// plays; the banner that gives one's seat back; leaving the table; why a game ended outside
// its rules. Everything is drawn from the state, so a reload shows the same page.
import { api, gamePath } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./players.js";

/** @typedef {import("./api.js").Json} Json */
/**
 * The state's clocks (docs/server.md): seconds left, deadlines of the running ones.
 * @typedef {{kind: string, initial: number, increment: number, per_move: number, left: number[], deadlines: (string | null)[]}} Clocks
 */
/**
 * What these controls need of the game page (game.js GamePage).
 * @typedef {object} TablePage
 * @property {Json} state
 * @property {string} gameId
 * @property {string | null} token
 * @property {boolean} [confirmingLeave]  "Leave the table" asks to confirm (kept across pushes)
 * @property {() => void} render
 * @property {(payload: Json) => void} applyState
 * @property {(kind: string, text: string) => void} flash
 */

const TICK_MS = 250; // often enough for a seconds display; only text changes, no request
const LOW_SHARE = 0.2; // a clock under a fifth of its full time is marked low ...
const LOW_SECONDS = 10; // ... and always under ten seconds
const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

// ---- reading the state ------------------------------------------------------------------
/** Seconds left to a seat: to its deadline if its clock runs, else what the state says.
 * @param {Clocks} clocks @param {number} player @param {number} [now] */
export function secondsLeft(clocks, player, now = Date.now()) {
  const deadline = clocks.deadlines[player];
  if (!deadline) return clocks.left[player];
  return Math.max(0, (Date.parse(deadline) - now) / 1000);
}

/** A seat's full time: the live bank it started with, or the time a move.
 * @param {Clocks} clocks */
function fullTime(clocks) {
  return clocks.kind === "live" ? clocks.initial : clocks.per_move;
}

/** @param {number} seconds @param {number} full */
function isLow(seconds, full) {
  return seconds <= Math.max(LOW_SECONDS, full * LOW_SHARE);
}

/** "a medium bot", "an easy bot" (articles differ by level and language); null if the
 * state does not say the level.
 * @param {string | null | undefined} level */
export function aBot(level) {
  return level ? t("a_bot." + level, {}, t("bot_level", { level })) : null;
}

/** @param {string} text */
function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A stand-in bot plays this page's own seat.
 * @param {Json} state @returns {boolean} */
export function standingIn(state) {
  return !state.is_over && state.player !== null && !!state.seats[state.player].stand_in;
}

/** The state as the page uses it: while a stand-in plays this seat, the person has no
 * choice to make (the server would refuse it: take the seat back first).
 * @param {Json} state @returns {Json} */
export function quietWhileStoodIn(state) {
  return standingIn(state) ? { ...state, legal_actions: [] } : state;
}

// ---- writing durations -------------------------------------------------------------------
/** A live bank as a chess clock shows it: 4:05, 1:02:09. Whole seconds, rounded up, so 0:00
 * means the time is out.
 * @param {number} seconds */
export function formatBank(seconds) {
  const whole = Math.ceil(seconds);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  const hours = Math.floor(whole / HOUR);
  const minutes = Math.floor((whole % HOUR) / MINUTE);
  const rest = whole % MINUTE;
  return hours ? `${hours}:${pad(minutes)}:${pad(rest)}` : `${minutes}:${pad(rest)}`;
}

/** A longer span in its two largest units: "1 d 3 h", "3 h 20 min", "12 min", "42 s".
 * @param {number} seconds */
export function formatSpan(seconds) {
  const whole = Math.ceil(seconds);
  /** @type {[number, string][]} */
  const units = [
    [DAY, "unit_d"],
    [HOUR, "unit_h"],
    [MINUTE, "unit_min"],
    [1, "unit_s"],
  ];
  const parts = [];
  let rest = whole;
  for (const [size, key] of units) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count && parts.length < 2) parts.push(t(key, { n: count }));
    else if (parts.length) break; // "1 d 0 h 5 min" reads better as "1 d"
  }
  return parts.length ? parts.join(" ") : t("unit_s", { n: 0 });
}

/** @param {string | undefined} kind @param {number} seconds */
function clockText(kind, seconds) {
  return kind === "live" ? formatBank(seconds) : t("clock_left", { time: formatSpan(seconds) });
}

// ---- drawing ----------------------------------------------------------------------------
/** A seat's clock for its row in the players' list: counting down when it runs (the ticker
 * redraws its text), still otherwise; a turn-based seat not to move shows nothing.
 * @param {Json} state @param {number} player */
export function seatClock(state, player) {
  /** @type {Clocks | null} */
  const clocks = state.clocks;
  if (!clocks || state.is_over) return null;
  const deadline = clocks.deadlines[player];
  if (!deadline && clocks.kind !== "live") return null;
  const seconds = secondsLeft(clocks, player);
  const classes = ["clock", deadline ? "running" : "stopped", isLow(seconds, fullTime(clocks)) ? "low" : ""];
  return h(
    "span",
    {
      class: classes.join(" ").trim(),
      "data-player": player,
      "data-kind": clocks.kind,
      "data-full": fullTime(clocks),
      "data-deadline": deadline || null,
      role: "timer",
      "aria-label": t("clock_of", { name: seatName(state.seats, player) }),
    },
    clockText(clocks.kind, seconds),
  );
}

/** "a medium bot plays for ada", on the row of a seat a stand-in plays.
 * @param {Json} state @param {Json} seat */
export function standInMark(state, seat) {
  if (!seat.stand_in || state.is_over) return null;
  const name = seatName(state.seats, seat.player);
  const bot = aBot(state.stand_in_level);
  const text = bot ? t("stand_in_plays", { bot, name }) : t("stand_in_plays_any", { name });
  return h("span", { class: "tag stand-in-tag", "data-player": seat.player }, text);
}

/** What the table's clock is, under the players: "Clock: 10 min + 5 s a move".
 * @param {Json} state */
function clockSummary(state) {
  /** @type {Clocks | null} */
  const clocks = state.clocks;
  if (!clocks) return null;
  const what =
    clocks.kind === "live"
      ? t("clock_live", { initial: formatSpan(clocks.initial), increment: formatSpan(clocks.increment) })
      : t("clock_turn_based", { per_move: formatSpan(clocks.per_move) });
  const waiting = !state.is_over && state.version === 0; // clocks start with the first action
  return h("p", { class: "clock-summary muted", "data-kind": clocks.kind }, what, waiting ? [" — ", t("clock_not_started")] : null);
}

/** The banner of a person whose seat a stand-in plays: take it back.
 * @param {TablePage} page */
export function standInBanner(page) {
  const state = page.state;
  if (!standingIn(state)) return null;
  const bot = aBot(state.stand_in_level);
  return h(
    "section",
    { id: "stand-in-banner", class: "stand-in-banner", role: "alert" },
    h("strong", {}, bot ? capitalized(t("stand_in_banner", { bot })) : t("stand_in_banner_any")),
    " ",
    h("span", {}, t("stand_in_banner_note")),
    " ",
    h("button", { id: "take-back", class: "primary", onclick: () => takeBack(page) }, t("take_back")),
  );
}

/** Under the players: the table's clock and, for a seated player, "Leave the table" (with
 * a confirmation, kept on the page object so that a push redrawing the page keeps it).
 * @param {TablePage} page */
export function tableControls(page) {
  const summary = clockSummary(page.state);
  const leave = leaveControl(page);
  if (!summary && !leave) return null;
  return h("div", { class: "panel table-controls" }, summary, leave);
}

/** @param {TablePage} page */
function leaveControl(page) {
  const state = page.state;
  if (state.is_over || state.player === null || standingIn(state)) {
    page.confirmingLeave = false;
    return null;
  }
  if (!page.confirmingLeave) {
    return h("p", { class: "leave-table" }, h("button", { id: "leave", onclick: () => askToLeave(page, true) }, t("leave_table")));
  }
  const resigns = state.seats.length === 2; // the server ends a game of two: the other wins
  const bot = aBot(state.stand_in_level || "medium");
  return h(
    "div",
    { id: "leave-confirm", class: "leave-confirm", role: "alertdialog", "aria-label": t("leave_table") },
    h("p", {}, resigns ? t("leave_confirm_resign") : capitalized(t("leave_confirm", { bot }))),
    h("button", { id: "leave-yes", class: "danger", onclick: () => leave(page) }, t(resigns ? "leave_yes_resign" : "leave_yes")),
    " ",
    h("button", { id: "leave-no", onclick: () => askToLeave(page, false) }, t("leave_no")),
  );
}

/** Why a game ended outside its rules, on the end screen.
 * @param {Json} state */
export function outcomeNote(state) {
  const outcome = state.outcome;
  if (!outcome) return null;
  let text;
  if (outcome.reason === "resigned") text = t("ended_resigned", { name: seatName(state.seats, outcome.player) });
  else if (outcome.reason === "abandoned") text = t("ended_abandoned");
  else return null;
  return h("p", { id: "outcome", class: "outcome", "data-reason": outcome.reason }, text);
}

// ---- acting -----------------------------------------------------------------------------
/** @param {TablePage} page @param {boolean} asking */
function askToLeave(page, asking) {
  page.confirmingLeave = asking;
  page.render();
}

/** @param {TablePage} page */
async function leave(page) {
  page.confirmingLeave = false;
  await seatRequest(page, "/leave");
}

/** @param {TablePage} page */
async function takeBack(page) {
  await seatRequest(page, "/return");
}

/** /leave or /return for this page's seat (its token, else the account's cookie); the answer
 * is the new state, a refusal a sentence (403, 409, 429).
 * @param {TablePage} page @param {string} path */
async function seatRequest(page, path) {
  const { status, data } = await api("POST", gamePath(page.gameId, path), page.token ? { token: page.token } : {});
  if (status === 200) page.applyState(data);
  else {
    page.flash("error", data.detail || t("error"));
    page.render();
  }
}

// ---- the ticker -------------------------------------------------------------------------
/** @type {WeakMap<Element, ReturnType<typeof setInterval>>} */
const tickers = new WeakMap(); // root -> interval id

/** Redraw the text of the running clocks in `root` a few times a second; the timer stops by
 * itself once no clock runs there (the game ended, or the page changed).
 * @param {Element} root */
export function keepClocksTicking(root) {
  if (tickers.has(root) || !root.querySelector(".clock[data-deadline]")) return;
  const timer = setInterval(() => {
    const running = root.querySelectorAll(".clock[data-deadline]");
    if (!running.length) {
      clearInterval(timer);
      tickers.delete(root);
      return;
    }
    const now = Date.now();
    for (const node of running) if (node instanceof HTMLElement) redrawClock(node, now);
  }, TICK_MS);
  tickers.set(root, timer);
}

/** @param {HTMLElement} node @param {number} now */
function redrawClock(node, now) {
  const seconds = Math.max(0, (Date.parse(node.dataset.deadline ?? "") - now) / 1000);
  const text = clockText(node.dataset.kind, seconds);
  if (node.textContent !== text) node.textContent = text;
  node.classList.toggle("low", isLow(seconds, Number(node.dataset.full)));
}
