// Guildes: the hand being drafted, the kept cards, every player's tableau, the counts
// revealed guild by guild, the event and the Coup Tordu cards.
// Keys: "hand:<guild>" (keep), "kept:<guild>" (place, give, exchange), "drawn:<guild>",
// "tab:<player>:<guild>" (a card of a tableau), "player:<p>", "verb:<word>".
import { h, s, svgRoot } from "../dom.js";
import { t } from "../i18n.js";
import "../trade-words.js";
import { playerMark } from "../players.js";
import { guildTitle, guildValues, guildValuesPanel } from "../board-help.js";
import { marksOf, markAttrs } from "../moves.js";

export const GUILDS = ["Pêcheurs", "Artisans", "Érudits", "Bourgeois", "Chevaliers", "Nobles", "Prêtres", "Alchimistes", "Milice"];
const GUILD_STYLE = {
  Pêcheurs: { colour: "#56B4E9", short: "PÊC" },
  Artisans: { colour: "#C9A36B", short: "ART" },
  Érudits: { colour: "#9FD39B", short: "ÉRU" },
  Bourgeois: { colour: "#F0E442", short: "BOU" },
  Chevaliers: { colour: "#E69F00", short: "CHE" },
  Nobles: { colour: "#CC79A7", short: "NOB" },
  Prêtres: { colour: "#DDDDDD", short: "PRÊ" },
  Alchimistes: { colour: "#B39DDB", short: "ALC" },
  Milice: { colour: "#D55E00", short: "MIL" },
};

function keys(action, view) {
  const [verb, ...rest] = action.split(" ");
  switch (verb) {
    case "keep":
      return { keys: ["hand:" + rest[0]] };
    case "discard":
      return { keys: ["kept:" + rest[0]] };
    case "place": {
      const from = view && view.drawn && view.drawn.length ? "drawn:" : "kept:";
      return { keys: rest.map((g) => from + g), unordered: rest.length > 1 };
    }
    case "swap":
      return { keys: ["verb:swap", `tab:${rest[0]}:${rest[1]}`, `tab:${rest[2]}:${rest[3]}`], unordered: true };
    case "sacrifice":
      return { keys: ["verb:sacrifice", `tab:${view.viewer}:${rest[0]}`, `tab:${rest[1]}:${rest[2]}`] };
    case "exchange":
      return { keys: ["verb:exchange", `tab:${view.viewer}:${rest[0]}`, "kept:" + rest[1]] };
    case "plus":
    case "minus":
      return { keys: ["verb:" + verb, "player:" + rest[0]] };
    default:
      return { keys: ["verb:" + action] };
  }
}

function label(key, ctx) {
  const [kind, a, b] = key.split(":");
  if (kind === "verb") return t("guildes.verb." + a);
  if (kind === "player") return ctx ? ctx.name(Number(a)) : a;
  if (kind === "tab") return `${ctx ? ctx.name(Number(a)) : a}: ${b}`;
  return a;
}

function describe(action) {
  return action;
}

function hint(view) {
  return t("guildes.hint." + view.phase);
}

// ---- drawing ----------------------------------------------------------------------------
function card(x, y, w, hgt, guild, count, attrs = {}) {
  const style = GUILD_STYLE[guild] || { colour: "#ccc", short: guild.slice(0, 3) };
  return s(
    "g",
    { class: "card", "data-guild": guild, ...attrs },
    s("title", {}, guildTitle(guild)), // its votes at each round's count (G2)
    s("rect", { x, y, width: w, height: hgt, rx: 6, fill: "#fffdf7", stroke: "#444", "stroke-width": 1.2 }),
    s("rect", { x: x + 3, y: y + 3, width: w - 6, height: hgt * 0.3, rx: 4, fill: style.colour }),
    s("text", { x: x + w / 2, y: y + 3 + hgt * 0.2, "text-anchor": "middle", "font-size": hgt * 0.17, "font-weight": "bold" }, style.short),
    s("text", { x: x + w / 2, y: y + hgt * 0.6, "text-anchor": "middle", "font-size": Math.min(11, w / 7.5) }, guild),
    count > 1 ? s("text", { x: x + w / 2, y: y + hgt * 0.88, "text-anchor": "middle", "font-size": hgt * 0.18, "font-weight": "bold" }, `×${count}`) : null,
  );
}

