// The rules pages, #/rules/GAME: each game's short rules in the page's language, with the
// board drawn by the game's own board module on a sample position (rules-data.js, written
// from the engines), and the help the game page shows next to its board.
import { h, clear } from "./dom.js";
import { t, getLang } from "./i18n.js";
import { boardOf } from "./games/index.js";
import { playerLabel, seatName } from "./players.js";
import { SAMPLES } from "./rules-data.js";
import { RULES } from "./rules-text.js";
import { blockingPanel, guildValuesTable, tyrosLegend } from "./board-help.js";
import "./rules-words.js";

export const RULE_GAMES = ["tyrus", "djambi", "guildes", "tyros"];

/** The address of a game's rules page. */
export function rulesHref(game) {
  return `#/rules/${encodeURIComponent(game)}`;
}

/** The "?" of a game page: the rules in a new tab, so the game stays as it is. */
export function rulesLink(game) {
  if (!RULE_GAMES.includes(game)) return null;
  const label = t("rules.question_mark", { game: t(`game.${game}`) });
  return h("a", { href: rulesHref(game), target: "_blank", rel: "noopener", class: "button small rules-link", title: label, "aria-label": label }, "?");
}

/** A spectator's context for a board module: nothing to choose, seats named by number. */
function sampleContext(view) {
  const ctx = {
    view,
    me: null,
    seats: null,
    players: view.players,
    toMove: view.to_move,
    isOver: view.is_over,
    candidates: new Set(),
    selected: new Set(),
    replay: true,
    name: (p) => seatName(null, p),
    label: (p) => playerLabel(null, p),
    reveal: () => null,
    choose: () => {},
    key: (key, base = "") => ({ class: base, "data-key": key }),
  };
  return ctx;
}

/** The game's board as its module draws it on the sample position (the board alone). */
export function samplePicture(game) {
  const view = SAMPLES[game];
  if (!view) return null;
  const drawn = boardOf(game).render(sampleContext(structuredClone(view)));
  const board = drawn.querySelector("svg.board") || drawn;
  return h("figure", { class: "rules-picture", "data-game": game }, board, h("figcaption", { class: "muted" }, t("rules.picture", { game: t(`game.${game}`) })));
}

/** The help figure that goes with a game's rules (the same as next to its board). */
function gameHelp(game) {
  if (game === "tyrus") return blockingPanel();
  if (game === "tyros") return tyrosLegend();
  if (game === "guildes") return h("div", { class: "panel board-help" }, h("h3", {}, t("help.guildes.values_title")), h("p", { class: "muted" }, t("help.guildes.values_note")), guildValuesTable());
  return null;
}

function section([heading, paragraphs]) {
  return h("section", { class: "rules-section" }, h("h2", {}, heading), paragraphs.map((text) => h("p", {}, text)));
}

function rulings(list) {
  return h(
    "section",
    { class: "rules-section rulings" },
    h("h2", {}, t("rules.rulings")),
    h("ul", {}, list.map(([id, text]) => h("li", { "data-ruling": id }, h("strong", {}, id), " ", text))),
    h("p", { class: "muted" }, t("rules.ruling_note")),
  );
}

export class RulesPage {
  constructor(root, game) {
    this.root = root;
    this.game = game;
    this.data = { game }; // app.js redraws a page with data when the language changes
  }

  start() {
    this.render();
    window.scrollTo(0, 0);
  }

  stop() {}

  render() {
    const game = this.game;
    const text = (RULES[getLang()] || RULES.en)[game];
    const others = RULE_GAMES.filter((g) => g !== game).map((g) => h("a", { href: rulesHref(g), class: "button small" }, t(`game.${g}`)));
    const nav = h("nav", { class: "rules-nav" }, h("a", { href: "#/", class: "back" }, "← ", t("lobby")), " ", h("span", { class: "muted" }, t("rules.other_games"), ": "), others);
    if (!text) {
      clear(this.root).append(h("div", { class: "rules-page" }, nav, h("p", { class: "error" }, t("rules.unknown"))));
      return;
    }
    clear(this.root).append(
      h(
        "article",
        { class: "rules-page", "data-game": game, lang: getLang() },
        nav,
        h("h1", {}, t("rules.title", { game: t(`game.${game}`) })),
        h("p", { class: "rules-summary" }, t(`summary.${game}`)),
        h("div", { class: "rules-columns" }, h("div", { class: "rules-text" }, text.sections.map(section)), h("div", { class: "rules-figures" }, samplePicture(game), gameHelp(game))),
        rulings(text.rulings),
      ),
    );
  }
}
