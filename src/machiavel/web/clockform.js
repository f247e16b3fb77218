// @ts-check
// The lobby form's clock and stand-in level (docs/server.md, "Clocks and absent players"):
// no clock, a live clock (minutes each + seconds a move) or a turn-based one (days or
// hours a move), and the level of the bot that plays for an absent person.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {{kind: string, minutes: number, increment: number, amount: number, unit: string, standIn: string}} Clock  the form's clock */

const KINDS = ["none", "live", "turn-based"];
/** @type {Record<string, number>} */
const UNITS = { days: 86400, hours: 3600 };
/** @type {Record<string, string>} */
const NOTES = { none: "clock_note_none", live: "clock_note_live", "turn-based": "clock_note_turn_based" };

/** What the form starts with: no clock; a live or turn-based one has sensible values ready.
 * @returns {Clock} */
export function defaultClock() {
  return { kind: "none", minutes: 10, increment: 5, amount: 2, unit: "days", standIn: "medium" };
}

/** The fields of the clock; `clock` is changed in place, `redraw()` when the kind changes
 * (its fields do).
 * @param {Clock} clock @param {string[]} levels @param {() => void} redraw */
export function clockFieldset(clock, levels, redraw) {
  const kind = h(
    "select",
    { id: "new-clock", onchange: (e) => { clock.kind = e.target.value; redraw(); } },
    KINDS.map((k) => h("option", { value: k, selected: k === clock.kind }, t("clock." + k))),
  );
  const standIn = h(
    "select",
    { id: "new-stand-in", onchange: (e) => { clock.standIn = e.target.value; } },
    levels.map((level) => h("option", { value: level, selected: level === clock.standIn }, t("bot_level", { level: t("level." + level) }))),
  );
  return h(
    "fieldset",
    { class: "clock-fields" },
    h("legend", {}, t("clock")),
    h("div", { class: "form-row" }, kind, " ", amountFields(clock)),
    h("p", { class: "muted small-text clock-note" }, t(NOTES[clock.kind])),
    h("label", {}, t("stand_in"), " ", standIn),
    h("p", { class: "muted small-text" }, t("stand_in_note")),
  );
}

/**
 * @param {string} id @param {number} value @param {number} min @param {number} max
 * @param {number | "any"} step @param {(value: number) => void} change
 */
function numberField(id, value, min, max, step, change) {
  return h("input", { type: "number", id, value, min, max, step, class: "clock-number", onchange: (e) => change(Number(e.target.value)) });
}

/** @param {Clock} clock */
function amountFields(clock) {
  if (clock.kind === "live") {
    return [
      h("label", {}, numberField("new-clock-minutes", clock.minutes, 0.5, 1440, "any", (v) => { clock.minutes = v; }), " ", t("clock_minutes")),
      " ",
      h("label", {}, numberField("new-clock-increment", clock.increment, 0, 3600, 1, (v) => { clock.increment = v; }), " ", t("clock_increment")),
    ];
  }
  if (clock.kind === "turn-based") {
    const unit = h(
      "select",
      { id: "new-clock-unit", onchange: (e) => { clock.unit = e.target.value; } },
      Object.keys(UNITS).map((u) => h("option", { value: u, selected: u === clock.unit }, t("clock_unit." + u))),
    );
    return h("label", {}, numberField("new-clock-amount", clock.amount, 1, 1440, 1, (v) => { clock.amount = v; }), " ", unit, " ", t("clock_per_move"));
  }
  return null;
}

/** The request's part for the clock: {clock?, stand_in}. The server checks the numbers and
 * answers a refusal with a sentence, which the lobby shows.
 * @param {Clock} clock */
export function clockRequest(clock) {
  /** @type {{stand_in: string, clock?: {kind: string, initial?: number, increment?: number, per_move?: number}}} */
  const body = { stand_in: clock.standIn };
  if (clock.kind === "live") body.clock = { kind: "live", initial: clock.minutes * 60, increment: clock.increment };
  else if (clock.kind === "turn-based") body.clock = { kind: "turn-based", per_move: clock.amount * UNITS[clock.unit] };
  return body;
}