function cardRow(ctx, cards, prefix, titleKey, extraClass = "") {
  const entries = GUILDS.filter((g) => cards[g]).map((g) => [g, cards[g]]);
  if (!entries.length) return null;
  const w = 72;
  const hgt = 96;
  const svg = svgRoot(entries.length * (w + 6), hgt + 4, { class: "card-row" });
  entries.forEach(([g, n], i) => {
    const attrs = prefix ? ctx.key(prefix + g, "card-key") : {};
    svg.append(card(i * (w + 6) + 2, 2, w, hgt, g, n, attrs));
  });
  return h("div", { class: "panel cards " + extraClass }, h("h3", {}, t(titleKey)), svg);
}

function tableaux(ctx) {
  const view = ctx.view;
  const n = view.players;
  const nameW = 150;
  const cw = 52;
  const rh = 44;
  const extra = 3; // face down, chosen, votes
  const W = nameW + GUILDS.length * cw + extra * 46 + 10;
  const H = 30 + n * rh + 6;
  const svg = svgRoot(W, H, { class: "board guildes-board", role: "img", "aria-label": t("guildes.tableaux") });
  GUILDS.forEach((g, i) => {
    const x = nameW + i * cw;
    svg.append(s("rect", { x: x + 2, y: 4, width: cw - 4, height: 20, rx: 4, fill: GUILD_STYLE[g].colour }));
    svg.append(s("text", { x: x + cw / 2, y: 18, "text-anchor": "middle", "font-size": 11, "font-weight": "bold" }, GUILD_STYLE[g].short));
  });
  const headers = [t("guildes.face_down_short"), t("guildes.chosen_short"), t("guildes.votes_short")];
  headers.forEach((text, i) => svg.append(s("text", { x: nameW + GUILDS.length * cw + i * 46 + 23, y: 18, "text-anchor": "middle", "font-size": 10 }, text)));
  for (let p = 0; p < n; p++) {
    const y = 30 + p * rh;
    const row = s("g", { class: "tableau-row", "data-player": p });
    row.append(s("rect", { x: 2, y, width: W - 4, height: rh - 4, rx: 6, class: p === ctx.me ? "row-me" : "row" }));
    const nameKey = ctx.key("player:" + p, "player-name");
    row.append(
      s("g", nameKey,
        s("rect", { x: 4, y: y + 2, width: nameW - 8, height: rh - 8, rx: 5, class: "name-bg" }),
        playerMark(p, 18, y + rh / 2 - 2, 9),
        s("text", { x: 32, y: y + rh / 2 + 2, "font-size": 13 }, ctx.name(p).slice(0, 16))),
    );
    GUILDS.forEach((g, i) => {
      const count = (view.tableaux[p] || {})[g] || 0;
      const x = nameW + i * cw;
      const cell = s("g", { ...ctx.key(`tab:${p}:${g}`, "tab-cell"), "data-guild": g });
      cell.append(s("rect", { x: x + 3, y: y + 3, width: cw - 6, height: rh - 10, rx: 4, class: "gcell-bg", fill: count ? GUILD_STYLE[g].colour : "#f4f1ea", "fill-opacity": count ? 0.55 : 1 }));
      if (count) cell.append(s("text", { x: x + cw / 2, y: y + rh / 2 + 3, "text-anchor": "middle", "font-size": 16, "font-weight": "bold" }, String(count)));
      for (const item of justPlaced(ctx, p, g)) {
        // Put face up by a move shown (board marks, docs/games/guildes.md).
        cell.append(s("rect", { ...markAttrs(ctx, item, "mark-card"), x: x + 1, y: y + 1, width: cw - 2, height: rh - 6, rx: 5 }));
      }
      row.append(cell);
    });
    const x0 = nameW + GUILDS.length * cw;
    const chosen = view.chosen ? view.chosen[p] : false;
    const choosing = view.to_move.includes(p);
    row.append(
      s("text", { x: x0 + 23, y: y + rh / 2 + 2, "text-anchor": "middle", "font-size": 13 }, view.face_down[p] ? String(view.face_down[p]) : "–"),
      s("text", { x: x0 + 69, y: y + rh / 2 + 2, "text-anchor": "middle", "font-size": 13, class: choosing ? "choosing" : "" }, choosing ? "…" : chosen ? "✓" : ""),
      s("text", { x: x0 + 115, y: y + rh / 2 + 3, "text-anchor": "middle", "font-size": 15, "font-weight": "bold" }, String(view.scores[p])),
    );
    svg.append(row);
  }
  return svg;
}

