// Tyrus: six buildings (three per player), the hand, the election, the score sheet and
// the tallies, revealed tile by tile. Keys: "tile:M8" then "bld:rival-citadel".
import { h, s, svgRoot } from "../dom.js";
import { t } from "../i18n.js";
import { playerMark, playerLabel } from "../players.js";
import { blockingPanel, buildingHelp } from "../board-help.js";
import { marksOf, markAttrs } from "../moves.js";

const KINDS = ["citadel", "market", "temple"];
const PROFESSION_OF = { S: "soldier", M: "merchant", P: "priest" };
const PROFESSION_COLOUR = { S: "#f4c6c0", M: "#f6e3a1", P: "#c9dcf0" };

function keys(action) {
  const [tile, building] = action.split(" ");
  return { keys: ["tile:" + tile, "bld:" + building] };
}

function label(key) {
  const [kind, value] = key.split(":");
  if (kind === "tile") return tileName(value);
  return buildingName(value);
}

function tileName(tile) {
  return `${tile} (${t("tyrus." + PROFESSION_OF[tile[0]])})`;
}

function buildingName(name) {
  if (name.startsWith("rival-")) return t("tyrus.rival_building", { b: t("tyrus." + name.slice(6)) });
  return t("tyrus.own_building", { b: t("tyrus." + name) });
}

function describe(action) {
  const [tile, building] = action.split(" ");
  return `${tileName(tile)} → ${buildingName(building)}`;
}

function hint(view) {
  return t("tyrus.hint", { n: view.placed_this_election + 1 });
}

// ---- drawing ----------------------------------------------------------------------------
function tileShape(x, y, w, hgt, tile, placer, attrs = {}) {
  const known = tile !== null && tile !== undefined;
  const group = s("g", { class: "tile" + (known ? " known" : " hidden-tile"), ...attrs });
  group.append(
    s("rect", {
      x, y, width: w, height: hgt, rx: 4,
      fill: known ? PROFESSION_COLOUR[tile[0]] : "#8d7b68",
      stroke: "#333", "stroke-width": 1,
    }),
  );
  if (known) {
    group.append(
      s("text", { x: x + w / 2, y: y + hgt * 0.4, "text-anchor": "middle", "font-size": hgt * 0.34, "font-weight": "bold" }, tile[0]),
      s("text", { x: x + w / 2 - (placer !== null && placer !== undefined ? 3 : 0), y: y + hgt * 0.78, "text-anchor": "middle", "font-size": hgt * 0.3 }, tile.slice(1)),
    );
  }
  if (placer !== null && placer !== undefined) {
    // Who placed it: a hidden tile shows only that; a known one has it in a corner.
    if (known) group.append(playerMark(placer, x + w - 5, y + hgt - 5, 4.5));
    else group.append(playerMark(placer, x + w / 2, y + hgt / 2, Math.min(w, hgt) * 0.28));
  }
  return group;
}

function buildingIcon(kind, x, y, size) {
  const g = s("g", { class: "building-icon", fill: "#5b4636" });
  if (kind === "citadel") {
    g.append(s("path", { d: `M${x} ${y + size} v${-size * 0.75} h${size * 0.2} v${-size * 0.25} h${size * 0.2} v${size * 0.25} h${size * 0.2} v${-size * 0.25} h${size * 0.2} v${size * 0.25} h${size * 0.2} v${size * 0.75} z` }));
  } else if (kind === "market") {
    g.append(
      s("path", { d: `M${x} ${y + size * 0.4} l${size * 0.15} ${-size * 0.4} h${size * 0.7} l${size * 0.15} ${size * 0.4} z` }),
      s("rect", { x: x + size * 0.1, y: y + size * 0.4, width: size * 0.8, height: size * 0.6, fill: "#a98b6d" }),
    );
  } else {
    g.append(
      s("path", { d: `M${x} ${y + size * 0.3} l${size / 2} ${-size * 0.3} l${size / 2} ${size * 0.3} z` }),
      ...[0.1, 0.4, 0.7].map((f) => s("rect", { x: x + size * f, y: y + size * 0.35, width: size * 0.18, height: size * 0.5 })),
      s("rect", { x, y: y + size * 0.88, width: size, height: size * 0.12 }),
    );
  }
  return g;
}

