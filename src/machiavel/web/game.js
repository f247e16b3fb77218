// The page of one game: the board of its game module, the choices, the players, the log,
// the chat, the end screen with "Play again"; kept up to date over a WebSocket.
import { api, gamePath, Live, mySeat, rememberSeat, forgetSeat, invitesOf, rememberInvites, rememberHost, hostTokenOf, inviteLink, myName, rememberName } from "./api.js";
import { me, signedIn, accountPanel } from "./account.js";
import { ChatPanel } from "./chat.js";
import { Chooser, DONE } from "./choices.js";
import { h, clear, patch, owned, slot } from "./dom.js";
import { t, logEntries, logLine } from "./i18n.js";
import { playerLabel, seatName, playerBadge } from "./players.js";
import { boardOf } from "./games/index.js";
import { rulesLink } from "./rules.js";
import { gameState, gameLeft } from "./notify.js";
import { turnNote } from "./turns.js";
import { accountInviteForm } from "./invitations.js";
import { MoveTrail, moveStepper, logEntryNodes, endingNote, outNotice } from "./moves.js";
import { seatClock, standInMark, standInBanner, tableControls, outcomeNote, keepClocksTicking, standingIn, quietWhileStoodIn } from "./clocks.js";

export class GamePage {
  /** @param {HTMLElement} root @param {string} gameId @param {{token?: string | null, spectate?: boolean}} [how] */
  constructor(root, gameId, { token = null, spectate = false } = {}) {
    this.root = root;
    this.gameId = gameId;
    this.spectate = spectate;
    this.addressToken = spectate ? null : token || null; // an invite link's token, if any
    this.addressRefused = false; // the address's token opens no seat (kept: what we had)
    this.refusedToken = null;
    this.accountSeat = null; // the seat the signed-in account holds in this game
    this.token = null;
    this.state = null;
    this.log = [];
    this.marks = []; // the board marks of each log entry (moves.js)
    this.trail = new MoveTrail(); // which recent moves the board marks
    this.outSeen = false; // a player put out (Djambi) chose to keep watching
    this.chooser = null;
    this.busy = false;
    this.notice = null;
    this.connection = "connecting";
    this.revealed = new Map(); // reveal id -> time first shown (step-by-step animations)
    this.live = null;
    this.module = null;
    this.chat = new ChatPanel((text) => (this.live ? this.live.send({ chat: text }) : false));
    this.rematch = null; // the id of the "play again" table, once pushed
    this.askingRematch = false;
    this.epoch = 0; // counts starts and stops: an answer for an earlier viewer is dropped
  }

  async start() {
    const epoch = ++this.epoch;
    this.chat.reset();
    this.rematch = null;
    clear(this.root).append(h("p", { class: "muted" }, t("loading")));
    await me();
    const { status, data } = await this.openSeat();
    if (epoch !== this.epoch) return; // left (or restarted) meanwhile: no socket, nothing drawn
    if (status !== 200) {
      clear(this.root).append(h("p", { class: "error" }, data.detail || t("error")), h("a", { href: "#/" }, t("back_to_lobby")));
      return;
    }
    this.module = boardOf(data.game);
    if (this.addressRefused) {
      // Never a reason to drop the seat this browser or account holds: say so, offer to sign in.
      this.notice = { kind: "error", text: t(data.player !== null ? "address_token_refused" : "address_token_refused_watch") };
    }
    this.accountSeat = null;
    if (signedIn() && !this.spectate) {
      const byCookie = this.token ? await this.fetchWith(null, 0) : { status, data };
      if (epoch !== this.epoch) return;
      if (byCookie.status === 200) this.accountSeat = byCookie.data.player;
    }
    if (location.hash.includes("token=")) {
      // An invite link: this browser keeps the token; the address bar no longer shows it.
      history.replaceState(null, "", `#/game/${encodeURIComponent(this.gameId)}`);
    }
    this.applyState(data);
    this.live = new Live(this.gameId, this.token, {
      state: (payload, first) => {
        this.applyState(payload);
        if (first) this.catchUpChat(payload);
      },
      chat: (message) => this.chat.received(message),
      rematch: (id) => this.rematchMade(id),
      error: (error) => this.socketError(error),
      status: (status, reason) => this.setConnection(status, reason),
      logLength: () => this.log.length,
    });
    this.live.start();
  }

