// Step through a finished game with everything revealed (GET /api/games/{id}/replay), with
// the chat as it stood at each step. It opens at the start; it plays at a chosen speed and
// jumps to each step whose log entry tells of an event (an election, a count, a round end,
// a death: the lines after an entry's first).
import { api, gamePath } from "./api.js";
import { replayChat } from "./chat.js";
import { h, clear, patch } from "./dom.js";
import { t, logEntries, logLine } from "./i18n.js";
import { playerLabel, seatName, logText } from "./players.js";
import { keyAttrs, formatScore } from "./game.js";
import { boardOf } from "./games/index.js";
import "./trade-words.js";

export const SPEEDS = [0.5, 1, 2, 4]; // steps a second
const DEFAULT_SPEED = 1;

/** The steps whose entry has event lines: [{step, entry}], the step being after the action. */
export function eventSteps(log) {
  const events = [];
  log.forEach((entry, i) => {
    if (logLine(entry).includes("\n")) events.push({ step: i + 1, entry });
  });
  return events;
}

/** An entry's first event line, in the current language. */
function firstEvent(entry) {
  return logLine(entry).split("\n")[1];
}

/** A log entry as lines: the action's, then its events'. */
function entryLines(seats, entry) {
  return logLine(entry)
    .split("\n")
    .map((line, i) => h("span", { class: i ? "log-event" : "log-action" }, logText(seats, line)));
}

