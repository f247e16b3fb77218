// @ts-check
// The chat of a table (docs/server.md, "Chat"): the messages this viewer may read (the
// server chooses them) and a box to write in one's own channel, players in the players',
// spectators in the spectators'. Text is text: messages only ever become text nodes (h()).
import { h, clear } from "./dom.js";
import { t, getLang } from "./i18n.js";
import { aBot } from "./clocks.js";
import { playerBadge } from "./players.js";

/**
 * A chat message as the server sends it (docs/server.md, "Chat").
 * @typedef {{number: number, channel: string, player: number | null, name: string, text: string, at: string, version?: number}} ChatMessage
 */
/** @typedef {{text: string, channel: string, player: number | null}} Pending */

export const MAX_CHAT = 500; // characters; maxlength counts UTF-16 units, so never more code points
const PLAYERS = "players";
const SPECTATORS = "spectators";

/** A message as the server stores it: to recognise one's own when it comes back.
 * @param {string} text */
export function cleanChat(text) {
  return text.replace(/\r\n?/g, "\n").replace(/\t/g, " ").trim();
}

/** The author as people read it: the server writes "player N" (0-based) for a seat with
 * no name and "spectator" for a spectator without an account.
 * @param {ChatMessage} message */
function authorName(message) {
  if (message.player !== null && message.name === `player ${message.player}`) return t("player_n", { n: message.player + 1 });
  if (message.player === null && message.name === "spectator") return t("spectator");
  return message.name;
}

/** @param {ChatMessage} message */
function timeOf(message) {
  const at = new Date(message.at);
  if (Number.isNaN(at.getTime())) return null;
  const short = at.toLocaleTimeString(getLang(), { hour: "2-digit", minute: "2-digit" });
  return h("time", { class: "chat-time muted", datetime: message.at, title: at.toLocaleString(getLang()) }, short);
}

// What the server says at the table (channel "table", docs/server.md "Clocks and absent
// players"): English sentences of known shapes, shown in the page's language; an unknown
// one stays as written.
const TABLE = "table";
/** @type {[RegExp, string][]} */
const TABLE_SENTENCES = [
  [/^(.+) ran out of time: an? (\w+) bot plays for them \(they may come back\)$/, "table_ran_out"],
  [/^(.+) left the table: an? (\w+) bot plays for them \(they may come back\)$/, "table_left"],
  [/^(.+) is back$/, "table_back"],
  [/^(.+) resigned$/, "table_resigned"],
  [/^the table was abandoned: nobody played$/, "table_abandoned"],
];

/** @param {string} text */
export function tableText(text) {
  for (const [pattern, key] of TABLE_SENTENCES) {
    const match = pattern.exec(text);
    if (match) return t(key, { name: match[1], bot: match[2] ? aBot(match[2]) : "" });
  }
  return text;
}

/** A table event: a notice with its time, not a person's message.
 * @param {ChatMessage} message */
function tableLine(message) {
  return h(
    "li",
    { class: "chat-message table-notice", "data-number": message.number, "data-channel": message.channel, role: "note" },
    timeOf(message),
    " ",
    h("span", { class: "chat-text" }, tableText(message.text)),
  );
}

/** One message: time, badge (a seat's) and author, the channel if it is the spectators',
 * then the text, always as text.
 * @param {ChatMessage} message */
export function chatLine(message) {
  if (message.channel === TABLE) return tableLine(message);
  return h(
    "li",
    { class: `chat-message ${message.channel === SPECTATORS ? "from-spectator" : "from-player"}`, "data-number": message.number, "data-channel": message.channel },
    timeOf(message),
    " ",
    message.player !== null ? [playerBadge(message.player), " "] : null,
    h("strong", { class: "chat-author" }, authorName(message)),
    message.channel === SPECTATORS ? h("span", { class: "tag chat-channel" }, t("chat_spectators")) : null,
    " ",
    h("span", { class: "chat-text" }, message.text),
  );
}

/** The chat messages of a replay written at or before `step` (each carries the version it
 * was written at), in a panel; null if the game had none.
 * @param {ChatMessage[] | null | undefined} messages @param {number} step */
export function replayChat(messages, step) {
  if (!messages || !messages.length) return null;
  const shown = messages.filter((m) => (m.version ?? 0) <= step);
  return h(
    "section",
    { id: "chat", class: "panel chat", "aria-label": t("chat") },
    h("h3", {}, t("chat")),
    shown.length ? h("ol", { class: "chat-messages" }, shown.map(chatLine)) : h("p", { class: "muted chat-empty" }, t("chat_none_yet")),
  );
}

/**
 * The game page's chat: built once and moved into each redraw of the page, so a push never
 * wipes the list, the typed text or the focus. `send(text)` puts a message on the socket
 * (false if it is not open); the message comes back as a push, a refusal as an error.
 */
