// Djambi: the 9x9 board, four armies told apart by colour AND shape, kind letters, corpses,
// the centre. Keys: "sq:c3" for a square, "word:pass" / "word:scandal" for the rest.
import { h, s, svgRoot } from "../dom.js";
import { t } from "../i18n.js";
import { shapeAt } from "../players.js";
import { marksOf, markAttrs } from "../moves.js";

const FILES = "abcdefghi";
const SQ = 60;
const MARGIN = 22;
export const ARMY = {
  red: { fill: "#D55E00", text: "#fff", shape: "circle" },
  green: { fill: "#009E73", text: "#fff", shape: "square" },
  yellow: { fill: "#F0E442", text: "#000", shape: "hexagon" },
  blue: { fill: "#0072B2", text: "#fff", shape: "diamond" },
};
const KIND_LETTER = { chief: "C", assassin: "A", reporter: "R", diplomat: "D", necromobile: "N", militant: "M" };

function keys(action) {
  const parts = action.split(/[ -]/);
  if (parts.length === 2 && /^[a-i][1-9]$/.test(parts[0]) && /^[a-i][1-9]$/.test(parts[1])) {
    return { keys: ["sq:" + parts[0], "sq:" + parts[1]] }; // a move, or leaving the centre
  }
  if (parts[0] === "revive") return { keys: ["sq:" + parts[1], "sq:" + parts[2]] };
  if (parts.length === 2) return { keys: ["sq:" + parts[1]] }; // corpse / place / kill
  return { keys: ["word:" + action] };
}

function label(key) {
  const [kind, value] = key.split(":");
  return kind === "sq" ? value : t("djambi." + value);
}

function describe(action) {
  return action.replace("-", " → ");
}

function hint(view) {
  const step = view.step || "move";
  return t("djambi.step." + step, { what: view.in_hand ? pieceName(view.in_hand) : "" });
}

function pieceName(text) {
  if (text === "corpse") return t("djambi.a_corpse");
  const [colour, kind] = text.split(" ");
  return `${t("djambi." + kind)} (${t("djambi." + colour)})`;
}

function squareXY(square) {
  const file = FILES.indexOf(square[0]);
  const rank = Number(square[1]);
  return [MARGIN + file * SQ, MARGIN + (9 - rank) * SQ];
}

function piece(colour, kind, x, y, controlled) {
  const army = ARMY[colour];
  const g = s("g", { class: "piece", "data-colour": colour, "data-kind": kind });
  g.append(
    shapeAt(army.shape, x + SQ / 2, y + SQ / 2, SQ * 0.4, {
      fill: army.fill,
      stroke: kind === "chief" ? "#000" : "#333",
      "stroke-width": kind === "chief" ? 3.5 : 1.5,
      "stroke-dasharray": controlled === null ? "4 3" : null,
    }),
    s("text", { x: x + SQ / 2, y: y + SQ / 2 + 1, "text-anchor": "middle", "dominant-baseline": "middle", "font-size": 22, "font-weight": "bold", fill: army.text }, KIND_LETTER[kind]),
  );
  return g;
}

function corpse(x, y) {
  return s(
    "g",
    { class: "corpse" },
    s("rect", { x: x + 14, y: y + 12, width: SQ - 28, height: SQ - 20, rx: 10, fill: "#6b6b6b", stroke: "#222" }),
    s("rect", { x: x + SQ / 2 - 2.5, y: y + 17, width: 5, height: 24, fill: "#eee" }),
    s("rect", { x: x + SQ / 2 - 9, y: y + 23, width: 18, height: 5, fill: "#eee" }),
  );
}

