// Help drawn next to the boards (and on the rules pages): Guildes' guild values per round
// (G2), Tyrus' blocking triangle (T5), the Tyros map legend (Y2, Y3). Each board module
// calls these in one line, so the help lives here and the board modules stay about play.
import { h, s, svgRoot } from "./dom.js";
import { t } from "./i18n.js";
import { GUILD_VALUES } from "./rules-data.js";
import "./rules-words.js";

// ---- Guildes ----------------------------------------------------------------------------

/** A guild's votes at the count of a round (1-3): "13 / 6", or "3 per card" for Milice. */
export function guildValues(guild, round) {
  const values = GUILD_VALUES[guild];
  if (!values) return "";
  if (values.per_card) return t("help.guildes.per_card", { n: values.per_card });
  const places = values.rounds[Math.min(3, Math.max(1, round)) - 1];
  return places.join(" / ");
}

/** A guild card's tooltip: its votes at each round's count, places in order. */
export function guildTitle(guild) {
  const values = GUILD_VALUES[guild];
  if (!values) return guild;
  if (values.per_card) return `${guild}: ${t("help.guildes.milice", { n: values.per_card })}`;
  const rounds = values.rounds.map((_, i) => t("help.guildes.round_values", { n: i + 1, values: guildValues(guild, i + 1) }));
  return `${guild}: ${rounds.join(" · ")}`;
}

/** Every guild's votes per place at each round's count; the current round stands out. */
export function guildValuesTable(round = 0) {
  const head = h(
    "tr",
    {},
    h("th", {}, t("help.guildes.guild")),
    [1, 2, 3].map((n) => h("th", { class: n === round ? "current-round" : "" }, t("help.guildes.round_n", { n }))),
  );
  const rows = Object.keys(GUILD_VALUES).map((guild) =>
    h(
      "tr",
      { "data-guild": guild },
      h("td", {}, guild),
      [1, 2, 3].map((n) => h("td", { class: "guild-values" + (n === round ? " current-round" : "") }, guildValues(guild, n))),
    ),
  );
  return h("div", { class: "table-scroll" }, h("table", { class: "guild-values-table" }, h("thead", {}, head), h("tbody", {}, rows)));
}

/** The board's help box: the values per round, folded; the current round marked. */
export function guildValuesPanel(round) {
  return h(
    "details",
    { class: "panel board-help guild-values-help" },
    h("summary", {}, t("help.guildes.values_title")),
    h("p", { class: "muted" }, t("help.guildes.values_note")),
    guildValuesTable(round),
  );
}

// ---- Tyrus ------------------------------------------------------------------------------

// Who blocks whom (T5): the blocker's profession -> the profession it blocks.
const BLOCKS = { M: "S", S: "P", P: "M" };
const PROFESSION = { S: "soldier", M: "merchant", P: "priest" };
const VOTERS = { citadel: "S", market: "M", temple: "P" };
const PROFESSION_COLOUR = { S: "#f4c6c0", M: "#f6e3a1", P: "#c9dcf0" };