  stop() {
    this.epoch += 1; // what a start still waits for is dropped
    if (this.live) this.live.stop();
    clearTimeout(this.noticeTimer);
    gameLeft(this.gameId);
  }

  async fetchState(logFrom) {
    return this.fetchWith(this.token, logFrom);
  }

  async fetchWith(token, logFrom = 0) {
    const query = new URLSearchParams({ log_from: String(logFrom) });
    if (token) query.set("token", token);
    return api("GET", `${gamePath(this.gameId)}?${query}`);
  }

  /**
   * Which seat this page plays: the address's token (an invite link), else the token this
   * browser keeps, else the signed-in account's seat (the cookie), else none (watching).
   * A token in the address that is refused never replaces nor removes the kept one: a
   * stale or wrong link cannot take a seat away.
   */
  async openSeat() {
    const kept = this.spectate ? null : (mySeat(this.gameId) || {}).token || null;
    this.token = null;
    // A token already refused is not asked again (after signing in, say).
    this.addressRefused = this.addressToken !== null && this.addressToken === this.refusedToken;
    if (this.addressToken && this.addressToken !== kept && !this.addressRefused) {
      const answer = await this.fetchWith(this.addressToken);
      if (answer.status === 200 && answer.data.player !== null) {
        this.token = this.addressToken;
        // Kept only if this browser held no working seat token for this game.
        const keptWorks = kept && (await this.fetchWith(kept)).status === 200;
        if (!keptWorks) rememberSeat(this.gameId, answer.data.player, this.token);
        return answer;
      }
      if (answer.status !== 403) return answer;
      this.addressRefused = true;
      this.refusedToken = this.addressToken;
    }
    if (kept) {
      const answer = await this.fetchWith(kept);
      if (answer.status === 200) {
        this.token = kept;
        return answer;
      }
      if (answer.status !== 403) return answer;
      // This browser's own token no longer opens the seat (it was taken again with it).
      forgetSeat(this.gameId);
      if (!this.addressRefused) this.notice = { kind: "error", text: t("token_refused") };
    }
    return this.fetchWith(null); // the account's seat, if signed in; else watching
  }

  // ---- state --------------------------------------------------------------------------
  applyState(payload) {
    if (!payload || typeof payload.version !== "number") return;
    payload = quietWhileStoodIn(payload); // no choices offered while a stand-in plays this seat
    if (this.state && payload.version < this.state.version) return; // an older push
    const start = payload.log_start || 0;
    if (start > this.log.length) {
      this.refresh(); // a gap in the log: ask for all of it
      return;
    }
    const held = this.log.length;
    this.log = this.log.slice(0, start).concat(logEntries(payload)); // each line {en, fr}
    this.keepMarks(start, payload.marks, held);
    const before = this.state;
    this.state = payload;
    if (Array.isArray(payload.chat)) this.chat.merge(payload.chat); // a whole state's
    else if (before && !before.is_over && payload.is_over && payload.player !== null) {
      this.fetchChat(); // the spectators' channel opens to the players at the end
    }
    // Others acting (simultaneous choices) must not undo a choice under way.
    const sameChoices =
      before && this.chooser && !this.chooser.spent && before.legal_actions.join("\n") === payload.legal_actions.join("\n");
    if (!sameChoices) this.chooser = new Chooser(payload.legal_actions, (a) => this.module.keys(a, payload.view));
    this.render();
    gameState(this.gameId, payload); // the tab title, a sound or a notification (notify.js)
  }

  /** The marks parallel to the log (one per entry, {} where the payload had none). */
  keepMarks(start, marks, held) {
    const added = this.log.slice(start).map((_, i) => (Array.isArray(marks) && marks[i]) || {});
    this.marks = this.marks.slice(0, start).concat(added);
    this.trail.grew(held, this.log.length);
  }

  async refresh() {
    const epoch = this.epoch;
    const { status, data } = await this.fetchState(0);
    if (epoch !== this.epoch) return; // the page was left meanwhile
    if (status === 200) {
      this.log = [];
      this.marks = [];
      this.state = null;
      this.applyState(data);
    }
  }