export class ReplayPage {
  constructor(root, gameId, step) {
    this.root = root;
    this.gameId = gameId;
    this.step = step ?? 0; // a replay opens at the start unless the address names a step
    this.data = null;
    this.fullLog = []; // the whole game's entries, read once: the events to jump to
    this.timer = null;
    this.playing = false;
    this.stepping = false; // the next step is being fetched
    this.speed = DEFAULT_SPEED;
    this.asked = 0; // answers to an earlier request than the latest are dropped
    this.stopped = false; // left for another page: nothing more is drawn or asked
    this.revealed = new Map();
    this.onKey = (event) => {
      if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName) || !this.data) return;
      if (event.key === "ArrowRight") this.go(this.data.step + 1);
      if (event.key === "ArrowLeft") this.go(this.data.step - 1);
    };
  }

  async start() {
    clear(this.root).append(h("p", { class: "muted" }, t("loading")));
    document.addEventListener("keydown", this.onKey);
    const { status, data } = await api("GET", gamePath(this.gameId, "/replay"));
    if (this.stopped) return; // the person went elsewhere meanwhile: another page is drawn
    if (status === 200) this.fullLog = logEntries(data);
    await this.go(this.step);
  }

  stop() {
    this.stopped = true;
    this.playing = false;
    clearTimeout(this.timer);
    this.asked += 1; // an answer still on its way is not drawn on another page
    document.removeEventListener("keydown", this.onKey);
  }

  async go(step) {
    if (this.data && (step < 0 || step > this.data.steps)) return;
    const query = step === null || step === undefined ? "" : `?step=${step}`;
    const asked = ++this.asked;
    const { status, data } = await api("GET", gamePath(this.gameId, "/replay") + query);
    if (asked !== this.asked || this.stopped) return;
    if (status !== 200) {
      this.stopPlaying();
      clear(this.root).append(h("p", { class: "error" }, data.detail || t("error")), h("a", { href: "#/" }, t("back_to_lobby")));
      return;
    }
    this.data = data;
    this.log = logEntries(data); // each line {en, fr}, shown in the current language
    if (!this.fullLog.length && data.step === data.steps) this.fullLog = this.log;
    history.replaceState(null, "", `#/replay/${encodeURIComponent(this.gameId)}?step=${data.step}`);
    this.render();
  }

  /** Steps one at a time, each shown for 1/speed seconds (the next asked once it shows). */
  togglePlay() {
    if (this.playing) return this.stopPlaying();
    if (this.data.step >= this.data.steps) return;
    this.playing = true;
    this.render();
    this.scheduleNext();
  }

  scheduleNext() {
    clearTimeout(this.timer);
    if (!this.playing) return;
    this.timer = setTimeout(() => this.playNext(), 1000 / this.speed);
  }

  async playNext() {
    if (!this.playing) return;
    this.stepping = true;
    await this.go(this.data.step + 1);
    this.stepping = false;
    if (this.data.step >= this.data.steps) this.stopPlaying();
    else this.scheduleNext();
  }

  setSpeed(value) {
    this.speed = SPEEDS.includes(value) ? value : DEFAULT_SPEED;
    if (!this.stepping) this.scheduleNext(); // the step shown now waits at the new pace
    this.render();
  }

  stopPlaying() {
    this.playing = false;
    clearTimeout(this.timer);
    if (this.data) this.render();
  }

  reveal(id) {
    const now = performance.now();
    if (!this.revealed.has(id)) this.revealed.set(id, now);
    const elapsed = now - this.revealed.get(id);
    return elapsed < 20000 ? elapsed : null;
  }

  context(view) {
    const data = this.data;
    const ctx = {
      view,
      me: null, // every seat is named, never "you": a replay is nobody's game
      seats: data.seats,
      players: data.views.length,
      toMove: view.to_move || [],
      isOver: data.is_over,
      candidates: new Set(),
      selected: new Set(),
      replay: true,
      legal: [],
      play: () => {},
      name: (p) => seatName(data.seats, p),
      label: (p) => playerLabel(data.seats, p),
      reveal: (id) => this.reveal(id),
      choose: () => {},
    };
    ctx.key = (key, base) => keyAttrs(ctx, key, base);
    return ctx;
  }

  speedControl() {
    return h(
      "label",
      { class: "replay-speed" },
      t("replay.speed"),
      " ",
      h(
        "select",
        { id: "replay-speed", "data-speed": this.speed, onchange: (e) => this.setSpeed(Number(e.target.value)) },
        SPEEDS.map((n) => h("option", { value: n, selected: n === this.speed, title: t("replay.speed_value", { n }) }, `${n}×`)),
      ),
    );
  }

  jumpControl() {
    const events = eventSteps(this.fullLog);
    if (!events.length) return null;
    const seats = this.data.seats;
    return h(
      "label",
      { class: "replay-jump" },
      t("replay.jump"),
      " ",
      h(
        "select",
        { id: "replay-jump", onchange: (e) => e.target.value !== "" && this.go(Number(e.target.value)) },
        h("option", { value: "" }, t("replay.jump_choose"), " (", t("replay.events", { n: events.length }), ")"),
        events.map(({ step, entry }) =>
          h("option", { value: step, "data-step": step, selected: step === this.data.step }, `${step}. `, namedSeats(seats, firstEvent(entry))),
        ),
      ),
    );
  }

  controls() {
    const data = this.data;
    return h(
      "div",
      { class: "replay-controls" },
      h("button", { id: "replay-first", onclick: () => this.go(0), disabled: data.step === 0, title: t("first"), "aria-label": t("first") }, "|◀"),
      h("button", { id: "replay-prev", onclick: () => this.go(data.step - 1), disabled: data.step === 0, title: t("previous"), "aria-label": t("previous") }, "◀"),
      h("button", { id: "replay-play", onclick: () => this.togglePlay(), title: t("play_pause"), "aria-label": t("play_pause"), "aria-pressed": String(this.playing), disabled: !this.playing && data.step >= data.steps }, this.playing ? "❚❚" : "▶▶"),
      h("button", { id: "replay-next", onclick: () => this.go(data.step + 1), disabled: data.step >= data.steps, title: t("next"), "aria-label": t("next") }, "▶"),
      h("button", { id: "replay-last", onclick: () => this.go(data.steps), disabled: data.step >= data.steps, title: t("last"), "aria-label": t("last") }, "▶|"),
      h("input", { type: "range", min: 0, max: data.steps, value: data.step, "aria-label": t("step"), onchange: (e) => this.go(Number(e.target.value)) }),
      h("span", { id: "replay-step", "data-step": data.step, "aria-live": "polite" }, t("step_of", { n: data.step, total: data.steps })),
      this.speedControl(),
      this.jumpControl(),
    );
  }

  render() {
    const data = this.data;
    const module = boardOf(data.game);
    const view = module.merge ? module.merge(data) : data.spectator;
    const ctx = this.context(view);
    const entry = data.step > 0 ? this.log[data.step - 1] : null;
    const scores = view.scores || [];
    const focused = document.activeElement && this.root.contains(document.activeElement) ? document.activeElement.id : null;
    patch(
      this.root,
      h(
        "div",
        { class: "game-page replay", "data-game": data.game, "data-step": data.step, "data-playing": String(this.playing) },
        h("header", { class: "game-head" }, h("a", { href: "#/", class: "back" }, "← ", t("lobby")), h("h2", {}, t("replay_of", { game: t(`game.${data.game}`) }), " ", h("span", { class: "muted game-id" }, data.id)), h("span", { class: "tag" }, t("everything_revealed"))),
        this.controls(),
        h("p", { class: "last-action" }, entry ? entryLines(data.seats, entry) : t("start_of_game")),
        h(
          "div",
          { class: "game-layout" },
          h("section", { class: "board-area" }, module.render(ctx)),
          h(
            "aside",
            { class: "side" },
            h("div", { class: "panel seats" }, h("h3", {}, t("players")), h("ul", {}, data.seats.map((seat) => h("li", { class: data.winners.includes(seat.player) && data.step === data.steps ? "winner" : "" }, playerLabel(data.seats, seat.player), h("span", { class: "score" }, formatScore(scores[seat.player])))))),
            h("div", { class: "panel log" }, h("h3", {}, t("log")), h("ol", {}, this.log.map((e) => h("li", {}, entryLines(data.seats, e))))),
            replayChat(data.chat, data.step), // the messages written at this step or before
          ),
        ),
      ),
    );
    for (const list of this.root.querySelectorAll(".log ol, .chat-messages")) list.scrollTop = list.scrollHeight;
    // A control clicked keeps the focus through the redraw (keyboard users stay put).
    const again = focused ? this.root.querySelector(`#${CSS.escape(focused)}`) : null;
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}

/** A log line as plain text (an <option> holds text only), each "player N" by its name. */
function namedSeats(seats, line) {
  return line.replace(/\b(?:[Pp]layer|[Jj]oueur) (\d+)\b/g, (mention, n) => (Number(n) < seats.length ? seatName(seats, Number(n)) : mention));
}