function building(ctx, index, b, x, y, w, hgt, electionKind) {
  const me = ctx.me;
  const mine = me !== null && b.owner === me;
  const keyName = me === null ? null : mine ? b.kind : "rival-" + b.kind;
  const attrs = keyName ? ctx.key("bld:" + keyName, "building") : { class: "building" };
  const g = s("g", { ...attrs, "data-building": index, "data-kind": b.kind, "data-owner": b.owner });
  const current = b.kind === electionKind;
  g.append(
    s("title", {}, buildingHelp(b.kind)), // who votes, blocks and counters here (T5)
    s("rect", { class: "building-frame" + (current ? " election" : ""), x, y, width: w, height: hgt, rx: 8 }),
    buildingIcon(b.kind, x + 8, y + 7, 20),
    s("text", { x: x + 34, y: y + 23, "font-size": 14, "font-weight": "bold" }, t("tyrus." + b.kind)),
    playerMark(b.owner, x + w - 14, y + 15, 8),
  );
  for (const item of marksOf(ctx).filter((i) => i.mark.building === b.kind && i.mark.owner === b.owner)) {
    // The building that got the tile of a move shown (board marks, docs/games/tyrus.md).
    g.append(s("rect", { ...markAttrs(ctx, item, "mark-building"), x: x - 3, y: y - 3, width: w + 6, height: hgt + 6, rx: 10 }));
  }
  if (current) g.append(s("text", { x: x + w - 28, y: y + 20, "font-size": 11, "text-anchor": "end", class: "election-flag" }, t("tyrus.voting")));
  const tiles = b.tiles;
  const cols = 5;
  const rows = Math.max(1, Math.ceil(tiles.length / cols));
  const tw = Math.min(32, (w - 16 - (cols - 1) * 4) / cols);
  const th = Math.min(40, (hgt - 42 - (rows - 1) * 4) / rows);
  tiles.forEach((tile, i) => {
    const tx = x + 8 + (i % cols) * (tw + 4);
    const ty = y + 34 + Math.floor(i / cols) * (th + 4);
    g.append(tileShape(tx, ty, tw, th, tile.tile, tile.player));
  });
  return g;
}

function board(ctx) {
  const view = ctx.view;
  const W = 640;
  const H = 470;
  const bottom = ctx.me === null ? 0 : ctx.me; // the viewer's buildings at the bottom
  const top = 1 - bottom;
  const svg = svgRoot(W, H, { class: "board tyrus-board", role: "img", "aria-label": t("board") });
  const bw = 200;
  const bh = 160;
  const rowOf = (owner) => (owner === top ? 10 : H - bh - 10);
  view.buildings.forEach((b, i) => {
    const col = KINDS.indexOf(b.kind);
    svg.append(building(ctx, i, b, 10 + col * (bw + 10), rowOf(b.owner), bw, bh, view.is_over ? null : view.election_kind));
  });
  // The middle strip: the election and the score sheet.
  const mid = 10 + bh + 10;
  svg.append(s("rect", { x: 10, y: mid, width: W - 20, height: H - 2 * bh - 40, rx: 8, class: "strip" }));
  const electionText = view.is_over
    ? t("tyrus.elections_over")
    : t("tyrus.election", { n: view.election, kind: t("tyrus." + view.election_kind) });
  svg.append(s("text", { x: 22, y: mid + 24, "font-size": 14, "font-weight": "bold" }, electionText));
  svg.append(
    s("text", { x: 22, y: mid + 44, "font-size": 12 },
      t("tyrus.cards_left", { citadel: view.cards_remaining.citadel, market: view.cards_remaining.market, temple: view.cards_remaining.temple })),
  );
  // Score sheet: nine boxes.
  const sx = 336;
  svg.append(s("text", { x: sx, y: mid + 18, "font-size": 12 }, t("tyrus.score_sheet")));
  for (let i = 0; i < 9; i++) {
    const result = view.results[i];
    const x = sx + i * 32;
    const y = mid + 26;
    const box = s("g", { class: "sheet-box", "data-election": i + 1 });
    box.append(s("rect", { x, y, width: 29, height: 38, rx: 4, fill: result ? "#fff" : "#f1ece4", stroke: "#777" }));
    box.append(s("text", { x: x + 14.5, y: y + 11, "text-anchor": "middle", "font-size": 9 }, String(i + 1)));
    if (result) {
      box.append(s("text", { x: x + 14.5, y: y + 22, "text-anchor": "middle", "font-size": 8 }, t("tyrus.short." + result.kind)));
      if (result.winner === null) box.append(s("text", { x: x + 14.5, y: y + 35, "text-anchor": "middle", "font-size": 11 }, "—"));
      else box.append(playerMark(result.winner, x + 14.5, y + 30, 6.5));
    }
    svg.append(box);
  }
  return svg;
}

function handPanel(ctx) {
  const view = ctx.view;
  const hands = view.hands; // a replay shows every hand
  if (hands) {
    return h("div", { class: "panel hands" }, hands.map((hand, p) => h("div", { class: "hand-row" }, ctx.label(p), ": ", tileRow(ctx, hand || [], false))));
  }
  if (!view.hand) return null;
  return h("div", { class: "panel hand" }, h("h3", {}, t("tyrus.your_hand")), tileRow(ctx, view.hand, true));
}