  setConnection(status, reason) {
    this.connection = status;
    if (status !== "live") this.chat.connectionLost();
    if (this.state) this.chatPanel(); // a read-only game's chat is read, not written
    if (status === "seat-taken") {
      // Only this socket's own token is dropped, never another one this browser keeps.
      if ((mySeat(this.gameId) || {}).token === this.token) forgetSeat(this.gameId);
      this.flash("error", t("seat_taken_elsewhere") + (reason ? ` (${reason})` : "") + " " + t("seat_taken_sign_in"));
    } else if (status === "read-only" && reason) {
      this.flash("error", reason);
    }
    this.renderConnection();
  }

  socketError(error) {
    if (this.chat.refused(error)) return; // the page sends only chat messages on the socket
    if (error.state) this.applyState(error.state);
    this.flash("error", error.detail || t("error"));
  }

  flash(kind, text) {
    this.notice = { kind, text };
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => {
      this.notice = null;
      this.renderNotice();
    }, 6000);
    this.renderNotice();
  }

  // ---- chat and play again --------------------------------------------------------------
  /** A socket's first push is a state since the log line held, without the chat: the
   * messages written while no socket was open are asked once (never on other pushes). */
  catchUpChat(payload) {
    if (typeof payload.version !== "number" || Array.isArray(payload.chat)) return;
    this.fetchChat();
  }

  async fetchChat() {
    const epoch = this.epoch;
    const query = new URLSearchParams({ limit: "100" });
    if (this.token) query.set("token", this.token);
    const { status, data } = await api("GET", `${gamePath(this.gameId, "/chat")}?${query}`);
    if (epoch === this.epoch && status === 200 && Array.isArray(data.chat)) this.chat.merge(data.chat);
  }

  rematchMade(id) {
    if (this.rematch === id) return;
    this.rematch = id;
    if (this.state) this.render();
  }

  rematchId() {
    return this.rematch || (this.state && this.state.rematch) || null;
  }

  /** "Play again" (or "Join the rematch": the same route): the new table, with this
   * seat's token kept as for any other seat (an account's seat needs none). */
  async playAgain() {
    if (this.askingRematch) return;
    this.askingRematch = true;
    const { status, data } = await api("POST", gamePath(this.gameId, "/rematch"), this.token ? { token: this.token } : {});
    this.askingRematch = false;
    if (status !== 200) {
      this.flash("error", data.detail || t("error"));
      return;
    }
    if (data.token && data.player !== null) rememberSeat(data.id, data.player, data.token);
    if (data.created) {
      // The caller hosts the new table: its invite links, as for a table made in the lobby.
      if (data.seats.length) rememberInvites(data.id, data.seats);
      if (data.token) rememberHost(data.id, data.token);
    }
    location.hash = `#/game/${encodeURIComponent(data.id)}`;
  }

  rematchButton() {
    const made = this.rematchId();
    if (this.state.player === null) {
      if (!made) return null;
      return h("a", { id: "watch-rematch", class: "button", href: `#/game/${encodeURIComponent(made)}?spectate=1` }, t("watch_rematch"));
    }
    return h(
      "button",
      { id: made ? "join-rematch" : "play-again", class: "primary", onclick: () => this.playAgain() },
      t(made ? "join_rematch" : "play_again"),
    );
  }

  // ---- acting -------------------------------------------------------------------------
  choose(key) {
    if (this.busy || !this.chooser) return;
    const action = this.chooser.choose(key);
    if (action !== null) this.play(action);
    else this.render();
  }

  cancel() {
    if (this.chooser) this.chooser.back();
    this.render();
  }

  async play(action) {
    if (this.busy) return;
    this.busy = true;
    if (this.chooser) this.chooser.spent = true; // the next state gets a fresh chooser
    this.render();
    const epoch = this.epoch;
    const chosenAmong = this.state.legal_actions.join("\n");
    let version = this.state.version;
    let answer;
    for (let attempt = 0; attempt < 4; attempt++) {
      const body = { token: this.token, action, version };
      answer = await api("POST", gamePath(this.gameId, "/actions"), body);
      if (answer.status === 0) answer = await api("POST", gamePath(this.gameId, "/actions"), body); // a retry is answered idempotently
      const stale = answer.status === 409 && answer.data && typeof answer.data.version === "number";
      // Others moved meanwhile (simultaneous choices): if this seat's choices are exactly
      // the same, the choice was made knowing all it may know now, so it still stands.
      if (!stale || (answer.data.legal_actions || []).join("\n") !== chosenAmong) break;
      version = answer.data.version;
    }
    this.busy = false;
    if (epoch !== this.epoch) return; // the page was left meanwhile: the move stands, nothing is drawn
    const { status, data } = answer;
    if (status === 200) {
      this.applyState(data);
      this.render(); // the answer may be older than a push already shown
    } else if (status === 409) {
      this.flash("info", t("moved_on"));
      if (data && typeof data.version === "number") {
        this.chooser = null; // the answer carries the whole current state and log
        this.applyState(data);
        this.render();
      } else this.refresh();
    } else {
      this.flash("error", data.detail || t("error"));
      if (this.chooser) this.chooser.back();
      this.refresh();
    }
  }

  async joinSeat(seat) {
    let name = (this.root.querySelector("#join-name") || {}).value || myName() || (signedIn() || {}).name || "";
    name = name.trim();
    if (!name) {
      this.flash("error", t("name_needed"));
      return;
    }
    rememberName(name);
    const body = seat === null ? { name, token: this.token } : { name, seat };
    const epoch = this.epoch;
    const { status, data } = await api("POST", gamePath(this.gameId, "/join"), body);
    if (status === 200) rememberSeat(this.gameId, data.player, data.token); // kept, even if the page was left
    if (epoch !== this.epoch) return;
    if (status !== 200) {
      this.flash("error", data.detail || t("error"));
      return;
    }
    this.spectate = false;
    this.addressToken = null;
    history.replaceState(null, "", `#/game/${encodeURIComponent(this.gameId)}`);
    await this.restart();
  }

  async restart() {
    this.stop();
    this.log = [];
    this.marks = [];
    this.state = null;
    this.chooser = null;
    await this.start();
  }

  async keepSeat() {
    const { status, data } = await api("POST", gamePath(this.gameId, "/claim"), { token: this.token });
    if (status !== 200) {
      this.flash("error", data.detail || t("error"));
      return;
    }
    this.accountSeat = data.player;
    this.flash("info", t("seat_kept"));
    this.render();
  }

  /** Signed out: the sign-in form (seated, to keep the seat; after a refused link, to
   * find one's seat). Signed in: keep a seat held by token in the account. */
  accountBox() {
    const state = this.state;
    const seated = state.player !== null;
    if (!signedIn()) {
      if (!seated && !this.addressRefused) return null;
      const intro = seated ? t("sign_in_to_keep") : t("seat_taken_sign_in");
      return accountPanel(() => this.restart(), { intro, id: "game-account" });
    }
    if (!seated || state.is_over) return null;
    if (this.accountSeat === state.player) return h("p", { class: "muted account-seat" }, t("seat_in_account"));
    if (!this.token) return null;
    return h("p", {}, h("button", { id: "keep-seat", onclick: () => this.keepSeat() }, t("keep_seat")));
  }

  // ---- drawing ------------------------------------------------------------------------
  reveal(id) {
    const now = performance.now();
    if (!this.revealed.has(id)) {
      // A tally already there when the page opened is shown at once, not replayed.
      this.revealed.set(id, this.firstRenderDone ? now : -Infinity);
    }
    const elapsed = now - this.revealed.get(id);
    return elapsed < 20000 ? elapsed : null;
  }

  context() {
    const state = this.state;
    const chooser = this.chooser;
    const candidates = !this.busy && chooser ? chooser.candidates() : new Set();
    const selected = chooser ? chooser.selected : new Set();
    const ctx = {
      view: state.view,
      me: state.player,
      seats: state.seats,
      players: state.view.players,
      toMove: state.to_move,
      isOver: state.is_over,
      candidates,
      selected,
      replay: false,
      marks: this.trail.boardMarks(this.marks, state.player), // moves.js: what just happened
      name: (p) => seatName(state.seats, p),
      label: (p) => playerLabel(state.seats, p),
      reveal: (id) => this.reveal(id),
      choose: (key) => this.choose(key),
      // A board that builds a whole action itself (Tyros' offers) plays one of these.
      legal: state.legal_actions,
      play: (action) => state.legal_actions.includes(action) && this.play(action),
      // Attributes of a board element that stands for a key: clickable only when legal.
      key: (key, base = "") => keyAttrs(ctx, key, base),
    };
    return ctx;
  }

  render() {
    if (!this.state) return;
    const focusOnBoard = boardFocus(this.root);
    this.draw();
    this.keepFocusOnBoard(focusOnBoard);
  }

  /**
   * Focus that was on the board stays on the board (a keyboard player keeps their place):
   * on the same target if it is still one, else the board's first target, else the board
   * itself. After a move the board has no target until the answer comes: the answer's
   * drawing (never a push) then puts focus on a target again.
   */
  keepFocusOnBoard(before) {
    const board = this.root.querySelector(".board-area");
    if (!board) return;
    const answered = this.focusAfterAnswer && !this.busy;
    if (answered) this.focusAfterAnswer = false;
    const lost = before && !(isFocusable(before.node) && board.contains(before.node));
    if (!lost && !(answered && document.activeElement === board)) return;
    const same = before ? [...board.querySelectorAll("[data-key]")].find((n) => n.getAttribute("data-key") === before.key && isFocusable(n)) : null;
    const target = same || [...board.querySelectorAll("[data-key]")].find(isFocusable) || board;
    if (target === board && this.busy) this.focusAfterAnswer = true;
    target.focus({ preventScroll: true });
  }

  draw() {
    const state = this.state;
    const ctx = this.context();
    const board = h("section", { class: "board-area", "aria-label": t("board"), tabindex: -1 }, slot("stepper", moveStepper(this)), this.module.render(ctx));
    const onBoard = new Set([...board.querySelectorAll("[data-key]")].map((n) => n.dataset.key));
    const mine = state.player !== null && state.to_move.includes(state.player) && !standingIn(state);
    document.body.dataset.turn = state.is_over ? "over" : mine ? "mine" : "others";
    const page = h(
      "div",
      { class: "game-page", "data-game": state.game, "data-version": state.version },
      this.header(),
      h("div", { id: "notice", class: "notice-slot" }, this.noticeLine()),
      // Each part in a fixed slot: a part appearing never moves the others (focus stays).
      slot("stand-in", standInBanner(this)),
      slot("out", outNotice(this)),
      slot("end", state.is_over ? this.endScreen() : null),
      h(
        "div",
        { class: "game-layout" },
        board,
        h(
          "aside",
          { class: "side" },
          slot("status", this.statusLine()),
          slot("choices", this.choiceBar(ctx, onBoard)),
          slot("join", this.joinPrompt()),
          slot("account", this.accountBox()),
          slot("seats", this.seatList()),
          slot("table", tableControls(this)),
          slot("invites", this.invites()),
          slot("all-actions", this.allActions()),
          slot("log", this.logPanel(state.seats)),
          owned(this.chatPanel()), // the chat keeps its own list, box and scroll
        ),
      ),
    );
    const logScroll = this.root.querySelector(".log ol");
    const wasAtBottom = !logScroll || logScroll.scrollTop + logScroll.clientHeight >= logScroll.scrollHeight - 4;
    patch(this.root, page); // only what changed: focus, typed text, open panels and scrolls stay
    this.showChoiceInBoxes(ctx);
    const list = this.root.querySelector(".log ol");
    if (list && wasAtBottom) list.scrollTop = list.scrollHeight;
    keepClocksTicking(this.root); // the running clocks count down between two states
    this.firstRenderDone = true;
  }

  /**
   * A board wider than a phone scrolls sideways in its own box: when the choices change, the
   * place just chosen (or the first place to choose, if none is in view) is brought into the
   * box's view, sideways only. The person's own scrolling is otherwise left alone.
   */
  showChoiceInBoxes(ctx) {
    const signature = [...ctx.selected].join(" ") + "|" + [...ctx.candidates].join(" ");
    if (signature === this.shownChoice) return;
    this.shownChoice = signature;
    for (const box of this.root.querySelectorAll(".board-area .board-scroll")) {
      if (box.scrollWidth <= box.clientWidth) continue;
      const places = [...box.querySelectorAll(".choosable")];
      const chosen = box.querySelector(".selected");
      const target = chosen || (places.some((place) => inView(box, place)) ? null : places[0]);
      if (target && !inView(box, target)) {
        const outer = box.getBoundingClientRect();
        const inner = target.getBoundingClientRect();
        box.scrollLeft += inner.left - outer.left - (outer.width - inner.width) / 2;
      }
    }
  }

  header() {
    const state = this.state;
    return h(
      "header",
      { class: "game-head" },
      h("a", { href: "#/", class: "back" }, "← ", t("lobby")),
      h("h2", {}, t(`game.${state.game}`), " ", h("span", { class: "muted game-id" }, state.id)),
      rulesLink(state.game),
      h("span", { id: "connection", class: "connection", "data-status": this.connection }, t(`conn.${this.connection}`)),
      state.player === null ? h("span", { class: "tag" }, t("spectating")) : h("span", { class: "tag" }, t("you_are"), " ", playerLabel(state.seats, state.player)),
      state.is_over ? h("a", { href: `#/replay/${encodeURIComponent(state.id)}`, class: "button" }, t("replay")) : null,
    );
  }

  renderConnection() {
    const node = this.root.querySelector("#connection");
    if (!node) return;
    node.dataset.status = this.connection;
    node.textContent = t(`conn.${this.connection}`);
  }

  renderNotice() {
    const slot = this.root.querySelector("#notice");
    if (!slot) return;
    patch(slot, this.noticeLine());
  }

  noticeLine() {
    return this.notice ? h("p", { class: `notice ${this.notice.kind}`, role: "status" }, this.notice.text) : null;
  }

  statusLine() {
    const state = this.state;
    const me = state.player;
    let content;
    if (state.is_over) content = t("game_over");
    else if (me !== null && state.to_move.includes(me) && !standingIn(state)) {
      const hint = this.module.hint ? this.module.hint(state.view, state.legal_actions) : null;
      content = [h("strong", {}, t("your_turn")), hint ? h("span", { class: "hint" }, " — ", hint) : null];
    } else if (state.to_move.length > 1) {
      content = [t("still_choosing"), " ", ...state.to_move.map((p) => [playerLabel(state.seats, p), " "])];
    } else if (state.to_move.length === 1) {
      content = [t("waiting_for"), " ", playerLabel(state.seats, state.to_move[0])];
    } else content = "";
    // The turn's time sits outside the live region: its clock redraws it every 30 s.
    return [h("div", { id: "status", class: "status", "aria-live": "polite" }, content), turnNote(state)];
  }

  choiceBar(ctx, onBoard) {
    const chooser = this.chooser;
    if (!chooser || this.state.legal_actions.length === 0) return null;
    const items = [];
    if (chooser.prefix.length > 0) {
      items.push(
        h(
          "div",
          { class: "trail" },
          t("chosen"),
          ": ",
          chooser.prefix.map((key) => h("span", { class: "chip" }, this.module.label(key, ctx))),
          " ",
          h("button", { class: "cancel", onclick: () => this.cancel() }, t("cancel")),
        ),
      );
    }
    const decided = chooser.decided();
    if (decided !== null && chooser.needsConfirm()) {
      items.push(
        h(
          "button",
          { class: "choosable confirm", "data-action": decided, disabled: this.busy, onclick: () => this.play(decided) },
          t("play"),
          ": ",
          this.module.describe ? this.module.describe(decided, ctx) : decided,
        ),
      );
    } else {
      const offBoard = [...ctx.candidates].filter((key) => !onBoard.has(key));
      const buttons = offBoard.map((key) =>
        h(
          "button",
          { class: "choosable choice", "data-key": key, disabled: this.busy, onclick: () => this.choose(key) },
          key === DONE ? t("that_is_all") : this.module.label(key, ctx),
        ),
      );
      if (buttons.length) items.push(h("div", { class: "choice-buttons" }, buttons));
      else if (ctx.candidates.size) items.push(h("p", { class: "muted" }, t("click_board")));
    }
    if (this.busy) items.push(h("p", { class: "muted" }, t("sending")));
    return h("div", { id: "choices", class: "choices" }, items);
  }

  joinPrompt() {
    const state = this.state;
    if (state.is_over) return null;
    const needsName = state.player !== null && !state.seats[state.player].name;
    const open = state.player === null && state.seats.some((s) => s.kind === "human" && !s.claimed && !s.reserved);
    if (!needsName && !open) return null;
    return h(
      "div",
      { class: "join-prompt" },
      h("label", {}, t("your_name"), " ", h("input", { id: "join-name", value: myName(), maxlength: 40, autocomplete: "nickname", oninput: (e) => rememberName(e.target.value) })),
      needsName ? h("button", { onclick: () => this.joinSeat(null) }, t("take_seat")) : null,
    );
  }

  seatList() {
    const state = this.state;
    const scores = state.view.scores || [];
    const rows = state.seats.map((seat) => {
      const p = seat.player;
      const toMove = state.to_move.includes(p);
      const canJoin = state.player === null && !state.is_over && seat.kind === "human" && !seat.claimed && !seat.reserved;
      return h(
        "li",
        { class: `seat${toMove ? " to-move" : ""}${state.winners.includes(p) ? " winner" : ""}`, "data-player": p },
        playerLabel(state.seats, p),
        seat.kind === "bot" || seat.bot_account ? h("span", { class: "muted" }, ` (${t("bot")})`) : null,
        seat.reserved ? h("span", { class: "muted reserved" }, ` (${t("invited")})`) : null,
        p === state.player ? h("span", { class: "tag" }, t("you")) : null,
        toMove ? h("span", { class: "thinking" }, t("to_move")) : null,
        seatClock(state, p),
        standInMark(state, seat),
        scores[p] !== undefined ? h("span", { class: "score" }, formatScore(scores[p])) : null,
        canJoin ? h("button", { class: "small", onclick: () => this.joinSeat(p) }, t("join_seat")) : null,
      );
    });
    return h("div", { class: "panel seats" }, h("h3", {}, t("players")), h("ul", {}, rows));
  }

  /** The first human seat: the creator's (its creation token is the host's). */
  firstHuman() {
    const seat = this.state.seats.find((s) => s.kind === "human");
    return seat ? seat.player : null;
  }

  /** The host of the table may re-invite a seat never taken: this browser holds the host's
   * token, or the signed-in account holds the first human seat (the creator's account). */
  isHost() {
    if (hostTokenOf(this.gameId, this.firstHuman())) return true;
    return !!signedIn() && this.accountSeat !== null && this.accountSeat === this.firstHuman();
  }

  invites() {
    const state = this.state;
    if (state.is_over) return null;
    const host = this.isHost();
    const known = new Map(invitesOf(this.gameId).map((i) => [i.player, i.token]));
    const seats = state.seats.filter(
      (seat) => seat.player !== state.player && seat.kind === "human" && (known.has(seat.player) || (host && !seat.claimed)),
    );
    if (!seats.length) return null;
    return h(
      "details",
      { class: "panel invites", open: seats.some((seat) => !seat.claimed) },
      h("summary", {}, t("invite_links")),
      h(
        "ul",
        {},
        seats.map((seat) => {
          const token = known.get(seat.player);
          const link = token ? inviteLink(this.gameId, token) : null;
          return h(
            "li",
            { "data-player": seat.player, class: this.freshInvite === seat.player ? "fresh-invite" : null },
            playerBadge(seat.player),
            " ",
            t("seat_n", { n: seat.player + 1 }),
            seat.claimed ? h("span", { class: "muted" }, ` (${t("taken")})`) : null,
            " ",
            link ? h("input", { class: "invite-link", readonly: true, value: link, onclick: (e) => e.target.select() }) : null,
            link ? h("button", { class: "small", onclick: () => copy(link, this) }, t("copy")) : null,
            host && !seat.claimed
              ? [
                  " ",
                  h("button", { class: "small reinvite", "data-player": seat.player, title: t("reinvite_note"), onclick: () => this.reinvite(seat.player) }, t("reinvite")),
                  accountInviteForm(this.gameId, seat, (name) => this.reinvite(seat.player, name)),
                ]
              : null,
          );
        }),
      ),
    );
  }

  /** The host asks a new invite link for a seat never taken; the old link stops working.
   * With ``account``, the seat is also kept for that account ("": for nobody any more). */
  async reinvite(player, account = undefined) {
    const token = hostTokenOf(this.gameId, this.firstHuman());
    const body = token ? { token } : {};
    if (account !== undefined) body.account = account;
    const { status, data } = await api("POST", gamePath(this.gameId, `/seats/${player}/invite`), body);
    if (status !== 200) {
      this.flash("error", data.detail || t("error"));
      return false;
    }
    const invites = invitesOf(this.gameId).filter((i) => i.player !== data.player);
    invites.push({ player: data.player, token: data.token });
    invites.sort((a, b) => a.player - b.player);
    rememberInvites(this.gameId, invites);
    this.freshInvite = data.player; // highlighted by this drawing only
    this.render();
    this.freshInvite = null;
    if (account === undefined) this.flash("info", t("reinvite_done", { n: data.player + 1 }));
    else if (data.account) this.flash("info", t("invite_done", { name: data.account, n: data.player + 1 }));
    else this.flash("info", t("invite_withdrawn", { n: data.player + 1 }));
    return true;
  }

  allActions() {
    const actions = this.state.legal_actions;
    if (!actions.length || this.busy) return null;
    return h(
      "details",
      { class: "panel all-actions" },
      h("summary", {}, t("all_actions", { n: actions.length })),
      h(
        "div",
        { class: "action-list" },
        actions.map((action) => h("button", { class: "small", "data-action": action, onclick: () => this.play(action) }, action)),
      ),
    );
  }

  chatPanel() {
    const open = !["read-only", "gone"].includes(this.connection);
    this.chat.update({ player: this.state.player, open });
    return this.chat.node;
  }

  logPanel(seats) {
    return h(
      "div",
      { class: "panel log" },
      h("h3", {}, t("log")),
      h("ol", { start: 1 }, this.log.map((entry) => h("li", {}, logEntryNodes(seats, logLine(entry))))),
    );
  }

  endScreen() {
    const state = this.state;
    const scores = state.view.scores || [];
    const winners = state.winners;
    const order = state.seats.map((s) => s.player).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0));
    let headline;
    if (state.player !== null && winners.includes(state.player)) headline = winners.length > 1 ? t("you_share_win") : t("you_win");
    else if (winners.length === 0) headline = t("no_winner");
    else if (winners.length === 1) headline = [playerLabel(state.seats, winners[0]), " ", t("wins")];
    else headline = [t("shared_win"), " ", ...winners.map((p) => [playerLabel(state.seats, p), " "])];
    const extra = this.module.endDetails ? this.module.endDetails(this.context()) : null;
    return h(
      "section",
      { id: "end-screen", class: "end-screen", role: "dialog", "aria-label": t("game_over") },
      h("h2", {}, t("game_over")),
      h("p", { class: "headline" }, headline),
      outcomeNote(state),
      endingNote(state),
      h(
        "table",
        { class: "scores" },
        h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("score")))),
        h(
          "tbody",
          {},
          order.map((p) =>
            h("tr", { class: winners.includes(p) ? "winner" : "" }, h("td", {}, playerLabel(state.seats, p), winners.includes(p) ? " ★" : ""), h("td", {}, formatScore(scores[p]))),
          ),
        ),
      ),
      extra,
      h(
        "p",
        { class: "end-actions" },
        this.rematchButton(),
        " ",
        h("a", { class: "button", href: `#/replay/${encodeURIComponent(state.id)}` }, t("watch_replay")),
        " ",
        h("a", { class: "button", href: "#/" }, t("back_to_lobby")),
      ),
    );
  }
}

