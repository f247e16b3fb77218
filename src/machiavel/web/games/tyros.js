// Tyros: the 7x5 Mediterranean grid of view.map, empire markers (colour AND shape), ships
// (by coast in Italy), cities, the hand, tiles and trade offers.
// Keys: "verb:<word>" first, then "cell:<id>" (map cells, "cell:16e"/"cell:16w" for Italy's
// coasts), "colour:<c>", "player:<p>", and card lists "pay:", "fee:", "cards:", "take:",
// "give:", "ask:", "return:".
import { h, s, svgRoot } from "../dom.js";
import { t } from "../i18n.js";
import { playerMark, playerStyle, shapeAt } from "../players.js";
import { tyrosLegend } from "../board-help.js";
import { marksOf, markAttrs } from "../moves.js";
import { answerButtons, offerBuilder } from "./tyros-trade.js";

export const EMPIRE = {
  orange: { fill: "#E69F00", shape: "triangle" },
  yellow: { fill: "#F0E442", shape: "circle" },
  green: { fill: "#009E73", shape: "square" },
  violet: { fill: "#9F6BC0", shape: "diamond" },
  joker: { fill: "#FFFFFF", shape: "star" },
};
const COLOURS = ["orange", "yellow", "green", "violet", "joker"];
const CW = 112;
const CH = 88;
const PAD = 10;

function keys(action) {
  const words = action.split(" ");
  const verb = words[0];
  const out = ["verb:" + verb];
  let i = 1;
  if (verb === "expand") out.push("cell:" + words[1], "colour:" + words[2]), (i = 3);
  else if (verb === "under") out.push("cell:" + words[1]), (i = 2);
  else if (verb === "move") {
    const [from, to] = words[1].split(">");
    out.push("cell:" + from, "cell:" + to);
    i = 2;
  } else if (verb === "city" || verb === "ship") out.push("cell:" + words[1]), (i = 2);
  else if (verb === "bank" || verb === "keep") out.push("cards:" + words[1]), (i = 2);
  else if (verb === "offer") out.push("player:" + words[1]), (i = 2);
  for (; i + 1 < words.length; i += 2) out.push(`${words[i]}:${words[i + 1]}`);
  return { keys: out };
}

function cardList(text) {
  const counts = {};
  for (const c of text.split(",")) counts[c] = (counts[c] || 0) + 1;
  return counts;
}

export function cardChips(counts) {
  const chips = [];
  for (const colour of COLOURS) {
    const n = counts[colour] || 0;
    if (!n) continue;
    chips.push(
      h(
        "span",
        { class: "card-chip", "data-colour": colour, title: t("tyros." + colour) },
        s("svg", { class: "badge", viewBox: "0 0 20 20" }, shapeAt(EMPIRE[colour].shape, 10, 10, 8, { fill: EMPIRE[colour].fill, stroke: "#222" })),
        n > 1 ? `×${n}` : "",
        h("span", { class: "chip-name" }, t("tyros." + colour)),
      ),
    );
  }
  return chips.length ? chips : [t("tyros.nothing")];
}

function label(key, ctx) {
  const [kind, value] = key.split(/:(.*)/s);
  switch (kind) {
    case "verb":
      return t("tyros.verb." + value);
    case "cell":
      return cellName(value, ctx && ctx.view);
    case "colour":
      return h("span", {}, cardChips({ [value]: 1 }));
    case "player":
      return ctx ? ctx.label(Number(value)) : value;
    case "return":
      return t("tyros.return_ship", { coast: t("tyros.coast_" + value.slice(-1)) });
    default:
      return h("span", { class: "cards-label" }, t("tyros.part." + kind), " ", cardChips(cardList(value)));
  }
}

function cellName(id, view) {
  if (id === "tyros") return "Tyros";
  const base = id.replace(/[ew]$/, "");
  const cell = view && view.map ? view.map.cells.find((c) => c.id === base) : null;
  const coast = id !== base ? ` (${t("tyros.coast_" + id.slice(-1))})` : "";
  return `${id}${cell ? " " + cell.name : ""}${coast}`;
}

function describe(action, ctx) {
  const spec = keys(action).keys;
  return h("span", {}, spec.map((key) => [label(key, ctx), " "]));
}

function hint(view) {
  return t("tyros.hint." + view.phase);
}

// ---- the map ----------------------------------------------------------------------------
function cellXY(cell) {
  return [PAD + cell.x * CW, PAD + cell.y * CH];
}