export class ChatPanel {
  /** @param {(text: string) => boolean} send */
  constructor(send) {
    this.send = send;
    /** @type {Map<number, ChatMessage>} */
    this.messages = new Map(); // number -> message
    /** @type {Pending | null} */
    this.pending = null; // sent, neither back nor refused yet
    /** @type {string | null} */
    this.lang = null;
    this.title = h("h3", {});
    this.list = h("ol", { class: "chat-messages", "aria-live": "polite" });
    this.empty = h("p", { class: "muted chat-empty" });
    this.note = h("p", { class: "muted chat-note" });
    this.input = h("input", { id: "chat-text", type: "text", maxlength: MAX_CHAT, autocomplete: "off" });
    this.button = h("button", { id: "chat-send", type: "submit" });
    this.error = h("p", { id: "chat-error", class: "chat-error error", role: "alert" });
    this.form = h(
      "form",
      {
        class: "chat-form",
        onsubmit: (event) => {
          event.preventDefault();
          this.submit();
        },
      },
      this.input,
      this.button,
    );
    this.node = h("section", { id: "chat", class: "panel chat" }, this.title, this.empty, this.list, this.note, this.form, this.error);
    /** @type {{channel: string, player: number | null} | null} */
    this.writer = null;
  }

  /** A new viewer (the page started again): what it may read comes anew. */
  reset() {
    this.messages.clear();
    this.pending = null;
    this.button.disabled = false;
    this.error.textContent = "";
    clear(this.list);
  }

  /** Who writes here: a seat (`player`) in the players' channel, a spectator (null) in the
   * spectators'; `open` false when nothing can be written (a read-only game).
   * @param {{player: number | null, open: boolean}} who */
  update({ player, open }) {
    const channel = player === null ? SPECTATORS : PLAYERS;
    this.writer = open ? { channel, player } : null;
    this.form.hidden = !open;
    this.title.textContent = t("chat");
    this.node.setAttribute("aria-label", t("chat"));
    this.button.textContent = t("chat_send");
    this.input.placeholder = t(channel === PLAYERS ? "chat_placeholder_players" : "chat_placeholder_spectators");
    this.input.setAttribute("aria-label", this.input.placeholder);
    this.note.textContent = open && channel === SPECTATORS ? t("chat_note_spectators") : "";
    this.note.hidden = !this.note.textContent;
    this.empty.textContent = t("chat_none_yet");
    if (this.lang !== getLang()) this.redrawList(); // times and tags in the new language
    this.showEmpty();
  }

  /** Messages from a whole state or a page of history: added once each, in order.
   * @param {ChatMessage[]} messages */
  merge(messages) {
    const fresh = messages.filter((m) => m && typeof m.number === "number" && !this.messages.has(m.number));
    if (!fresh.length) return;
    const last = Math.max(0, ...this.messages.keys());
    for (const message of fresh) this.messages.set(message.number, message);
    if (fresh.every((m) => m.number > last)) this.append(fresh.sort((a, b) => a.number - b.number));
    else this.redrawList();
  }

  /** A message pushed live; one's own coming back empties the box (if still the same text).
   * @param {ChatMessage} message */
  received(message) {
    const pending = this.pending;
    this.merge([message]);
    if (pending && message.text === pending.text && message.channel === pending.channel && message.player === pending.player) {
      this.pending = null;
      this.button.disabled = false;
      this.error.textContent = "";
      if (cleanChat(this.input.value) === pending.text) this.input.value = "";
    }
  }

  /** A refusal pushed by the server: shown under the box, the text kept. False if no
   * message was waiting for an answer (the error is not the chat's).
   * @param {{detail?: string}} error */
  refused(error) {
    if (!this.pending) return false;
    this.pending = null;
    this.button.disabled = false;
    this.error.textContent = error.detail || t("error");
    return true;
  }

  /** The socket dropped: a message waiting for its answer may not have arrived (the
   * history asked on reconnecting shows it if it did); the text stays in the box. */
  connectionLost() {
    if (!this.pending) return;
    this.pending = null;
    this.button.disabled = false;
    this.error.textContent = t("chat_maybe_lost");
  }

  submit() {
    const text = cleanChat(this.input.value);
    if (!text || !this.writer || this.pending) return;
    this.error.textContent = "";
    if (!this.send(text)) {
      this.error.textContent = t("chat_offline");
      return;
    }
    this.pending = { text, channel: this.writer.channel, player: this.writer.player };
    this.button.disabled = true;
  }

  // ---- drawing --------------------------------------------------------------------
  sorted() {
    return [...this.messages.values()].sort((a, b) => a.number - b.number);
  }

  atBottom() {
    return this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
  }

  /** @param {ChatMessage[]} messages */
  append(messages) {
    const follow = this.atBottom();
    this.list.append(...messages.map(chatLine));
    this.showEmpty();
    if (follow) this.scrollDown();
  }

  redrawList() {
    this.lang = getLang();
    clear(this.list).append(...this.sorted().map(chatLine));
    this.showEmpty();
    this.scrollDown();
  }

  showEmpty() {
    this.empty.hidden = this.messages.size > 0;
    this.list.hidden = this.messages.size === 0;
  }

  /** The latest message in view (after each redraw of the page too: moving the panel
   * loses its scroll position). */
  scrollDown() {
    this.list.scrollTop = this.list.scrollHeight;
  }
}
