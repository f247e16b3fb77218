// Tyros trades a person can make (Y6): an offer built by clicking cards of one's hand (what
// one gives), the cards asked for (by colour, with counts) and the player offered to, then
// confirmed. The page never decides what is allowed: the offer sent is the legal action
// spelled exactly as the built one; when none is, the builder says why in words, before
// anything is sent. An offer received that cannot be accepted says why too.
import { h, s, live } from "../dom.js";
import { t } from "../i18n.js";
import { logText, shapeAt } from "../players.js";
import { EMPIRE, cardChips } from "./tyros.js";
import "../trade-words.js";

const CARDS = ["orange", "yellow", "green", "violet", "joker"]; // the engine's card order
// Figures of the rule book and docs/games/tyros.md, used only to word a refusal: the legal
// actions decide what may be sent.
const OFFERS_PER_TURN = 3; // Y6
const OFFER_MAX_CARDS = 2; // house limit: 1-2 cards each way
const TRADES_PER_ROUND = 2; // house limit: accepted offers made per round
const ASK_CAP = 3; // the "+" of a colour stops here: enough to show the house limit

// The offer under construction survives the page's redraws (every push rebuilds the DOM);
// it is dropped when its game, turn or round changes.
let draft = emptyDraft("");

function emptyDraft(scope) {
  return { scope, to: null, give: {}, ask: {} };
}