function shipShape(owner, x, y) {
  const style = playerStyle(owner);
  return s(
    "g",
    { class: "ship", "data-owner": owner },
    s("path", { d: `M${x - 11} ${y} h22 l-5 7 h-12 z`, fill: style.colour, stroke: "#222", "stroke-width": 1 }),
    playerMark(owner, x, y - 6, 6),
  );
}

function cityShape(owner, x, y) {
  const style = playerStyle(owner);
  return s(
    "g",
    { class: "city", "data-owner": owner },
    s("path", { d: `M${x - 13} ${y + 10} v-14 l13 -10 l13 10 v14 z`, fill: style.colour, stroke: "#111", "stroke-width": 2 }),
    s("text", { x, y: y + 6, "text-anchor": "middle", "font-size": 12, "font-weight": "bold", class: "mark-text" }, String(owner + 1)),
  );
}

function marker(colour, x, y) {
  return s(
    "g",
    { class: "marker", "data-colour": colour },
    shapeAt(EMPIRE[colour].shape, x, y, 10, { fill: EMPIRE[colour].fill, stroke: "#222", "stroke-width": 1.5 }),
  );
}

function barriers(view) {
  // Neighbouring cells with no sea join (land between them) get a wall on their side.
  const joined = new Set(view.map.sea_routes.map(([a, b]) => [a.replace(/[ew]$/, ""), b.replace(/[ew]$/, "")].sort().join("|")));
  const at = new Map(view.map.cells.map((c) => [`${c.x},${c.y}`, c]));
  const walls = [];
  for (const cell of view.map.cells) {
    if (cell.id === "sea") continue;
    for (const [dx, dy] of [[1, 0], [0, 1]]) {
      const other = at.get(`${cell.x + dx},${cell.y + dy}`);
      if (!other || other.id === "sea") continue;
      if (joined.has([cell.id, other.id].sort().join("|"))) continue;
      const [x, y] = cellXY(other);
      walls.push(dx ? s("line", { x1: x, y1: y + 4, x2: x, y2: y + CH - 4, class: "wall" }) : s("line", { x1: x + 4, y1: y, x2: x + CW - 4, y2: y, class: "wall" }));
    }
  }
  return walls;
}

function mapBoard(ctx) {
  const view = ctx.view;
  const W = PAD * 2 + 7 * CW;
  const H = PAD * 2 + 5 * CH;
  const svg = svgRoot(W, H, { class: "board tyros-board", role: "img", "aria-label": t("board") });
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, class: "water", rx: 10 }));
  const shipsAt = {};
  for (const ship of view.ships) {
    const place = ship.cell + (ship.coast || "");
    (shipsAt[place] = shipsAt[place] || []).push(ship.owner);
  }
  for (const cell of view.map.cells) {
    const [x, y] = cellXY(cell);
    if (cell.id === "sea") {
      svg.append(
        s("g", { class: "open-sea" },
          s("rect", { x: x + 3, y: y + 3, width: CW - 6, height: CH - 6, rx: 8 }),
          s("path", { d: `M${x + 14} ${y + 50} q10 -12 20 0 t20 0 t20 0 t20 0`, class: "waves" }),
          s("text", { x: x + CW / 2, y: y + 26, "text-anchor": "middle", "font-size": 11 }, t("tyros.open_sea"))),
      );
      continue;
    }
    const colour = view.markers[cell.id];
    const g = s("g", { ...ctx.key("cell:" + cell.id, "cell"), "data-cell": cell.id });
    g.append(s("rect", { x: x + 3, y: y + 3, width: CW - 6, height: CH - 6, rx: 8, class: "cell-bg" + (cell.id === "tyros" ? " tyros-cell" : ""), style: colour ? { fill: EMPIRE[colour].fill, "fill-opacity": "0.45" } : null }));
    g.append(s("text", { x: x + 9, y: y + 19, "font-size": 13, "font-weight": "bold" }, cell.id === "tyros" ? "T" : cell.id));
    g.append(s("text", { x: x + 9, y: y + 33, "font-size": 10.5 }, cell.name));
    if (colour) g.append(marker(colour, x + CW - 18, y + 18));
    const city = view.cities[cell.id];
    if (city !== undefined) g.append(cityShape(city, x + 22, y + 55));
    if (cell.id === "16") {
      g.append(s("line", { x1: x + CW / 2, y1: y + 38, x2: x + CW / 2, y2: y + CH - 6, class: "coast-line" }));
      g.append(s("text", { x: x + CW / 2 - 5, y: y + 48, "font-size": 10, "text-anchor": "end" }, t("tyros.coast_w_short")), s("text", { x: x + CW / 2 + 5, y: y + 48, "font-size": 10 }, t("tyros.coast_e_short")));
    }
    g.append(s("rect", { x: x + 5, y: y + 5, width: CW - 10, height: CH - 10, rx: 7, class: "cell-hl" }));
    svg.append(g);
    if (cell.id === "16") {
      for (const coast of ["w", "e"]) {
        const half = s("g", { ...ctx.key("cell:16" + coast, "coast"), "data-cell": "16" + coast });
        half.append(s("rect", { x: x + (coast === "w" ? 5 : CW / 2), y: y + 38, width: CW / 2 - 5, height: CH - 43, rx: 5, class: "coast-hl" }));
        (shipsAt["16" + coast] || []).forEach((owner, i) => half.append(shipShape(owner, x + (coast === "w" ? 18 : CW / 2 + 14) + i * 24, y + 62)));
        svg.append(half);
      }
    } else {
      const ships = shipsAt[cell.id] || [];
      const startX = x + (city !== undefined ? 52 : 18);
      const step = Math.min(24, (x + CW - 12 - startX) / Math.max(1, ships.length));
      ships.forEach((owner, i) => g.append(shipShape(owner, startX + i * step, y + 64)));
    }
  }
  svg.append(...barriers(view));
  svg.append(moveMarks(ctx));
  return svg;
}

