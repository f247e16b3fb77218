// The lobby: create a table, join a free seat, watch or replay any game.
import { api, gamePath, mySeats, rememberSeat, rememberInvites, rememberHost, myName, rememberName } from "./api.js";
import { h, clear } from "./dom.js";
import { ratingsLinks } from "./ratings.js";
import { t } from "./i18n.js";
import { me, signedIn, myGames, accountPanel } from "./account.js";
import { playerBadge, seatName } from "./players.js";
import { defaultClock, clockFieldset, clockRequest } from "./clockform.js";

const LEVELS = ["easy", "medium", "hard", "expert"];

export class LobbyPage {
  constructor(root) {
    this.root = root;
    this.catalog = null;
    this.games = [];
    this.accountGames = []; // GET /api/me/games when signed in: your turn first
    this.form = { game: null, players: null, options: {}, seats: [], sit: true, listed: true };
    this.clock = defaultClock(); // the clock and stand-in level of the new table (clockform.js)
    this.timer = null;
    this.error = null;
  }

  async start() {
    const { status, data } = await api("GET", "/api/catalog");
    this.catalog = status === 200 ? data : { games: [], levels: LEVELS };
    const order = ["tyrus", "djambi", "guildes", "tyros"];
    const rank = (id) => (order.includes(id) ? order.indexOf(id) : order.length);
    this.catalog.games.sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
    if (this.catalog.games.length) this.selectGame(this.catalog.games[0].id);
    await me();
    await this.refresh();
    this.timer = setInterval(() => this.refresh(), 4000);
  }

  stop() {
    clearInterval(this.timer);
  }

  async refresh() {
    const { status, data } = await api("GET", "/api/games?status=all&limit=100");
    this.accountGames = signedIn() ? await myGames() : [];
    if (status === 200) {
      this.games = data.games;
      this.renderLists();
    }
    if (!this.root.querySelector(".lobby")) this.render();
  }

  spec() {
    return this.catalog.games.find((g) => g.id === this.form.game);
  }

  selectGame(gameId) {
    const spec = this.catalog.games.find((g) => g.id === gameId);
    this.form.game = gameId;
    this.form.players = spec.min_players;
    this.form.options = Object.fromEntries(spec.options.map((o) => [o.name, o.default]));
    this.resizeSeats();
  }

  resizeSeats() {
    const seats = [];
    for (let i = 0; i < this.form.players; i++) seats.push(this.form.seats[i] || (i === 0 ? "human" : "bot:medium"));
    this.form.seats = seats;
  }

  render() {
    if (!this.catalog) return;
    clear(this.root).append(
      h(
        "div",
        { class: "lobby" },
        h(
          "section",
          { class: "panel you" },
          h("label", {}, t("your_name"), " ", h("input", { id: "lobby-name", value: myName() || (signedIn() || {}).name || "", maxlength: 40, autocomplete: "nickname", onchange: (e) => rememberName(e.target.value.trim()) })),
          accountPanel(() => this.accountChanged()),
        ),
        this.createForm(),
        h("section", { class: "panel", id: "my-games" }),
        h("section", { class: "panel", id: "open-games" }),
        h("section", { class: "panel", id: "running-games" }),
        h("section", { class: "panel", id: "finished-games" }),
        ratingsLinks(),
      ),
    );
    this.renderLists();
  }

  async accountChanged() {
    this.root.querySelector(".lobby")?.remove();
    await this.refresh();
  }

  name() {
    const input = this.root.querySelector("#lobby-name");
    const name = (input ? input.value : myName()).trim();
    if (name) rememberName(name);
    return name;
  }