/** The moves shown that put a card of ``guild`` face up on ``player``'s tableau. */
function justPlaced(ctx, player, guild) {
  return marksOf(ctx).filter((i) => placedOn(i.mark, player).includes(guild));
}

/** The guilds a move put face up on ``player``'s tableau: ``tableaux`` (one list per
 * player) when several tableaux got cards, else ``cards`` on ``tableau``. */
function placedOn(mark, player) {
  if (Array.isArray(mark.tableaux)) return mark.tableaux[player] || [];
  return mark.tableau === player && Array.isArray(mark.cards) ? mark.cards : [];
}

function roundInfo(ctx) {
  const view = ctx.view;
  const event = view.event;
  const arrow = view.direction === "left" ? "→" : "←";
  return h(
    "div",
    { class: "panel round-info" },
    h("p", {}, h("strong", {}, t("guildes.round", { n: view.round })), " · ", t("guildes.phase." + view.phase)),
    event
      ? h("p", {}, t("guildes.event"), ": ", h("em", { "data-event": event.id }, t(`guildes.event.${event.id}`, {}, event.title)), ` (${t("guildes.passing")} ${arrow} ${t("guildes.dir." + view.direction)})`, view.options.events ? (event.in_effect ? ` — ${t("guildes.in_effect")}` : "") : ` — ${t("guildes.direction_only")}`)
      : null,
    h("p", { class: "muted" }, t("guildes.sizes", { deck: view.deck_size, discard: view.discard_size, placed: view.placing.placed, total: view.placing.total })),
    h("p", { class: "muted" }, t("guildes.hands"), ": ", view.hand_sizes.map((n, p) => `${ctx.name(p)} ${n}/${view.kept_sizes[p]}`).join(" · ")),
  );
}

function revealPanel(ctx) {
  const view = ctx.view;
  const shown = view.last_reveal || [];
  if (!shown.some((cards) => cards.length)) return null;
  const elapsed = ctx.reveal(`guildes-reveal-${view.round}-${view.placing.placed}-${JSON.stringify(shown)}`);
  const items = shown.map((cards, p) => {
    const li = h("li", {}, ctx.label(p), ": ", cards.join(", ") || "—");
    animate(li, p, elapsed);
    return li;
  });
  return h("div", { class: "panel last-reveal" }, h("h3", {}, t("guildes.revealed")), h("ul", {}, items));
}

function animate(node, i, elapsed) {
  if (elapsed === null) return node;
  node.classList.add("reveal-item");
  node.style.setProperty("--i", String(i));
  node.style.setProperty("--elapsed", `${Math.round(elapsed)}ms`);
  return node;
}

/** The latest count, revealed guild by guild: for each guild the votes each player won
 * there, with their cards and place (ties marked), Milice last, then the total. Every
 * figure is the engine's (view.counts: guild_votes, places, tied, ignored). */
function countPanel(ctx) {
  const counts = ctx.view.counts || [];
  if (!counts.length) return null;
  const count = counts[counts.length - 1];
  const elapsed = ctx.reveal(`guildes-count-${count.round}`);
  const players = count.votes.map((_, p) => p);
  const shown = GUILDS.filter((g) => players.some((p) => (count.tableaux[p] || {})[g]));
  const head = h(
    "tr",
    {},
    h("th", {}, ""),
    shown.map((g, i) => animate(h("th", { title: guildTitle(g), "data-guild": g }, GUILD_STYLE[g].short, h("small", { class: "guild-round-values" }, guildValues(g, count.round))), i, elapsed)),
    animate(h("th", {}, t("guildes.votes")), shown.length, elapsed),
  );
  const rows = players.map((p) =>
    h(
      "tr",
      { "data-player": p },
      h("td", {}, ctx.label(p)),
      shown.map((g, i) => animate(countCell(count, p, g), i, elapsed)),
      animate(h("td", { class: "votes", "data-total": p }, String(count.votes[p])), shown.length, elapsed),
    ),
  );
  return h(
    "div",
    { class: "panel count", "data-round": count.round },
    h("h3", {}, t("guildes.count_of", { n: count.round })),
    h("p", { class: "muted" }, t("guildes.count_help"), count.ties_ignored ? " " + t("guildes.ties_ignored_note") : ""),
    h("div", { class: "table-scroll" }, h("table", { class: "count-table" }, h("thead", {}, head), h("tbody", {}, rows))),
  );
}