function total(counts) {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/** Colour counts as the engine spells a card list: "orange,orange,joker". */
export function cardText(counts) {
  return CARDS.flatMap((c) => Array(counts[c] || 0).fill(c)).join(",");
}

function offerAction(to, give, ask) {
  return `offer ${to} give ${cardText(give)} ask ${cardText(ask)}`;
}

function isMyOfferTurn(ctx) {
  const view = ctx.view;
  return !ctx.replay && ctx.me !== null && view.phase === "actions" && view.current_player === ctx.me && ctx.toMove.includes(ctx.me);
}

function scopeOf(ctx) {
  const view = ctx.view;
  const names = ctx.seats.map((seat) => seat.name).join("|");
  return `${names}/${ctx.me}/${view.round}/${view.offers_this_turn}`;
}

/**
 * Why the draft cannot be sent, as [text key, params], or null when a legal offer matches.
 * `offers` are the legal "offer ..." actions (none: the turn's limits say why).
 */
export function offerProblem(view, me, offers, current) {
  if (!offers.length) {
    if (view.offers_this_turn >= OFFERS_PER_TURN) return ["trade.why.too_many_offers", { max: OFFERS_PER_TURN }];
    if (view.player_info[me].trades_this_round >= TRADES_PER_ROUND) return ["trade.why.too_many_trades", { max: TRADES_PER_ROUND }];
    return ["trade.why.not_now", {}];
  }
  const { to, give, ask } = current;
  if (to === null) return ["trade.why.no_target", {}];
  if (!total(give)) return ["trade.why.no_give", {}];
  if (total(give) > OFFER_MAX_CARDS) return ["trade.why.give_too_many", { max: OFFER_MAX_CARDS }];
  if (!total(ask)) return ["trade.why.no_ask", {}];
  if (total(ask) > OFFER_MAX_CARDS) return ["trade.why.ask_too_many", { max: OFFER_MAX_CARDS }];
  const held = view.player_info[to].cards;
  if (total(ask) > held) return ["trade.why.target_holds", { target: to, n: held }];
  if (CARDS.some((c) => give[c] && ask[c])) return ["trade.why.same_colour", {}];
  if (!offers.includes(offerAction(to, give, ask))) return ["trade.why.not_legal", {}];
  return null;
}

/** The draft's cards given, never more of a colour than the hand now holds. */
function keepWithinHand(hand) {
  for (const c of CARDS) draft.give[c] = Math.min(draft.give[c] || 0, hand[c] || 0);
}

function cardButton(colour, side, onclick) {
  return h(
    "button",
    { type: "button", class: "trade-card", "data-colour": colour, "data-side": side, title: t("tyros." + colour), "aria-label": t("tyros." + colour), onclick },
    s("svg", { class: "badge", viewBox: "0 0 20 20", "aria-hidden": "true" }, shapeAt(EMPIRE[colour].shape, 10, 10, 8, { fill: EMPIRE[colour].fill, stroke: "#222" })),
    h("span", { class: "chip-name" }, t("tyros." + colour)),
  );
}

/** One button per card: the hand's cards not given yet, or the cards given. */
function cardButtons(counts, side, onclick) {
  const buttons = CARDS.flatMap((c) => Array(counts[c] || 0).fill(c)).map((c) => cardButton(c, side, () => onclick(c)));
  return buttons.length ? buttons : h("span", { class: "muted" }, t("trade.none"));
}

function targetButtons(ctx, change) {
  const others = ctx.seats.map((seat) => seat.player).filter((p) => p !== ctx.me);
  return others.map((p) => {
    const held = ctx.view.player_info[p].cards;
    return h(
      "button",
      { type: "button", class: "trade-target" + (draft.to === p ? " selected" : ""), "data-player": p, "aria-pressed": String(draft.to === p), onclick: () => change(() => (draft.to = p)) },
      ctx.label(p),
      h("span", { class: "muted" }, " · ", held ? t("trade.holds", { n: held }) : t("trade.holds_none")),
    );
  });
}

function askRows(change) {
  return CARDS.map((c) => {
    const n = draft.ask[c] || 0;
    const colour = t("tyros." + c);
    return h(
      "span",
      { class: "trade-ask", "data-colour": c },
      h("button", { type: "button", class: "small ask-less", disabled: n === 0, "aria-label": t("trade.less", { colour }), onclick: () => change(() => (draft.ask[c] = n - 1)) }, "−"),
      h("span", { class: "ask-count", "data-count": n }, cardChips({ [c]: 1 }), ` ×${n}`),
      h("button", { type: "button", class: "small ask-more", disabled: n >= ASK_CAP, "aria-label": t("trade.more", { colour }), onclick: () => change(() => (draft.ask[c] = n + 1)) }, "+"),
    );
  });
}

/** The offer builder, on the offering player's turn (null otherwise). */
export function offerBuilder(ctx) {
  if (!isMyOfferTurn(ctx)) return null;
  const view = ctx.view;
  const scope = scopeOf(ctx);
  if (draft.scope !== scope) draft = emptyDraft(scope);
  keepWithinHand(view.hand || {});
  const offers = (ctx.legal || []).filter((a) => a.startsWith("offer "));
  const problem = offerProblem(view, ctx.me, offers, draft);
  const panel = h("section", { class: "panel trade-builder", "aria-labelledby": "trade-title" }, h("h3", { id: "trade-title" }, t("trade.title")));
  // A click changes the draft and redraws this panel alone, focus kept on the same control.
  const change = (edit) => {
    edit();
    const shown = live(panel); // the page patched since this was drawn: the panel on screen
    const focused = document.activeElement && shown.contains(document.activeElement) ? controlId(document.activeElement) : null;
    const fresh = offerBuilder(ctx);
    shown.replaceWith(fresh);
    if (focused) refocus(fresh, focused);
  };
  if (!offers.length) {
    panel.append(h("p", { class: "trade-why", role: "status" }, t(problem[0], problem[1])));
    return panel;
  }
  const hand = view.hand || {};
  const left = Object.fromEntries(CARDS.map((c) => [c, (hand[c] || 0) - (draft.give[c] || 0)]));
  const action = problem ? null : offerAction(draft.to, draft.give, draft.ask);
  panel.append(
    h("p", { class: "muted" }, t("trade.offers_left", { n: OFFERS_PER_TURN - view.offers_this_turn, max: OFFERS_PER_TURN })),
    h("div", { class: "trade-row" }, h("strong", {}, t("trade.to"), ": "), targetButtons(ctx, change)),
    h("div", { class: "trade-row trade-hand" }, h("strong", {}, t("trade.hand"), ": "), cardButtons(left, "hand", (c) => change(() => (draft.give[c] = (draft.give[c] || 0) + 1)))),
    h("div", { class: "trade-row trade-give" }, h("strong", {}, t("trade.give"), ": "), cardButtons(draft.give, "give", (c) => change(() => (draft.give[c] -= 1)))),
    h("div", { class: "trade-row" }, h("strong", {}, t("trade.ask"), ": "), askRows(change)),
    h("p", { id: "trade-why", class: "trade-why", role: "status", "aria-live": "polite" }, problem ? logText(ctx.seats, t(problem[0], problem[1])) : ""),
    h(
      "p",
      { class: "trade-buttons" },
      h("button", { type: "button", id: "trade-confirm", class: "primary", disabled: !action, "data-action": action, "aria-describedby": "trade-why", onclick: () => send(ctx, action) }, t("trade.confirm")),
      " ",
      h("button", { type: "button", id: "trade-clear", onclick: () => change(() => (draft = emptyDraft(scope))) }, t("trade.clear")),
    ),
  );
  return panel;
}

function send(ctx, action) {
  if (!action || !ctx.play) return;
  draft = emptyDraft("");
  ctx.play(action);
}

/** A control's identity across a redraw: its class, side, colour and player. */
function controlId(node) {
  const d = node.dataset;
  return [node.id, node.className, d.side, d.colour, d.player, node.closest("[data-colour]")?.dataset.colour].join("/");
}

function refocus(panel, id) {
  for (const node of panel.querySelectorAll("button")) {
    if (controlId(node) === id && !node.disabled) {
      node.focus();
      return;
    }
  }
  const confirm = panel.querySelector("#trade-confirm");
  if (confirm && !confirm.disabled) confirm.focus();
}

/** Accept and refuse an offer made to me; an offer I cannot accept says why. */
export function answerButtons(ctx, offer) {
  const legal = ctx.legal || [];
  const canAccept = legal.includes("accept");
  const accept = canAccept
    ? h("button", ctx.key("verb:accept", "accept"), t("tyros.verb.accept"))
    : h("button", { type: "button", class: "accept", disabled: true, "aria-describedby": "offer-why" }, t("tyros.verb.accept"));
  return [
    h("p", { class: "offer-buttons" }, accept, " ", h("button", ctx.key("verb:refuse", "refuse"), t("tyros.verb.refuse"))),
    canAccept || !legal.includes("refuse") ? null : h("p", { id: "offer-why", class: "offer-why" }, t("trade.cannot_accept", { cards: missingText(offer.ask, ctx.view.hand || {}) })),
  ];
}

/** The asked cards the hand lacks, in words ("2 orange, 1 joker"). */
function missingText(ask, hand) {
  const missing = CARDS.filter((c) => (ask[c] || 0) > (hand[c] || 0)).map((c) => `${ask[c]} ${t("tyros." + c)}`);
  return missing.join(", ");
}