  // ---- creating a table ----------------------------------------------------------------
  createForm() {
    const spec = this.spec();
    if (!spec) return h("p", { class: "error" }, t("no_games"));
    const gameSelect = h(
      "select",
      { id: "new-game", onchange: (e) => { this.selectGame(e.target.value); this.rerenderForm(); } },
      this.catalog.games.map((g) => h("option", { value: g.id, selected: g.id === this.form.game }, t(`game.${g.id}`))),
    );
    const counts = [];
    for (let n = spec.min_players; n <= spec.max_players; n++) counts.push(n);
    const playersSelect = h(
      "select",
      { id: "new-players", disabled: counts.length === 1, onchange: (e) => { this.form.players = Number(e.target.value); this.resizeSeats(); this.rerenderForm(); } },
      counts.map((n) => h("option", { value: n, selected: n === this.form.players }, String(n))),
    );
    const options = spec.options.map((o) => this.optionField(o));
    const seatRows = this.form.seats.map((value, i) =>
      h(
        "li",
        {},
        playerBadge(i),
        " ",
        t("seat_n", { n: i + 1 }),
        i === 0 && this.form.sit ? h("strong", {}, ` (${t("you")})`) : null,
        " ",
        h(
          "select",
          { class: "seat-kind", "data-seat": i, disabled: i === 0 && this.form.sit, onchange: (e) => { this.form.seats[i] = e.target.value; } },
          h("option", { value: "human", selected: value === "human" }, t("seat.human")),
          (this.catalog.levels || LEVELS).map((level) => h("option", { value: "bot:" + level, selected: value === "bot:" + level }, t("bot_level", { level: t("level." + level) }))),
        ),
      ),
    );
    return h(
      "section",
      { class: "panel new-table", id: "new-table" },
      h("h2", {}, t("new_table")),
      h("div", { class: "form-row" }, h("label", {}, t("game"), " ", gameSelect), " ", h("label", {}, t("players"), " ", playersSelect)),
      h("p", { class: "muted summary" }, spec.summary.split("\n")[0]),
      options.length ? h("fieldset", {}, h("legend", {}, t("options")), options) : null,
      h("fieldset", {}, h("legend", {}, t("seats")), h("ul", { class: "seat-list" }, seatRows)),
      clockFieldset(this.clock, this.catalog.levels || LEVELS, () => this.rerenderForm()),
      h("label", {}, h("input", { type: "checkbox", id: "new-sit", checked: this.form.sit, onchange: (e) => { this.form.sit = e.target.checked; if (this.form.sit) this.form.seats[0] = "human"; this.rerenderForm(); } }), " ", t("i_sit")),
      " ",
      h("label", {}, h("input", { type: "checkbox", id: "new-listed", checked: this.form.listed, onchange: (e) => { this.form.listed = e.target.checked; } }), " ", t("listed")),
      h("p", {}, h("button", { id: "create", class: "primary", onclick: () => this.create() }, t("create"))),
      this.error ? h("p", { class: "error" }, this.error) : null,
    );
  }

  optionField(option) {
    const id = `opt-${option.name}`;
    const text = t(`opt.${this.form.game}.${option.name}`, {}, option.description);
    const value = this.form.options[option.name];
    const choices = option.choices;
    let input;
    if (choices && choices.length === 2 && choices.includes(true) && choices.includes(false)) {
      input = h("input", { type: "checkbox", id, checked: !!value, onchange: (e) => { this.form.options[option.name] = e.target.checked; } });
      return h("label", { class: "option" }, input, " ", text);
    }
    if (choices) {
      input = h(
        "select",
        { id, onchange: (e) => { this.form.options[option.name] = choices[e.target.selectedIndex]; } },
        choices.map((c) => h("option", { selected: c === value }, t(`optval.${this.form.game}.${option.name}.${c}`, {}, String(c)))),
      );
    } else {
      input = h("input", {
        type: "number", id, value, min: option.minimum ?? null, max: option.maximum ?? null,
        onchange: (e) => { this.form.options[option.name] = Number(e.target.value); },
      });
    }
    return h("label", { class: "option" }, text, " ", input);
  }

  rerenderForm() {
    const old = this.root.querySelector("#new-table");
    if (old) old.replaceWith(this.createForm());
  }

  async create() {
    const name = this.name();
    if (this.form.sit && !name) {
      this.error = t("name_needed");
      this.rerenderForm();
      return;
    }
    const seats = this.form.seats.map((value, i) => {
      if (value.startsWith("bot:")) return { kind: "bot", level: value.slice(4) };
      return i === 0 && this.form.sit ? { kind: "human", name } : { kind: "human" };
    });
    const body = { game: this.form.game, players: this.form.players, options: this.form.options, seats, listed: this.form.listed, ...clockRequest(this.clock) };
    const { status, data } = await api("POST", "/api/games", body);
    if (status !== 201) {
      this.error = data.detail || t("error");
      this.rerenderForm();
      return;
    }
    this.error = null;
    const invites = data.seats.filter((seat) => seat.token && !(seat.player === 0 && this.form.sit));
    rememberInvites(data.id, invites);
    const host = data.seats.find((seat) => seat.token);
    if (host) rememberHost(data.id, host.token); // to re-invite a seat never taken
    if (this.form.sit) {
      rememberSeat(data.id, 0, data.seats[0].token);
      location.hash = `#/game/${encodeURIComponent(data.id)}`;
    } else {
      location.hash = `#/game/${encodeURIComponent(data.id)}?spectate=1`;
    }
  }

