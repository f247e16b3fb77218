// @ts-check
// The server's HTTP and WebSocket API (docs/server.md), and where this browser keeps its
// seat tokens.

/** @typedef {Record<string, any>} Json  A JSON object as the server sent it (docs/server.md). */
/** @typedef {{status: number, data: Json}} Answer */
/** @typedef {{player: number, token: string}} SeatToken */

/**
 * A JSON request; resolves to {status, data} (data is the parsed body or {detail}).
 * @param {string} method @param {string} path @param {unknown} [body]
 * @returns {Promise<Answer>}
 */
export async function api(method, path, body) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let answer;
  try {
    answer = await fetch(path, init);
  } catch (error) {
    return { status: 0, data: { detail: String(error) } };
  }
  let data;
  try {
    data = await answer.json();
  } catch {
    data = { detail: answer.statusText };
  }
  return { status: answer.status, data };
}

/** @param {string} id @param {string} [suffix] */
export function gamePath(id, suffix = "") {
  return `/api/games/${encodeURIComponent(id)}${suffix}`;
}

// ---- tokens kept in this browser ------------------------------------------------------
const SEATS_KEY = "machiavel.seats"; // {gameId: {player, token}}
const INVITES_KEY = "machiavel.invites"; // {gameId: [{player, token}]} for tables I created

/** @param {string} key @returns {Record<string, any>} */
function readJson(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}") || {};
  } catch {
    return {};
  }
}

/** @param {string} gameId @returns {SeatToken | null} */
export function mySeat(gameId) {
  return readJson(SEATS_KEY)[gameId] || null;
}

/** @returns {Record<string, SeatToken>} */
export function mySeats() {
  return readJson(SEATS_KEY);
}

/** @param {string} gameId @param {number} player @param {string} token */
export function rememberSeat(gameId, player, token) {
  const seats = readJson(SEATS_KEY);
  seats[gameId] = { player, token };
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

/** @param {string} gameId */
export function forgetSeat(gameId) {
  const seats = readJson(SEATS_KEY);
  delete seats[gameId];
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

/** @param {string} gameId @returns {SeatToken[]} */
export function invitesOf(gameId) {
  return readJson(INVITES_KEY)[gameId] || [];
}

/** @param {string} gameId @param {SeatToken[]} invites */
export function rememberInvites(gameId, invites) {
  const all = readJson(INVITES_KEY);
  all[gameId] = invites;
  localStorage.setItem(INVITES_KEY, JSON.stringify(all));
}

// The host's token of a table created in this browser (the first human seat's token at
// creation): it lets the host re-invite a seat never taken, even once that seat changed hands.
const HOSTS_KEY = "machiavel.hosts"; // {gameId: token}

/** @param {string} gameId @param {string} token */
export function rememberHost(gameId, token) {
  const all = readJson(HOSTS_KEY);
  all[gameId] = token;
  localStorage.setItem(HOSTS_KEY, JSON.stringify(all));
}

/** The host token this browser holds for a game: kept at creation, else (a table created
 * before it was kept) the creation token of the first human seat, if this browser has it.
 * @param {string} gameId @param {number | null} firstHuman
 * @returns {string | null} */
export function hostTokenOf(gameId, firstHuman) {
  const kept = readJson(HOSTS_KEY)[gameId];
  if (kept) return kept;
  const invite = invitesOf(gameId).find((i) => i.player === firstHuman);
  if (invite) return invite.token;
  const seat = mySeat(gameId);
  return seat && seat.player === firstHuman && invitesOf(gameId).length ? seat.token : null;
}

/** @param {string} gameId @param {string} token */
export function inviteLink(gameId, token) {
  const base = location.origin + location.pathname;
  return `${base}#/game/${encodeURIComponent(gameId)}?token=${encodeURIComponent(token)}`;
}

export function myName() {
  return localStorage.getItem("machiavel.name") || "";
}

/** @param {string} name */
export function rememberName(name) {
  localStorage.setItem("machiavel.name", name);
}

// ---- live updates -----------------------------------------------------------------------
/**
 * A WebSocket that stays open: on a drop it reconnects with a growing delay (0.5 s, 1 s,
 * 2 s ... at most 10 s) and asks for the log from the line it already holds, so the server's
 * first push catches it up. Close codes 4403 (seat taken), 4404 (no game) and 4410 (a stored
 * game that no longer replays: read-only) end it. Pushes are states (the first of each socket
 * flagged: the page then catches up on the chat), chat messages and "play again" tables.
 */
/**
 * @typedef {object} LiveHandlers
 * @property {(payload: Json, first: boolean) => void} state
 * @property {((message: Json) => void)} [chat]
 * @property {((id: string) => void)} [rematch]
 * @property {(error: Json) => void} error
 * @property {(status: string, reason?: string) => void} status
 * @property {() => number} logLength
 */
export class Live {
  /** @param {string} gameId @param {string | null} token @param {LiveHandlers} handlers */
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token;
    // {state(payload, first), chat(message), rematch(id), error(err), status(text), logLength()}
    this.handlers = handlers;
    this.attempt = 0;
    this.stopped = false;
    /** @type {WebSocket | null} */
    this.socket = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  /** Send a message on the open socket; false if it is not open (nothing is queued).
   * @param {Json} message */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close(1000);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = new URLSearchParams();
    if (this.token) query.set("token", this.token);
    query.set("log_from", String(this.handlers.logLength()));
    return `${scheme}//${location.host}${gamePath(this.gameId, "/ws")}?${query}`;
  }

  connect() {
    if (this.stopped) return;
    this.handlers.status("connecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    let first = true; // the server's first push on a socket comes once it is registered
    socket.onopen = () => {
      this.attempt = 0;
      this.handlers.status("live");
    };
    socket.onmessage = (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (data.error) this.handlers.error(data.error);
      else if (typeof data.version === "number") {
        this.handlers.state(data, first);
        first = false;
      } else if (data.chat && this.handlers.chat) this.handlers.chat(data.chat);
      else if (typeof data.rematch === "string" && this.handlers.rematch) this.handlers.rematch(data.rematch);
      else this.handlers.state(data, false);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      /** @type {Record<number, string>} */
      const finals = { 4403: "seat-taken", 4404: "gone", 4410: "read-only" };
      const final = finals[event.code];
      if (final) {
        this.handlers.status(final, event.reason);
        return;
      }
      this.handlers.status("offline");
      const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.8 + 0.4 * Math.random());
      this.attempt += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }
}