// ---- what just happened (board marks: route, cells, nodes; docs/games/tyros.md) ------
/** The centre of a map node as move actions spell it: a cell, "tyros", or Italy's coasts
 * "16e" / "16w" (the coast halves drawn under the cell's name). */
function nodeXY(token, view) {
  const id = String(token);
  const base = id.replace(/[ew]$/, "");
  const cell = view.map.cells.find((c) => c.id === base);
  if (!cell) return null;
  const [x, y] = cellXY(cell);
  if (id !== base) return [x + (id.endsWith("w") ? CW / 4 + 2 : (CW * 3) / 4 - 2), y + 62];
  return [x + CW / 2, y + CH / 2 + 6];
}

function moveMarks(ctx) {
  const view = ctx.view;
  const layer = s("g", { class: "marks", "aria-hidden": "true" });
  for (const item of marksOf(ctx)) {
    const { route, cells, nodes } = item.mark;
    const points = (Array.isArray(route) ? route : []).map((n) => nodeXY(n, view)).filter(Boolean);
    if (points.length >= 2) {
      const d = points.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)}`).join(" ");
      layer.append(
        s("g", { ...markAttrs(ctx, item, "mark-route"), "data-route": route.join(">") },
          s("path", { d, class: "mark-line", pathLength: 100 }),
          s("circle", { cx: points[0][0], cy: points[0][1], r: 6, class: "mark-origin" }),
          s("circle", { cx: points[points.length - 1][0], cy: points[points.length - 1][1], r: 9, class: "mark-end" })),
      );
    }
    for (const id of Array.isArray(cells) ? cells : []) {
      const cell = view.map.cells.find((c) => c.id === String(id));
      if (!cell) continue;
      const [x, y] = cellXY(cell);
      layer.append(s("rect", { ...markAttrs(ctx, item, "mark-cell"), x: x + 1, y: y + 1, width: CW - 2, height: CH - 2, rx: 9, "data-cell": cell.id }));
    }
    for (const token of Array.isArray(nodes) ? nodes : []) {
      const at = nodeXY(token, view);
      if (at) layer.append(s("circle", { ...markAttrs(ctx, item, "mark-node"), cx: at[0], cy: at[1], r: 17, "data-node": String(token) }));
    }
  }
  return layer;
}

// ---- panels -----------------------------------------------------------------------------
function offerPanel(ctx) {
  const offer = ctx.view.offer;
  if (!offer) return null;
  const forMe = offer.to === ctx.me;
  return h(
    "div",
    { class: "panel offer" + (forMe ? " for-me" : ""), "data-from": offer.from, "data-to": offer.to },
    h("h3", {}, t("tyros.offer")),
    h("p", {}, ctx.label(offer.from), " → ", ctx.label(offer.to)),
    h("p", {}, t("tyros.gives"), ": ", cardChips(offer.give)),
    h("p", {}, t("tyros.asks"), ": ", cardChips(offer.ask)),
    forMe ? answerButtons(ctx, offer) : h("p", { class: "muted" }, t("tyros.waiting_answer")),
  );
}

function handPanel(ctx) {
  const view = ctx.view;
  if (view.hands) {
    return h(
      "div",
      { class: "panel all-hands" },
      h("h3", {}, t("tyros.hands")),
      view.hands.map((hand, p) => h("div", { class: "hand-row" }, ctx.label(p), ": ", cardChips(hand || {}), " · ", t("tyros.tiles"), ": ", (view.tiles[p] || []).join(", ") || "—")),
    );
  }
  if (view.hand === null || view.hand === undefined) return null;
  const tiles = (view.my_tiles || []).map((tile) => h("button", { ...ctx.key("cell:" + tile, "tile-chip"), "data-tile": tile }, cellName(String(tile), view)));
  return h(
    "div",
    { class: "panel hand" },
    h("h3", {}, t("tyros.your_cards")),
    h("p", {}, cardChips(view.hand)),
    h("h3", {}, t("tyros.your_tiles")),
    h("p", { class: "tiles" }, tiles.length ? tiles : "—"),
    view.kept ? h("p", { class: "muted" }, t("tyros.you_keep"), ": ", cardChips(view.kept)) : null,
  );
}

function playersTable(ctx) {
  const view = ctx.view;
  const rows = view.player_info.map((info, p) =>
    h(
      "tr",
      { class: view.current_player === p ? "current" : "", "data-player": p },
      h("td", {}, ctx.label(p)),
      h("td", {}, String(view.scores[p])),
      h("td", {}, String(info.cards)),
      h("td", {}, String(info.tiles)),
      h("td", {}, `${info.ships_in_supply} / ${info.cities_in_supply}`),
      h("td", { class: "small-text" }, t("tyros.score_parts", info.score)),
      h("td", { class: "small-text" }, info.known_cards ? cardChips(info.known_cards) : "", info.shown_tiles && info.shown_tiles.length ? ` ${t("tyros.shown")}: ${info.shown_tiles.join(", ")}` : ""),
    ),
  );
  return h(
    "div",
    { class: "panel table-scroll" },
    h(
      "table",
      { class: "tyros-players" },
      h("thead", {}, h("tr", {}, ["", t("score"), t("tyros.cards"), t("tyros.tiles"), t("tyros.supply"), t("tyros.points"), t("tyros.known")].map((x) => h("th", {}, x)))),
      h("tbody", {}, rows),
    ),
  );
}

function infoPanel(ctx) {
  const view = ctx.view;
  const empires = [...view.empires].sort((a, b) => a.rank - b.rank).map((e) =>
    h("li", { "data-colour": e.colour }, s("svg", { class: "badge", viewBox: "0 0 20 20" }, shapeAt(EMPIRE[e.colour].shape, 10, 10, 8, { fill: EMPIRE[e.colour].fill, stroke: "#222" })), ` ${e.rank}. ${t("tyros." + e.colour)}: ${e.size}`),
  );
  return h(
    "div",
    { class: "panel tyros-info" },
    h("p", {}, h("strong", {}, t("tyros.round", { n: view.round })), " · ", t("tyros.phase." + view.phase), view.final_round ? ` · ${t("tyros.final_round")}` : ""),
    h("p", { class: "muted" }, t("tyros.stock", { deck: view.deck, pile: view.pile })),
    h("p", { class: "muted" }, t("tyros.discard"), ": ", cardChips(view.discard)),
    h("ol", { class: "empires" }, empires),
  );
}

/** Scores counted up on the end screen: cities, ships, majorities, bonus. */
function endDetails(ctx) {
  const view = ctx.view;
  const elapsed = ctx.reveal("tyros-final");
  const rows = view.player_info.map((info, p) => {
    const cells = ["cities", "ships", "majorities", "all_empires_bonus"].map((part, i) => {
      const td = h("td", {}, String(info.score[part]));
      if (elapsed !== null) {
        td.classList.add("reveal-item");
        td.style.setProperty("--i", String(i));
        td.style.setProperty("--elapsed", `${Math.round(elapsed)}ms`);
      }
      return td;
    });
    return h("tr", {}, h("td", {}, ctx.label(p)), cells);
  });
  return h(
    "table",
    { class: "scores breakdown" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), ["cities", "ships", "majorities", "all_empires_bonus"].map((x) => h("th", {}, t("tyros.part_score." + x))))),
    h("tbody", {}, rows),
  );
}

function render(ctx) {
  return h("div", { class: "tyros" }, h("div", { class: "board-scroll" }, mapBoard(ctx)), tyrosLegend(), offerPanel(ctx), offerBuilder(ctx), handPanel(ctx), infoPanel(ctx), playersTable(ctx));
}

function merge(replay) {
  const view = structuredClone(replay.spectator);
  view.hands = replay.views.map((v) => v.hand);
  view.tiles = replay.views.map((v) => v.my_tiles);
  return view;
}

export default { keys, label, describe, hint, render, merge, endDetails };