  // ---- the lists ---------------------------------------------------------------------
  renderLists() {
    const mine = mySeats();
    const inAccount = new Set(this.accountGames.map((g) => g.id));
    const sections = {
      "my-games": [t("my_games"), this.games.filter((g) => mine[g.id] && !g.is_over && !inAccount.has(g.id))],
      "open-games": [t("open_games"), this.games.filter((g) => g.status === "open")],
      "running-games": [t("running_games"), this.games.filter((g) => g.status === "running")],
      "finished-games": [t("finished_games"), this.games.filter((g) => g.status === "finished").slice(0, 20)],
    };
    for (const [id, [title, games]] of Object.entries(sections)) {
      const node = this.root.querySelector("#" + id);
      if (!node) continue;
      const accountList = id === "my-games" && this.accountGames.length ? h("ul", { class: "game-list account-games" }, this.accountGames.map((g) => this.accountEntry(g))) : null;
      const list = games.length ? h("ul", { class: "game-list" }, games.map((g) => this.entry(g, mine))) : accountList ? null : h("p", { class: "muted" }, t("none"));
      clear(node).append(h("h2", {}, title), accountList, list);
    }
  }

  /** A game of the signed-in account (GET /api/me/games): your turn first. */
  accountEntry(game) {
    const link = `#/game/${encodeURIComponent(game.id)}`;
    const since = game.waiting_since ? new Date(game.waiting_since).toLocaleString() : null;
    return h(
      "li",
      { class: "game-entry" + (game.your_turn ? " your-turn" : ""), "data-id": game.id, "data-status": game.status, "data-your-turn": game.your_turn ? "yes" : "no" },
      h("strong", {}, t(`game.${game.game}`, {}, game.title)),
      " ",
      h("span", { class: "muted" }, game.id),
      " ",
      h("span", { class: "tag" }, t("status." + game.status)),
      game.your_turn ? [" ", h("span", { class: "tag your-turn-tag" }, t("your_turn_tag"))] : null,
      since ? h("span", { class: "muted" }, " ", t("waiting_since", { time: since })) : null,
      h("div", { class: "seats-line" }, game.seats.map((seat) => h("span", { class: "seat-chip" }, playerBadge(seat.player), " ", seatName(game.seats, seat.player)))),
      h("div", { class: "entry-actions" }, game.status === "finished" ? h("a", { class: "button", href: `#/replay/${encodeURIComponent(game.id)}` }, t("replay")) : h("a", { class: "button", href: link }, t("resume"))),
    );
  }

  entry(game, mine) {
    const link = `#/game/${encodeURIComponent(game.id)}`;
    const seats = game.seats.map((seat) =>
      h(
        "span",
        { class: "seat-chip" + (game.open_seats.includes(seat.player) ? " open" : "") },
        playerBadge(seat.player),
        " ",
        game.open_seats.includes(seat.player) ? t("free_seat") : seatName(game.seats, seat.player),
        game.open_seats.includes(seat.player) ? h("button", { class: "small join", "data-seat": seat.player, onclick: () => this.join(game.id, seat.player) }, t("join")) : null,
      ),
    );
    const actions = [];
    if (mine[game.id] && !game.is_over) actions.push(h("a", { class: "button", href: link }, t("resume")));
    if (game.is_over) actions.push(h("a", { class: "button", href: `#/replay/${encodeURIComponent(game.id)}` }, t("replay")));
    actions.push(h("a", { class: "button watch", href: `${link}?spectate=1` }, t("watch")));
    return h(
      "li",
      { class: "game-entry", "data-id": game.id, "data-status": game.status },
      h("strong", {}, t(`game.${game.game}`, {}, game.title)),
      " ",
      h("span", { class: "muted" }, game.id),
      " ",
      h("span", { class: "tag" }, t("status." + game.status)),
      h("div", { class: "seats-line" }, seats),
      h("div", { class: "entry-actions" }, actions),
    );
  }

  async join(gameId, seat) {
    const name = this.name();
    if (!name) {
      this.error = t("name_needed");
      this.rerenderForm();
      this.root.querySelector("#lobby-name").focus();
      return;
    }
    const { status, data } = await api("POST", gamePath(gameId, "/join"), { name, seat });
    if (status !== 200) {
      alert(data.detail || t("error"));
      this.refresh();
      return;
    }
    rememberSeat(gameId, data.player, data.token);
    location.hash = `#/game/${encodeURIComponent(gameId)}`;
  }
}
