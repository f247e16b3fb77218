// @ts-check
// The client's entry point: a router over the address's #fragment.
//   #/                       the lobby
//   #/game/ID[?token=T]      a game (T: an invite link's seat token; else this browser's seat)
//   #/game/ID?spectate=1     a game as a spectator
//   #/replay/ID[?step=N]     a finished game, step by step
//   #/ratings/GAME           a game's leaderboard
//   #/players/NAME           a player's ratings and recent rated games
//   #/rules/GAME             a game's rules (the "?" of a game page opens it in a new tab)
import { h, clear } from "./dom.js";
import { RatingsPage, PlayerPage } from "./ratings.js";
import { t, getLang, setLang, LANGS } from "./i18n.js";
import { LobbyPage } from "./lobby.js";
import { GamePage } from "./game.js";
import { ReplayPage } from "./replay.js";
import { RulesPage } from "./rules.js";
import { startNotifier } from "./notify.js";

/**
 * The page on screen.
 * @typedef {object} Page
 * @property {() => unknown} start
 * @property {() => void} stop
 * @property {() => void} [render]
 * @property {unknown} [state]  a game page's state, once it has one
 * @property {unknown} [data]  a replay's or ratings page's data
 * @property {unknown} [catalog]  the lobby's games
 */
/** @type {Page | null} */
let page = null;

/** @param {string} hash */
function parse(hash) {
  const [path, query = ""] = hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { parts, params: new URLSearchParams(query) };
}

function route() {
  if (page) page.stop();
  const root = /** @type {HTMLElement} */ (document.getElementById("page"));
  const { parts, params } = parse(location.hash);
  if (parts[0] === "game" && parts[1]) {
    page = new GamePage(root, parts[1], { token: params.get("token"), spectate: params.has("spectate") });
  } else if (parts[0] === "replay" && parts[1]) {
    const step = params.has("step") ? Number(params.get("step")) : null;
    page = new ReplayPage(root, parts[1], step);
  } else if (parts[0] === "ratings" && parts[1]) {
    page = new RatingsPage(root, parts[1]);
  } else if (parts[0] === "rules" && parts[1]) {
    page = new RulesPage(root, parts[1]);
  } else if (parts[0] === "players" && parts[1]) {
    page = new PlayerPage(root, parts[1]);
  } else {
    page = new LobbyPage(root);
  }
  document.body.dataset.page = /** @type {object} */ (page).constructor.name;
  page.start();
}

function header() {
  const bar = /** @type {HTMLElement} */ (document.getElementById("site-header"));
  clear(bar).append(
    h("a", { href: "#/", class: "site-title" }, "machiavel"),
    h("span", { class: "tagline muted" }, t("tagline")),
    h(
      "span",
      { class: "lang-switch", role: "group", "aria-label": t("language") },
      LANGS.map((lang) =>
        h("button", { class: "small" + (lang === getLang() ? " active" : ""), "data-lang": lang, "aria-pressed": lang === getLang(), onclick: () => switchLang(lang) }, lang.toUpperCase()),
      ),
    ),
  );
}

/** @param {string} lang */
function switchLang(lang) {
  setLang(lang);
  header();
  if (page && page.render && (page.state || page.data || page.catalog)) page.render();
  else route();
}

window.addEventListener("hashchange", route);
startNotifier(); // the tab title counts the games waiting for you (signed in)
header();
route();
