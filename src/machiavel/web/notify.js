// @ts-check
// In-page notifications for the signed-in account, and this browser's choices about them:
//   - the tab title counts the games waiting for you ("(2) machiavel"), from GET /api/me/games:
//     your turn, or an invitation (a seat kept for your account) not yet taken up;
//   - an optional beep when it becomes your turn (Web Audio, off by default);
//   - the browser's Notification API (asked only on a click on "Notify me"), when it becomes
//     your turn in a game not on screen or while the tab is hidden, when a game you play
//     ends (unless it is on screen in a visible tab: its end screen says so), and when an
//     invitation comes (one not there at the first look).
// The list is asked again when the game on screen changes (a push), when the tab comes back
// into view or gets the focus, and every 30 s while the tab is visible; hidden, only if the
// browser notifications are on, every 2 minutes. Signed out, the title stays "machiavel".
import { api } from "./api.js";
import { t } from "./i18n.js";

const TITLE = "machiavel";
const VISIBLE_EVERY = 30000; // ms between two looks at GET /api/me/games, tab visible
const HIDDEN_EVERY = 120000; // tab hidden, browser notifications on (else no look at all)
const PUSH_DELAY = 1000; // a push of the game on screen: look again after this (coalesced)
const SOUND_KEY = "machiavel.sound"; // "on" | absent
const BROWSER_KEY = "machiavel.notifications"; // "on" | absent

// What is known of each game: {version, mine, over}. A game first seen is only recorded
// (nothing fires on page load); an event fires when `mine` or `over` turns true with a
// newer version, whichever source (the poll or the game page's pushes) saw it first.
/** @typedef {{version: number, mine: boolean, over: boolean, game: string}} Known */
/** @typedef {{id: string, game: string, version: number, status: string, your_turn?: boolean, invited?: boolean}} MyGame  GET /api/me/games */

/** @type {Map<string, Known>} */
const known = new Map();
/** @type {string | null} */
let onScreen = null; // the game page's id
let signedIn = false;
let looked = false; // the account's games were seen once: a game new after that is news
let started = false;
/** @type {ReturnType<typeof setInterval> | undefined} */
let timer;
/** @type {ReturnType<typeof setTimeout> | null} */
let pushTimer = null;
/** @type {Promise<import("./api.js").Answer> | null} */
let inFlight = null;
let again = false;
/** @type {AudioContext | null} */
let audio = null;

// ---- this browser's choices ----------------------------------------------------------------
export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

export function browserNotificationsOn() {
  return localStorage.getItem(BROWSER_KEY) === "on" && "Notification" in window && Notification.permission === "granted";
}

/** The sound toggle (a click: the audio context may start now).
 * @param {boolean} on */
export function setSound(on) {
  if (on) localStorage.setItem(SOUND_KEY, "on");
  else localStorage.removeItem(SOUND_KEY);
  if (on) beep(); // what it sounds like; also unlocks audio on this user gesture
}

/**
 * The "Notify me" toggle, called from a click (the only time permission is asked).
 * Resolves to null when on, else the reason (a sentence) it stays off.
 * @param {boolean} on @returns {Promise<string | null>}
 */
export async function setBrowserNotifications(on) {
  if (!on) {
    localStorage.removeItem(BROWSER_KEY);
    schedule();
    return null;
  }
  if (!("Notification" in window)) return t("notify_unsupported");
  let permission = Notification.permission;
  if (permission === "default") permission = await Notification.requestPermission();
  if (permission !== "granted") return t("notify_blocked");
  localStorage.setItem(BROWSER_KEY, "on");
  schedule();
  return null;
}

// ---- sources ----------------------------------------------------------------------------
/** Called once by app.js: listen to the account, the tab, and ask now. */
export function startNotifier() {
  if (started) return;
  started = true;
  // account.js announces these (CustomEvent): the account, and the list of "my games".
  window.addEventListener("machiavel:account", (event) => accountChanged(/** @type {CustomEvent} */ (event).detail));
  window.addEventListener("machiavel:my-games", (event) => seenMyGames(/** @type {CustomEvent} */ (event).detail));
  document.addEventListener("visibilitychange", () => {
    schedule();
    if (!document.hidden) look();
  });
  window.addEventListener("focus", () => look());
}

/** @param {unknown} account the signed-in account, or null */
function accountChanged(account) {
  signedIn = !!account;
  looked = false;
  known.clear(); // another account's games are another story
  if (!signedIn) setTitle(0);
  else look();
  schedule();
}