function tileRow(ctx, tiles, clickable) {
  const w = 44;
  const gap = 6;
  const svg = svgRoot(Math.max(1, tiles.length) * (w + gap), 58, { class: "tile-row" });
  tiles.forEach((tile, i) => {
    const attrs = clickable ? ctx.key("tile:" + tile, "hand-tile") : { class: "hand-tile" };
    svg.append(tileShape(i * (w + gap) + 2, 2, w, 54, tile, null, { ...attrs, "data-tile": tile }));
  });
  return svg;
}

function countsTable(ctx) {
  const view = ctx.view;
  const row = (p) =>
    h("tr", {}, h("td", {}, ctx.label(p)), h("td", {}, view.hand_counts[p]), h("td", {}, view.reserve_counts[p]), h("td", {}, view.discard_counts[p]), h("td", {}, view.elections_won[p]));
  return h(
    "table",
    { class: "panel counts" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("tyrus.in_hand")), h("th", {}, t("tyrus.reserve")), h("th", {}, t("tyrus.discarded")), h("th", {}, t("tyrus.won")))),
    h("tbody", {}, [0, 1].map(row)),
  );
}

/** The latest tally, revealed tile by tile, then the scores and the winner. */
function tallyPanel(ctx) {
  const tallies = ctx.view.tallies || [];
  if (!tallies.length) return null;
  const tally = tallies[tallies.length - 1];
  const elapsed = ctx.reveal(`tyrus-tally-${tally.election}`);
  const animate = elapsed !== null;
  let i = 0;
  const item = (node) => {
    if (animate) {
      node.classList.add("reveal-item");
      node.style.setProperty("--i", String(i));
      node.style.setProperty("--elapsed", `${Math.round(elapsed)}ms`);
    }
    i += 1;
    return node;
  };
  const groups = [0, 1].map((owner) => {
    const tiles = tally.tiles.filter((x) => x.building_of === owner);
    const w = 36;
    const svg = svgRoot(Math.max(1, tiles.length) * (w + 5), 46, { class: "tile-row" });
    tiles.forEach((x, k) => svg.append(item(tileShape(k * (w + 5) + 1, 1, w, 44, x.tile, x.player, { "data-tile": x.tile }))));
    return h("div", { class: "tally-building" }, t("tyrus.in_building_of", { kind: t("tyrus." + tally.kind) }), " ", ctx.label(owner), ": ", tiles.length ? svg : t("tyrus.empty"));
  });
  const result = item(
    h(
      "p",
      { class: "tally-result" },
      t("tyrus.votes"), ": ", ctx.label(0), ` ${tally.scores[0]} — `, ctx.label(1), ` ${tally.scores[1]}. `,
      tally.winner === null ? t("tyrus.null_election") : [ctx.label(tally.winner), " ", t("tyrus.wins_election")],
    ),
  );
  const older = tallies.slice(0, -1).reverse().map((x) =>
    h("li", {}, t("tyrus.election_short", { n: x.election, kind: t("tyrus." + x.kind) }), ": ", `${x.scores[0]}–${x.scores[1]}`, " ", x.winner === null ? t("tyrus.null_election") : ctx.label(x.winner)),
  );
  return h(
    "div",
    { class: "panel tally", "data-election": tally.election },
    h("h3", {}, t("tyrus.tally_of", { n: tally.election, kind: t("tyrus." + tally.kind) })),
    groups,
    result,
    older.length ? h("details", {}, h("summary", {}, t("tyrus.earlier_tallies")), h("ul", {}, older)) : null,
  );
}

function render(ctx) {
  return h("div", { class: "tyrus" }, board(ctx), handPanel(ctx), tallyPanel(ctx), countsTable(ctx), blockingPanel());
}

function endDetails(ctx) {
  const final = ctx.view.final_hands;
  if (!final) return null;
  return h("div", { class: "final-hands" }, h("p", {}, t("moves.final_hands")), final.map((hand, p) => h("div", {}, ctx.label(p), ": ", tileRow(ctx, hand, false))));
}

/** A replay shows every tile: each player's view knows the tiles that player placed. */
function merge(replay) {
  const view = structuredClone(replay.views[0]);
  view.viewer = null;
  view.buildings.forEach((b, bi) => {
    b.tiles.forEach((tile, ti) => {
      tile.tile = replay.views[tile.player].buildings[bi].tiles[ti].tile;
    });
  });
  view.hand = null;
  view.hands = replay.views.map((v) => v.hand);
  return view;
}

export default { keys, label, describe, hint, render, merge, endDetails };