/** The blocking triangle: an arrow from each profession to the one it blocks. */
export function blockingTriangle() {
  const at = { S: [90, 24], P: [156, 130], M: [24, 130] };
  const svg = svgRoot(180, 156, { class: "help-figure blocking-triangle", role: "img", "aria-label": t("help.tyrus.triangle_label") });
  svg.append(
    s("defs", {}, s("marker", { id: "help-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, s("path", { d: "M0 0 L10 5 L0 10 z", fill: "#5b4636" }))),
  );
  for (const [blocker, blocked] of Object.entries(BLOCKS)) {
    const [x1, y1] = at[blocker];
    const [x2, y2] = at[blocked];
    const shorten = 24 / Math.hypot(x2 - x1, y2 - y1);
    svg.append(
      s("line", {
        x1: x1 + (x2 - x1) * shorten, y1: y1 + (y2 - y1) * shorten,
        x2: x2 - (x2 - x1) * shorten, y2: y2 - (y2 - y1) * shorten,
        stroke: "#5b4636", "stroke-width": 2.5, "marker-end": "url(#help-arrow)",
      }),
    );
  }
  for (const [letter, [x, y]] of Object.entries(at)) {
    svg.append(
      s("g", { "data-profession": letter },
        s("title", {}, t("help.tyrus.blocks", { a: t("tyrus." + PROFESSION[letter]), b: t("tyrus." + PROFESSION[BLOCKS[letter]]) })),
        s("circle", { cx: x, cy: y, r: 19, fill: PROFESSION_COLOUR[letter], stroke: "#333" }),
        s("text", { x, y: y + 6, "text-anchor": "middle", "font-size": 17, "font-weight": "bold" }, letter)),
    );
  }
  return svg;
}

/** What a building decides: who votes there, what blocks them, what counters the block. */
export function buildingHelp(kind) {
  const voter = VOTERS[kind];
  const blocker = Object.keys(BLOCKS).find((b) => BLOCKS[b] === voter);
  const counter = Object.keys(BLOCKS).find((c) => BLOCKS[c] === blocker);
  return t("help.tyrus.building", {
    building: t("tyrus." + kind),
    voters: t("tyrus." + PROFESSION[voter]),
    blockers: t("tyrus." + PROFESSION[blocker]),
    counters: t("tyrus." + PROFESSION[counter]),
  });
}

/** The box next to the buildings: the triangle, the three buildings, the formula. */
export function blockingPanel() {
  return h(
    "div",
    { class: "panel board-help blocking-help" },
    h("h3", {}, t("help.tyrus.title")),
    h(
      "div",
      { class: "help-row" },
      blockingTriangle(),
      h(
        "div",
        {},
        h("p", {}, t("help.tyrus.arrows")),
        h("ul", {}, ["citadel", "market", "temple"].map((kind) => h("li", { "data-kind": kind }, buildingHelp(kind)))),
        h("p", { class: "muted" }, t("help.tyrus.score")),
      ),
    ),
  );
}

// ---- Tyros ------------------------------------------------------------------------------

const EMPIRE_SWATCH = { orange: "#E69F00", yellow: "#F0E442", green: "#009E73", violet: "#9F6BC0" };

function legendItem(figure, text) {
  return h("li", {}, svgRoot(44, 28, { class: "legend-swatch", "aria-hidden": "true" }, figure), " ", text);
}

/** The map's legend: walls, sea joins, Italy's two coasts, the open sea, Tyros. */
export function tyrosLegend() {
  return h(
    "div",
    { class: "panel board-help tyros-legend" },
    h("h3", {}, t("help.tyros.title")),
    h(
      "ul",
      { class: "legend-list" },
      legendItem(s("rect", { x: 1, y: 1, width: 42, height: 26, class: "water" }), t("help.tyros.sea")),
      legendItem([s("rect", { x: 1, y: 1, width: 42, height: 26, class: "water" }), s("line", { x1: 22, y1: 3, x2: 22, y2: 25, class: "wall" })], t("help.tyros.wall")),
      legendItem([s("rect", { x: 1, y: 1, width: 42, height: 26, fill: "#fffdf8", stroke: "#d8cfc0" }), s("line", { x1: 22, y1: 2, x2: 22, y2: 26, class: "coast-line" })], t("help.tyros.italy")),
      legendItem(s("g", { class: "open-sea" }, s("rect", { x: 1, y: 1, width: 42, height: 26, rx: 4 })), t("help.tyros.open_sea")),
      legendItem(s("rect", { x: 1, y: 1, width: 42, height: 26, rx: 4, fill: "#fffdf8", class: "tyros-cell" }), t("help.tyros.tyros")),
      legendItem(
        Object.values(EMPIRE_SWATCH).map((fill, i) => s("rect", { x: 2 + i * 10, y: 8, width: 9, height: 12, fill, stroke: "#222" })),
        t("help.tyros.markers"),
      ),
    ),
  );
}
