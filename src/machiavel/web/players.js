// @ts-check
// How players are told apart: a colour from the Okabe-Ito palette (chosen to stay distinct
// for colour-blind eyes) AND a shape AND the seat number, never the colour alone.
import { h, s, polygon } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {{player: number, kind: string, name?: string | null, level?: string, claimed?: boolean, reserved?: boolean, bot_account?: boolean}} Seat */
/** @typedef {Record<string, unknown>} Attrs */

export const PLAYER_STYLES = [
  { colour: "#0072B2", shape: "circle" },
  { colour: "#E69F00", shape: "square" },
  { colour: "#009E73", shape: "triangle" },
  { colour: "#CC79A7", shape: "diamond" },
  { colour: "#D55E00", shape: "hexagon" },
  { colour: "#56B4E9", shape: "star" },
];

/** @param {number} player */
export function playerStyle(player) {
  return PLAYER_STYLES[player % PLAYER_STYLES.length];
}

/** An SVG shape for any fill, centred on (cx, cy) with radius r. */
/** @param {string} shape @param {number} cx @param {number} cy @param {number} r @param {Attrs} [attrs] */
export function shapeAt(shape, cx, cy, r, attrs = {}) {
  switch (shape) {
    case "circle":
      return s("circle", { cx, cy, r: r * 0.9, ...attrs });
    case "square":
      return s("rect", { x: cx - r * 0.8, y: cy - r * 0.8, width: r * 1.6, height: r * 1.6, ...attrs });
    case "triangle":
      return s("polygon", { points: polygon(cx, cy + r * 0.15, r * 1.05, 3), ...attrs });
    case "diamond":
      return s("polygon", { points: polygon(cx, cy, r, 4), ...attrs });
    case "hexagon":
      return s("polygon", { points: polygon(cx, cy, r * 0.95, 6, 0), ...attrs });
    case "star": {
      const points = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (Math.PI * i) / 5;
        const radius = i % 2 === 0 ? r : r * 0.45;
        points.push(`${(cx + radius * Math.cos(a)).toFixed(1)},${(cy + radius * Math.sin(a)).toFixed(1)}`);
      }
      return s("polygon", { points: points.join(" "), ...attrs });
    }
    default:
      return s("circle", { cx, cy, r, ...attrs });
  }
}

/** A player's token in an SVG: their shape in their colour with their seat number on it. */
/** @param {number} player @param {number} cx @param {number} cy @param {number} r @param {Attrs} [extra] */
export function playerMark(player, cx, cy, r, extra = {}) {
  const style = playerStyle(player);
  return s(
    "g",
    { class: "player-mark", "data-player": player, ...extra },
    shapeAt(style.shape, cx, cy, r, { fill: style.colour, stroke: "#222", "stroke-width": Math.max(0.8, r / 8) }),
    s(
      "text",
      { x: cx, y: cy + r * 0.12, "font-size": r * 1.05, class: "mark-text", "text-anchor": "middle", "dominant-baseline": "middle" },
      String(player + 1),
    ),
  );
}

/** A small inline badge for text: shape + colour + seat number. */
/** @param {number} player */
export function playerBadge(player) {
  return h(
    "span",
    { class: "badge-wrap", title: t("seat_n", { n: player + 1 }) },
    s("svg", { class: "badge", viewBox: "0 0 20 20", "aria-hidden": "true" }, playerMark(player, 10, 10, 8.5)),
  );
}

/** The name of a seat as people read it.
 * @param {Seat[] | null | undefined} seats @param {number | null | undefined} player */
export function seatName(seats, player) {
  if (player === null || player === undefined) return t("spectator");
  const seat = seats && seats[player];
  if (!seat) return t("player_n", { n: player + 1 });
  const botName = seat.kind === "bot" ? t("bot_level", { level: t("level." + seat.level) }) : null;
  if (seat.name && !(botName && seat.name === `${seat.level} bot`)) return seat.name; // the server's default bot name is translated
  if (botName) return botName;
  return t("player_n", { n: player + 1 });
}

/** Badge and name together, for lists and status lines.
 * @param {Seat[] | null | undefined} seats @param {number} player @param {string} [extraText] */
export function playerLabel(seats, player, extraText = "") {
  return h("span", { class: "player-label", "data-player": player }, playerBadge(player), " ", seatName(seats, player), extraText);
}

// The engines write seats into log lines as "player 2" / "joueur 2" (0-based, as in actions);
// the page numbers seats from 1 and names them, so each such mention becomes the seat's label.
const SEAT_MENTION = /\b(?:[Pp]layer|[Jj]oueur) (\d+)\b/g;

/** A log line with every "player N" shown as that seat's badge and name.
 * @param {Seat[] | null | undefined} seats @param {string} text @returns {(string | Node)[]} */
export function logText(seats, text) {
  if (!seats) return [text];
  /** @type {(string | Node)[]} */
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(SEAT_MENTION)) {
    const player = Number(match[1]);
    if (player >= seats.length) continue;
    parts.push(text.slice(last, /** @type {number} */ (match.index)), playerLabel(seats, player));
    last = /** @type {number} */ (match.index) + match[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}