function board(ctx) {
  const view = ctx.view;
  const size = MARGIN * 2 + SQ * 9;
  const svg = svgRoot(size, size, { class: "board djambi-board", role: "img", "aria-label": t("board") });
  const corpses = new Set(view.corpses);
  for (let rank = 9; rank >= 1; rank--) {
    for (let f = 0; f < 9; f++) {
      const square = FILES[f] + rank;
      const [x, y] = squareXY(square);
      const light = (f + rank) % 2 === 0;
      const centre = square === "e5";
      const g = s("g", { ...ctx.key("sq:" + square, "square"), "data-square": square });
      g.append(s("rect", { x, y, width: SQ, height: SQ, class: "sq-bg" + (light ? " light" : " dark") + (centre ? " centre" : "") }));
      if (centre) g.append(s("path", { d: `M${x + 12} ${y + 44} l6 -22 l12 12 l12 -12 l6 22 z`, class: "centre-crown" }));
      if (view.acting === square) g.append(s("rect", { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, class: "acting" }));
      const content = view.pieces[square];
      if (content) {
        const [colour, kind] = content.split(" ");
        g.append(piece(colour, kind, x, y, view.controllers[colour]));
      } else if (corpses.has(square)) g.append(corpse(x, y));
      g.append(s("rect", { x: x + 1.5, y: y + 1.5, width: SQ - 3, height: SQ - 3, class: "sq-hl" }));
      svg.append(g);
    }
  }
  svg.append(moveMarks(ctx, svg));
  for (let i = 0; i < 9; i++) {
    svg.append(s("text", { x: MARGIN + i * SQ + SQ / 2, y: size - 6, "text-anchor": "middle", class: "coord" }, FILES[i]));
    svg.append(s("text", { x: 8, y: MARGIN + (8 - i) * SQ + SQ / 2 + 4, "text-anchor": "middle", class: "coord" }, String(i + 1)));
  }
  return svg;
}

// ---- what just happened (board marks: path, corpse, killed; docs/games/djambi.md) ----
function centreOf(square) {
  const [x, y] = squareXY(square);
  return [x + SQ / 2, y + SQ / 2];
}

const isSquare = (value) => typeof value === "string" && /^[a-i][1-9]$/.test(value);

/** The marks of the moves shown, over the squares (they never catch a click). */
function moveMarks(ctx, svg) {
  const layer = s("g", { class: "marks", "aria-hidden": "true" });
  for (const item of marksOf(ctx)) {
    const { path, corpse, killed } = item.mark;
    if (Array.isArray(path) && path.length === 2 && path.every(isSquare)) {
      layer.append(pathArrow(ctx, item, path[0], path[1]));
      if (item.kind === "last") slidePiece(ctx, item, svg, path[0], path[1]);
    }
    if (isSquare(corpse)) layer.append(squareRing(ctx, item, corpse, "mark-corpse"));
    for (const square of Array.isArray(killed) ? killed.filter(isSquare) : []) layer.append(killCross(ctx, item, square));
  }
  return layer;
}

