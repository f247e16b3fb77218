// Step through a finished game with everything revealed (GET /api/games/{id}/replay), with
// the chat as it stood at each step.
import { api, gamePath } from "./api.js";
import { replayChat } from "./chat.js";
import { h, clear } from "./dom.js";
import { t, logEntries, logLine } from "./i18n.js";
import { playerLabel, seatName, logText } from "./players.js";
import { keyAttrs, formatScore } from "./game.js";
import { boardOf } from "./games/index.js";

export class ReplayPage {
  constructor(root, gameId, step) {
    this.root = root;
    this.gameId = gameId;
    this.step = step;
    this.data = null;
    this.timer = null;
    this.revealed = new Map();
    this.onKey = (event) => {
      if (event.target.tagName === "INPUT") return;
      if (event.key === "ArrowRight") this.go(this.data.step + 1);
      if (event.key === "ArrowLeft") this.go(this.data.step - 1);
    };
  }

  async start() {
    clear(this.root).append(h("p", { class: "muted" }, t("loading")));
    document.addEventListener("keydown", this.onKey);
    await this.go(this.step);
  }

  stop() {
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.onKey);
  }

  async go(step) {
    if (this.data && (step < 0 || step > this.data.steps)) return;
    const query = step === null || step === undefined ? "" : `?step=${step}`;
    const { status, data } = await api("GET", gamePath(this.gameId, "/replay") + query);
    if (status !== 200) {
      this.stopPlaying();
      clear(this.root).append(h("p", { class: "error" }, data.detail || t("error")), h("a", { href: "#/" }, t("back_to_lobby")));
      return;
    }
    this.data = data;
    this.log = logEntries(data); // each line {en, fr}, shown in the current language
    history.replaceState(null, "", `#/replay/${encodeURIComponent(this.gameId)}?step=${data.step}`);
    this.render();
  }

  togglePlay() {
    if (this.timer) return this.stopPlaying();
    this.timer = setInterval(() => {
      if (this.data.step >= this.data.steps) this.stopPlaying();
      else this.go(this.data.step + 1);
    }, 900);
    this.render();
  }

  stopPlaying() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.data) this.render();
  }

  reveal(id) {
    const now = performance.now();
    if (!this.revealed.has(id)) this.revealed.set(id, now);
    const elapsed = now - this.revealed.get(id);
    return elapsed < 20000 ? elapsed : null;
  }

  render() {
    const data = this.data;
    const module = boardOf(data.game);
    const view = module.merge ? module.merge(data) : data.spectator;
    const ctx = {
      view,
      me: null,
      seats: data.seats,
      players: data.views.length,
      toMove: view.to_move || [],
      isOver: data.is_over,
      candidates: new Set(),
      selected: new Set(),
      replay: true,
      name: (p) => seatName(data.seats, p),
      label: (p) => playerLabel(data.seats, p),
      reveal: (id) => this.reveal(id),
      choose: () => {},
    };
    ctx.key = (key, base) => keyAttrs(ctx, key, base);
    const last = data.step > 0 ? data.actions[data.step - 1] : null;
    const controls = h(
      "div",
      { class: "replay-controls" },
      h("button", { id: "replay-first", onclick: () => this.go(0), disabled: data.step === 0, title: t("first") }, "|◀"),
      h("button", { id: "replay-prev", onclick: () => this.go(data.step - 1), disabled: data.step === 0, title: t("previous") }, "◀"),
      h("button", { id: "replay-play", onclick: () => this.togglePlay(), title: t("play_pause") }, this.timer ? "||" : "▶▶"),
      h("button", { id: "replay-next", onclick: () => this.go(data.step + 1), disabled: data.step >= data.steps, title: t("next") }, "▶"),
      h("button", { id: "replay-last", onclick: () => this.go(data.steps), disabled: data.step >= data.steps, title: t("last") }, "▶|"),
      h("input", { type: "range", min: 0, max: data.steps, value: data.step, "aria-label": t("step"), onchange: (e) => this.go(Number(e.target.value)) }),
      h("span", { id: "replay-step" }, t("step_of", { n: data.step, total: data.steps })),
    );
    const scores = view.scores || [];
    clear(this.root).append(
      h(
        "div",
        { class: "game-page replay", "data-game": data.game, "data-step": data.step },
        h("header", { class: "game-head" }, h("a", { href: "#/", class: "back" }, "← ", t("lobby")), h("h2", {}, t("replay_of", { game: t(`game.${data.game}`) }), " ", h("span", { class: "muted game-id" }, data.id)), h("span", { class: "tag" }, t("everything_revealed"))),
        controls,
        h("p", { class: "last-action" }, last ? [playerLabel(data.seats, last[0]), ": ", h("code", {}, last[1]), this.log[data.step - 1] ? h("span", { class: "muted" }, " — ", logText(data.seats, logLine(this.log[data.step - 1]))) : null] : t("start_of_game")),
        h(
          "div",
          { class: "game-layout" },
          h("section", { class: "board-area" }, module.render(ctx)),
          h(
            "aside",
            { class: "side" },
            h("div", { class: "panel seats" }, h("h3", {}, t("players")), h("ul", {}, data.seats.map((seat) => h("li", { class: data.winners.includes(seat.player) && data.step === data.steps ? "winner" : "" }, playerLabel(data.seats, seat.player), h("span", { class: "score" }, formatScore(scores[seat.player])))))),
            h("div", { class: "panel log" }, h("h3", {}, t("log")), h("ol", {}, this.log.map((entry) => h("li", {}, logText(data.seats, logLine(entry)))))),
            replayChat(data.chat, data.step), // the messages written at this step or before
          ),
        ),
      ),
    );
    for (const list of this.root.querySelectorAll(".log ol, .chat-messages")) list.scrollTop = list.scrollHeight;
  }
}