export function keyAttrs(ctx, key, base = "") {
  const classes = [base, "key"];
  const legal = ctx.candidates.has(key);
  if (legal) classes.push("choosable");
  if (ctx.selected.has(key)) classes.push("selected");
  return {
    class: classes.join(" ").trim(),
    "data-key": key,
    tabindex: legal ? 0 : null,
    role: legal ? "button" : null,
    onclick: legal ? () => ctx.choose(key) : null,
    onkeydown: legal
      ? (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            ctx.choose(key);
          }
        }
      : null,
  };
}

/** Whether `node` is wholly within `box`'s visible width. */
function inView(box, node) {
  const outer = box.getBoundingClientRect();
  const inner = node.getBoundingClientRect();
  return inner.left >= outer.left && inner.right <= outer.right;
}

/** Where the focus is on the board, if it is: the element and the key it stands for. */
function boardFocus(root) {
  const board = root.querySelector(".board-area");
  const node = document.activeElement;
  if (!board || !node || !board.contains(node)) return null;
  return { node, key: node.getAttribute("data-key") };
}

/** Whether the person can still focus `node`: in the page, not disabled, reachable by Tab
 * or focused on purpose (tabindex -1). */
function isFocusable(node) {
  if (!node.isConnected || node.closest("[disabled], [hidden]")) return false;
  if (node.hasAttribute("tabindex")) return true;
  return node.matches("button, a[href], input, select, textarea, summary");
}

export function formatScore(value) {
  if (value === undefined || value === null) return "";
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}

async function copy(text, page) {
  try {
    await navigator.clipboard.writeText(text);
    page.flash("info", t("copied"));
  } catch {
    page.flash("info", text);
  }
}