/** From the centre of one square to the other's edge, with an arrowhead. */
function pathArrow(ctx, item, from, to) {
  const [x1, y1] = centreOf(from);
  const [x2, y2] = centreOf(to);
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
  const [ex, ey] = [x2 - ux * SQ * 0.3, y2 - uy * SQ * 0.3]; // the tip, short of the piece's middle
  const head = [
    [ex, ey],
    [ex - ux * 14 - uy * 8, ey - uy * 14 + ux * 8],
    [ex - ux * 14 + uy * 8, ey - uy * 14 - ux * 8],
  ];
  const attrs = markAttrs(ctx, item, "mark-path");
  return s(
    "g",
    { ...attrs, "data-from": from, "data-to": to },
    s("circle", { cx: x1, cy: y1, r: 7, class: "mark-origin" }),
    s("line", { x1, y1, x2: ex - ux * 10, y2: ey - uy * 10, class: "mark-line", pathLength: 100 }),
    s("polygon", { points: head.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "), class: "mark-head" }),
  );
}

function squareRing(ctx, item, square, cls) {
  const [x, y] = squareXY(square);
  return s("rect", { ...markAttrs(ctx, item, cls), x: x + 3, y: y + 3, width: SQ - 6, height: SQ - 6, rx: 6, "data-square": square });
}

function killCross(ctx, item, square) {
  const [x, y] = squareXY(square);
  const d = `M${x + 10} ${y + 10} L${x + SQ - 10} ${y + SQ - 10} M${x + SQ - 10} ${y + 10} L${x + 10} ${y + SQ - 10}`;
  return s("g", { ...markAttrs(ctx, item, "mark-killed"), "data-square": square }, s("rect", { x: x + 3, y: y + 3, width: SQ - 6, height: SQ - 6, rx: 6, class: "mark-killed-ring" }), s("path", { d, class: "mark-killed-cross" }));
}

/** The piece now on ``to`` slides there from ``from`` while its move is fresh. */
function slidePiece(ctx, item, svg, from, to) {
  const piece = svg.querySelector(`[data-square="${to}"] .piece`);
  const attrs = markAttrs(ctx, item, "");
  if (!piece || !attrs.style) return;
  const [x1, y1] = centreOf(from);
  const [x2, y2] = centreOf(to);
  piece.classList.add("mark-slide");
  piece.style.setProperty("--dx", `${x1 - x2}px`);
  piece.style.setProperty("--dy", `${y1 - y2}px`);
  piece.style.setProperty("--elapsed", attrs.style["--elapsed"]);
}

/** A player whose Chief died is out of the game (its colour no longer in it). */
function isOut(view) {
  return !!view.you && Array.isArray(view.in_game) && !view.in_game.includes(view.you);
}

/** An extra turn (D9), or an inherited colour's turn played by its controller (D8). */
function turnNote(view) {
  if (view.extra_turn) return ` (${t("djambi.extra_turn")})`;
  if (view.turn_colour && view.turn_colour !== view.turn) {
    return ` (${t("djambi.plays_for", { colour: t("djambi." + view.turn_colour) })})`;
  }
  return "";
}

function armies(ctx) {
  const view = ctx.view;
  const rows = view.colours.map((colour, p) => {
    const army = ARMY[colour];
    const controller = view.controllers[colour];
    const alive = view.in_game.includes(colour);
    let status;
    if (alive) status = t("djambi.in_game");
    else if (controller === null) status = t("djambi.vassal");
    else status = t("djambi.taken_over_by", { colour: t("djambi." + controller) });
    const swatch = s("svg", { class: "badge", viewBox: "0 0 20 20" }, shapeAt(army.shape, 10, 10, 8.5, { fill: army.fill, stroke: "#222" }));
    return h(
      "li",
      { class: view.turn === colour ? "turn" : "", "data-colour": colour },
      swatch, " ", h("strong", {}, t("djambi." + colour)), " — ", ctx.label(p), " — ", status,
      view.aggressivity ? ` — ${t("djambi.kills")}: ${view.kills[colour]}` : "",
      view.centre === colour ? h("span", { class: "tag" }, t("djambi.holds_centre")) : null,
    );
  });
  const info = [
    view.turn ? h("p", {}, t("djambi.turn_of", { colour: t("djambi." + view.turn) }), turnNote(view)) : null,
    view.in_hand ? h("p", {}, t("djambi.in_hand"), ": ", pieceName(view.in_hand)) : null,
    h("p", { class: "muted" }, t("djambi.quiet", { n: view.quiet_turns, limit: view.quiet_turn_limit })),
    view.end ? h("p", {}, t("djambi.end"), ": ", t("djambi.end." + view.end)) : null,
  ];
  const legend = h(
    "p",
    { class: "legend muted" },
    Object.entries(KIND_LETTER).map(([kind, letter]) => `${letter} ${t("djambi." + kind)}`).join(" · "),
  );
  return h("div", { class: "panel armies" }, h("ul", {}, rows), info, legend);
}

function render(ctx) {
  return h("div", { class: "djambi" }, board(ctx), armies(ctx));
}

function merge(replay) {
  return replay.spectator;
}

export default { keys, label, describe, hint, render, merge, isOut };