/** The game page shows a new state (a push, an answer): events for this game, and a
 * look at the other games soon (the title).
 * @param {string} gameId @param {import("./api.js").Json} state */
export function gameState(gameId, state) {
  onScreen = gameId;
  if (state.player === null || state.player === undefined) return;
  update(gameId, {
    version: state.version,
    mine: !state.is_over && state.to_move.includes(state.player) && !(state.seats[state.player] || {}).stand_in, // a stand-in's turn is not yours
    over: !!state.is_over,
    game: state.game,
  });
  if (signedIn && !pushTimer) pushTimer = setTimeout(() => { pushTimer = null; look(); }, PUSH_DELAY);
}

/** @param {string} gameId */
export function gameLeft(gameId) {
  if (onScreen === gameId) onScreen = null;
}

/** @param {MyGame[]} games */
function seenMyGames(games) {
  let waiting = 0;
  for (const g of games) {
    if (g.your_turn || g.invited) waiting += 1;
    if (looked && g.invited && !known.has(g.id)) invitation(g);
    update(g.id, { version: g.version, mine: !!g.your_turn, over: g.status === "finished", game: g.game });
  }
  looked = true;
  setTitle(waiting);
}

async function look() {
  if (!signedIn) return;
  if (inFlight) {
    again = true; // what changed meanwhile is seen by one more look afterwards
    return;
  }
  inFlight = api("GET", "/api/me/games");
  const { status, data } = await inFlight;
  inFlight = null;
  if (status === 200 && signedIn) seenMyGames(data.games);
  else if (status === 401) accountChanged(null);
  if (again) {
    again = false;
    look();
  }
}

function schedule() {
  clearInterval(timer);
  timer = undefined;
  if (!signedIn) return;
  const hidden = document.hidden;
  if (hidden && !browserNotificationsOn()) return; // paused while nobody looks
  timer = setInterval(() => look(), hidden ? HIDDEN_EVERY : VISIBLE_EVERY);
}

/** @param {number} waiting */
function setTitle(waiting) {
  document.title = waiting > 0 ? `(${waiting}) ${TITLE}` : TITLE;
  document.documentElement.dataset.waiting = String(waiting);
}

// ---- events -----------------------------------------------------------------------------
/** @param {string} gameId @param {Known} next */
function update(gameId, next) {
  const before = known.get(gameId);
  if (before && next.version < before.version) return; // older news
  known.set(gameId, next);
  if (!before || next.version === before.version) return; // first seen, or nothing new
  const visibleHere = onScreen === gameId && !document.hidden;
  if (next.mine && !before.mine) {
    if (soundOn()) beep();
    if (!visibleHere) notify(gameId, next.game, t("notify_your_turn", { game: t(`game.${next.game}`, {}, next.game) }));
  } else if (next.over && !before.over && !visibleHere) {
    notify(gameId, next.game, t("notify_game_over", { game: t(`game.${next.game}`, {}, next.game) }));
  }
}

/** @param {MyGame} g */
function invitation(g) {
  if (soundOn()) beep();
  notify(g.id, g.game, t("invitation_to", { game: t(`game.${g.game}`, {}, g.game) }));
}

/** @param {string} gameId @param {string} game @param {string} title */
function notify(gameId, game, title) {
  if (!browserNotificationsOn()) return;
  try {
    const note = new Notification(title, { body: `${gameId} · ${TITLE}`, tag: `machiavel-${gameId}` });
    note.onclick = () => {
      window.focus();
      location.hash = `#/game/${encodeURIComponent(gameId)}`;
      note.close();
    };
  } catch {
    // Some browsers only notify from a service worker: the title and the sound remain.
  }
}

/** A short two-tone beep made on the spot (no audio file). Silent until the page had a
 * user gesture (browsers refuse to start audio before one). */
export function beep() {
  /** @type {typeof AudioContext | undefined} */
  const Context = window.AudioContext || /** @type {{webkitAudioContext?: typeof AudioContext}} */ (window).webkitAudioContext; // older Safari
  if (!Context) return;
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
  try {
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime + 0.01;
    const gain = audio.createGain();
    gain.connect(audio.destination);
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.3);
    for (const [frequency, offset] of [[660, 0], [880, 0.12]]) {
      const tone = audio.createOscillator();
      tone.type = "sine";
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(start + offset);
      tone.stop(start + offset + 0.18);
    }
  } catch {
    // No sound is no error.
  }
}