/** One player's line in one guild: the votes won, then their cards and place. */
function countCell(count, p, g) {
  const cards = (count.tableaux[p] || {})[g] || 0;
  const attrs = { class: "gcount", "data-player": p, "data-guild": g };
  if (!cards) return h("td", attrs, "");
  const votes = ((count.guild_votes || [])[p] || {})[g] ?? 0;
  const place = ((count.places || [])[p] || {})[g];
  const tied = ((count.tied || [])[p] || []).includes(g);
  const ignored = ((count.ignored || [])[p] || []).includes(g);
  let where = "";
  let said = "";
  if (g === "Milice") {
    said = t("guildes.milice_votes");
  } else if (ignored) {
    where = t("guildes.ignored_short");
    said = t("guildes.ignored");
  } else if (place) {
    where = (tied ? "=" : "") + t("guildes.ordinal." + place, {}, String(place));
    said = t("guildes.place_said", { place: t("guildes.ordinal." + place, {}, String(place)) }) + (tied ? ` (${t("guildes.tied")})` : "");
  }
  const title = t("guildes.cell_title", { guild: g, cards, votes }) + (said ? ` — ${said}` : "");
  return h(
    "td",
    { ...attrs, title, class: "gcount" + (votes ? " scored" : "") + (tied ? " tied" : "") },
    h("span", { class: "gvotes" }, String(votes)),
    h("span", { class: "gplace muted" }, `×${cards}` + (where ? ` · ${where}` : "")),
  );
}

function tricksPanel(ctx) {
  const tricks = ctx.view.dirty_tricks;
  if (!tricks) return null;
  const items = tricks.cards.map((letter, p) =>
    h("li", { class: tricks.turn === letter ? "turn" : "" }, ctx.label(p), `: ${letter || "—"} `, letter ? h("span", { class: "muted" }, t(`guildes.trick.${letter}`, {}, tricks.titles[p] || "")) : null, tricks.protected === p ? h("span", { class: "tag" }, t("guildes.protected")) : null),
  );
  const mods = tricks.modifiers.map((m) => h("li", {}, `${m.card}: ${ctx.name(m.player)} ${m.delta > 0 ? "+1" : "−1"} ${m.guild}`));
  return h("div", { class: "panel tricks" }, h("h3", {}, t("guildes.dirty_tricks")), h("ul", {}, items), mods.length ? h("ul", { class: "muted" }, mods) : null);
}

function myCards(ctx) {
  const view = ctx.view;
  if (view.hands) {
    // A replay: every player's hand and kept cards.
    return h(
      "div",
      { class: "panel all-hands" },
      view.hands.map((hand, p) => h("div", { class: "hand-row" }, ctx.label(p), ": ", fmt(hand), " | ", t("replay.kept"), ": ", fmt(view.kepts[p]))), // named rows, never "your"
    );
  }
  if (view.viewer === null || view.viewer === undefined) return null;
  return [
    view.drawn && view.drawn.length ? cardRow(ctx, tally(view.drawn), "drawn:", "guildes.drawn") : null,
    cardRow(ctx, view.hand || {}, "hand:", "guildes.hand_to_draft", "hand"),
    cardRow(ctx, view.kept || {}, "kept:", "guildes.kept", "kept"),
    view.my_choice ? h("p", { class: "muted" }, t("guildes.my_choice"), ": ", String(view.my_choice)) : null,
    view.my_face_down && view.my_face_down.length ? h("p", { class: "muted" }, t("guildes.my_face_down"), ": ", view.my_face_down.join(", ")) : null,
  ];
}

function fmt(cards) {
  const entries = Object.entries(cards || {});
  return entries.length ? entries.map(([g, n]) => (n > 1 ? `${g} ×${n}` : g)).join(", ") : "—";
}

function tally(list) {
  const out = {};
  for (const g of list) out[g] = (out[g] || 0) + 1;
  return out;
}

function render(ctx) {
  return h("div", { class: "guildes" }, roundInfo(ctx), h("div", { class: "panel board-scroll" }, tableaux(ctx)), guildValuesPanel(ctx.view.round), myCards(ctx), revealPanel(ctx), countPanel(ctx), tricksPanel(ctx));
}

function merge(replay) {
  const view = structuredClone(replay.spectator);
  view.hands = replay.views.map((v) => v.hand || {});
  view.kepts = replay.views.map((v) => v.kept || {});
  return view;
}

export default { keys, label, describe, hint, render, merge };
