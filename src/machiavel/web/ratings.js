// @ts-check
// Ratings pages (docs/server.md, "Ratings on the server"):
//   #/ratings/GAME     a game's leaderboard (GET /api/ratings/GAME)
//   #/players/NAME     a player's profile (GET /api/players/NAME): an account, or a bot level
// Names are always added as text (dom.js h()), never parsed as HTML.
import { h, clear } from "./dom.js";
import { t, getLang } from "./i18n.js";
import { api } from "./api.js";

/** @typedef {{name: string, rating: number, games: number, bot?: boolean}} Rated  a leaderboard's line */
/** @typedef {{game: string, players: Rated[]}} Leaderboard  GET /api/ratings/GAME */
/** @typedef {{id: string, game: string, finished_at: string, result: string, rating_change: number}} RatedGame */
/** @typedef {{name: string, ratings: Record<string, {rating: number, games: number}>, recent: RatedGame[]}} Profile  GET /api/players/NAME */

export const RATED_GAMES = ["tyrus", "djambi", "guildes", "tyros"];
const BOT_NAME = /^(easy|medium|hard|expert) bot$/;

/** @param {string} game */
export function ratingsHref(game) {
  return "#/ratings/" + encodeURIComponent(game);
}

/** @param {string} name */
export function playerHref(name) {
  return "#/players/" + encodeURIComponent(name);
}

/** How a name reads: an account's as it is, a bot level's in the page's language.
 * @param {string} name */
function shownName(name) {
  const bot = BOT_NAME.exec(name);
  return bot ? t("bot_level", { level: t("level." + bot[1]) }) : name;
}

/** @param {string} name */
function playerLink(name) {
  return h("a", { href: playerHref(name), class: "player-link", "data-player": name }, shownName(name));
}

/** The lobby's links to each game's leaderboard. */
export function ratingsLinks() {
  return h(
    "section",
    { class: "panel", id: "ratings-links" },
    h("h2", {}, t("ratings_title")),
    h("ul", {}, RATED_GAMES.map((game) => h("li", {}, h("a", { href: ratingsHref(game), "data-game": game }, t(`game.${game}`))))),
  );
}

function backLink() {
  return h("p", {}, h("a", { href: "#/" }, t("back_to_lobby")));
}

/**
 * A page showing one answer of the server (its `data`, of type D).
 * @template D
 */
class Page {
  /** @param {HTMLElement} root @param {string} path */
  constructor(root, path) {
    this.root = root;
    this.path = path;
    /** @type {D | null} */
    this.data = null;
    /** @type {string | null} */
    this.error = null;
    this.stopped = false;
  }

  async start() {
    clear(this.root).append(h("p", { class: "muted" }, t("loading")));
    const { status, data } = await api("GET", this.path);
    if (this.stopped) return;
    if (status === 200) this.data = /** @type {D} */ (data);
    else this.error = data.detail || String(status);
    this.render();
  }

  stop() {
    this.stopped = true;
  }

  render() {
    if (this.error !== null) {
      clear(this.root).append(h("div", { class: "ratings-page" }, backLink(), h("p", { class: "error", role: "alert" }, this.error)));
      return;
    }
    if (this.data) clear(this.root).append(h("div", { class: "ratings-page" }, backLink(), ...this.body(this.data)));
  }

  /** What the page shows of `data` (each page says).
   * @param {D} data @returns {import("./dom.js").Child[]} */
  body(data) {
    return [String(data)];
  }
}

/** @extends {Page<Leaderboard>} */
export class RatingsPage extends Page {
  /** @param {HTMLElement} root @param {string} game */
  constructor(root, game) {
    super(root, `/api/ratings/${encodeURIComponent(game)}?limit=200`);
    this.game = game;
  }

  /** @param {Leaderboard} data */
  body(data) {
    const { game, players } = data;
    const others = h(
      "p",
      { class: "game-switch" },
      RATED_GAMES.map((g) => [g === game ? h("strong", {}, t(`game.${g}`)) : h("a", { href: ratingsHref(g) }, t(`game.${g}`)), " "]),
    );
    const table = players.length
      ? h(
          "div",
          { class: "table-scroll" },
          h(
            "table",
            { class: "scores leaderboard" },
            h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("ratings_player")), h("th", {}, t("ratings_rating")), h("th", {}, t("ratings_games")))),
            h(
              "tbody",
              {},
              players.map((p, i) => h("tr", { "data-bot": p.bot ? "yes" : "no" }, h("td", {}, String(i + 1)), h("td", {}, playerLink(p.name)), h("td", { class: "rating" }, String(p.rating)), h("td", {}, String(p.games)))),
            ),
          ),
        )
      : h("p", { class: "muted" }, t("ratings_none"));
    return [h("h2", {}, t("ratings_of", { game: t(`game.${game}`) })), others, table, h("p", { class: "muted small-print" }, t("ratings_explained"))];
  }
}

/** @extends {Page<Profile>} */
export class PlayerPage extends Page {
  /** @param {HTMLElement} root @param {string} name */
  constructor(root, name) {
    super(root, `/api/players/${encodeURIComponent(name)}`);
  }

  /** @param {Profile} data */
  body(data) {
    const { name, ratings, recent } = data;
    const games = Object.keys(ratings);
    const rated = games.length
      ? h(
          "table",
          { class: "scores player-ratings" },
          h("thead", {}, h("tr", {}, h("th", {}, t("ratings_game")), h("th", {}, t("ratings_rating")), h("th", {}, t("ratings_games")))),
          h(
            "tbody",
            {},
            games.map((g) => h("tr", {}, h("td", {}, h("a", { href: ratingsHref(g) }, t(`game.${g}`))), h("td", { class: "rating" }, String(ratings[g].rating)), h("td", {}, String(ratings[g].games)))),
          ),
        )
      : h("p", { class: "muted" }, t("ratings_none_yet"));
    const date = (/** @type {string} */ iso) => new Date(iso).toLocaleDateString(getLang());
    const change = (/** @type {number} */ n) => (n > 0 ? `+${n}` : String(n));
    const history = recent.length
      ? h(
          "div",
          { class: "table-scroll" },
          h(
            "table",
            { class: "scores recent-games" },
            h("thead", {}, h("tr", {}, h("th", {}, t("ratings_date")), h("th", {}, t("ratings_game")), h("th", {}, t("ratings_result")), h("th", {}, t("ratings_change")), h("th", {}, ""))),
            h(
              "tbody",
              {},
              recent.map((g) =>
                h(
                  "tr",
                  { "data-game-id": g.id },
                  h("td", {}, date(g.finished_at)),
                  h("td", {}, t(`game.${g.game}`)),
                  h("td", { class: "result", "data-result": g.result }, t("result_" + g.result)),
                  h("td", { class: "change" }, change(g.rating_change)),
                  h("td", {}, h("a", { href: `#/replay/${encodeURIComponent(g.id)}` }, t("replay"))),
                ),
              ),
            ),
          ),
        )
      : null;
    return [
      h("h2", { class: "player-name", "data-player": name }, shownName(name)),
      h("section", { class: "panel" }, h("h3", {}, t("ratings_title")), rated),
      history ? h("section", { class: "panel" }, h("h3", {}, t("ratings_recent")), history) : null,
    ];
  }
}
