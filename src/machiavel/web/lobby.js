// The lobby: create a table, join a free seat, watch or replay any game.
import { api, gamePath, mySeats, rememberSeat, rememberInvites, rememberHost, myName, rememberName } from "./api.js";
import { h, clear } from "./dom.js";
import { ratingsLinks } from "./ratings.js";
import { t, languagesOf, getLang } from "./i18n.js";
import { rulesHref } from "./rules.js";
import { me, signedIn, myGames, accountPanel } from "./account.js";
import { playerBadge, seatName } from "./players.js";
import { paceTag, turnLine } from "./turns.js";
import { seatAccountField } from "./invitations.js";
import { defaultClock, clockFieldset, clockRequest } from "./clockform.js";

const LEVELS = ["easy", "medium", "hard", "expert"];

export class LobbyPage {
  constructor(root) {
    this.root = root;
    this.catalog = null;
    this.games = [];
    this.accountGames = []; // GET /api/me/games when signed in: your turn first
    // accounts: per seat, the name of an account invited to it ("" or absent: none)
    this.form = { game: null, players: null, options: {}, seats: [], accounts: [], sit: true, listed: true, pace: "live" };
    this.clock = defaultClock(); // the clock and stand-in level of the new table (clockform.js)
    this.timer = null;
    this.error = null;
    this.stopped = false; // left for another page: nothing more is drawn or asked
  }

  async start() {
    const { status, data } = await api("GET", "/api/catalog");
    if (this.stopped) return;
    this.catalog = status === 200 ? data : { games: [], levels: LEVELS };
    const order = ["tyrus", "djambi", "guildes", "tyros"];
    const rank = (id) => (order.includes(id) ? order.indexOf(id) : order.length);
    this.catalog.games.sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
    if (this.catalog.games.length) this.selectGame(this.catalog.games[0].id);
    await me();
    if (this.stopped) return;
    await this.refresh();
    if (this.stopped) return; // else its timer would draw the lobby over the next page
    this.timer = setInterval(() => this.refresh(), 4000);
  }

  stop() {
    this.stopped = true;
    clearInterval(this.timer);
  }

  async refresh() {
    const { status, data } = await api("GET", "/api/games?status=all&limit=100");
    this.accountGames = signedIn() ? await myGames() : [];
    if (this.stopped) return;
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
    const seatRows = this.form.seats.map((value, i) => {
      const yours = i === 0 && this.form.sit;
      // Another person's seat may be kept for an account, invited by its name.
      const invite = yours ? null : seatAccountField(i, this.form.accounts[i], value !== "human", (name) => { this.form.accounts[i] = name; });
      const kindChanged = (e) => {
        this.form.seats[i] = e.target.value;
        if (invite) invite.hidden = e.target.value !== "human";
      };
      return h(
        "li",
        {},
        playerBadge(i),
        " ",
        t("seat_n", { n: i + 1 }),
        yours ? h("strong", {}, ` (${t("you")})`) : null,
        " ",
        h(
          "select",
          { class: "seat-kind", "data-seat": i, disabled: yours, onchange: kindChanged },
          h("option", { value: "human", selected: value === "human" }, t("seat.human")),
          (this.catalog.levels || LEVELS).map((level) => h("option", { value: "bot:" + level, selected: value === "bot:" + level }, t("bot_level", { level: t("level." + level) }))),
        ),
        invite ? [" ", invite] : null,
      );
    });
    return h(
      "section",
      { class: "panel new-table", id: "new-table" },
      h("h2", {}, t("new_table")),
      h("div", { class: "form-row" }, h("label", {}, t("game"), " ", gameSelect), " ", h("label", {}, t("players"), " ", playersSelect)),
      this.summary(spec),
      options.length ? h("fieldset", {}, h("legend", {}, t("options")), options) : null,
      h("fieldset", {}, h("legend", {}, t("seats")), h("ul", { class: "seat-list" }, seatRows)),
      this.paceField(),
      clockFieldset(this.clock, this.catalog.levels || LEVELS, () => this.rerenderForm()),
      h("label", {}, h("input", { type: "checkbox", id: "new-sit", checked: this.form.sit, onchange: (e) => { this.form.sit = e.target.checked; if (this.form.sit) this.form.seats[0] = "human"; this.rerenderForm(); } }), " ", t("i_sit")),
      " ",
      h("label", {}, h("input", { type: "checkbox", id: "new-listed", checked: this.form.listed, onchange: (e) => { this.form.listed = e.target.checked; } }), " ", t("listed")),
      h("p", {}, h("button", { id: "create", class: "primary", onclick: () => this.create() }, t("create"))),
      this.error ? h("p", { class: "error" }, this.error) : null,
    );
  }

  /** The game's summary, whole and in the page's language, and a link to its rules. The
   * server's summary (English, with the engine's action syntax) is the fallback only. */
  summary(spec) {
    const key = `summary.${spec.id}`;
    const text = languagesOf(key).includes(getLang()) ? t(key) : spec.summary;
    return h(
      "p",
      { class: "muted summary", "data-game": spec.id },
      text,
      " ",
      h("a", { href: rulesHref(spec.id), class: "rules-from-lobby", "data-game": spec.id }, t("rules.link"), " →"),
    );
  }

  /** An option's label says what it does (rules-words.js: option.GAME.NAME); its tooltip
   * says more, with the ruling's id (option_help.GAME.NAME). */
  optionLabel(option) {
    const game = this.form.game;
    const label = `option.${game}.${option.name}`;
    const help = `option_help.${game}.${option.name}`;
    const text = languagesOf(label).length ? t(label) : t(`opt.${game}.${option.name}`, {}, option.description);
    return { text, title: languagesOf(help).length ? t(help) : option.description };
  }

  optionField(option) {
    const id = `opt-${option.name}`;
    const { text, title } = this.optionLabel(option);
    const value = this.form.options[option.name];
    const choices = option.choices;
    let input;
    if (choices && choices.length === 2 && choices.includes(true) && choices.includes(false)) {
      input = h("input", { type: "checkbox", id, checked: !!value, onchange: (e) => { this.form.options[option.name] = e.target.checked; } });
      return h("label", { class: "option", title }, input, " ", text);
    }
    if (choices) {
      input = h(
        "select",
        { id, onchange: (e) => { this.form.options[option.name] = choices[e.target.selectedIndex]; } },
        choices.map((c) => h("option", { selected: c === value }, this.choiceLabel(option, c))),
      );
    } else {
      input = h("input", {
        type: "number", id, value, min: option.minimum ?? null, max: option.maximum ?? null,
        onchange: (e) => { this.form.options[option.name] = Number(e.target.value); },
      });
    }
    return h("label", { class: "option", title }, text, " ", input);
  }

  choiceLabel(option, choice) {
    const game = this.form.game;
    const key = `optionval.${game}.${option.name}.${choice}`;
    return languagesOf(key).length ? t(key) : t(`optval.${game}.${option.name}.${choice}`, {}, String(choice));
  }

  /** Live or turn-based, each explained in a line (turn-based: e-mail says whose turn). */
  paceField() {
    const choice = (pace, label, note) =>
      h(
        "label",
        { class: "option pace-choice" },
        h("input", { type: "radio", name: "pace", id: `pace-${pace}`, value: pace, checked: this.form.pace === pace, onchange: () => { this.form.pace = pace; } }),
        " ",
        h("strong", {}, t(label)),
        " ",
        h("span", { class: "muted" }, t(note)),
      );
    return h(
      "fieldset",
      { class: "pace" },
      h("legend", {}, t("pace")),
      choice("live", "pace_live", "pace_live_note"),
      choice("turn-based", "pace_turn_based", "pace_turn_based_note"),
    );
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
      if (i === 0 && this.form.sit) return { kind: "human", name };
      const account = this.form.accounts[i];
      return account ? { kind: "human", account } : { kind: "human" };
    });
    const body = { game: this.form.game, players: this.form.players, options: this.form.options, seats, listed: this.form.listed, pace: this.form.pace, ...clockRequest(this.clock) };
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
      const accountLists = id === "my-games" ? this.accountLists() : [];
      const list = games.length ? h("ul", { class: "game-list" }, games.map((g) => this.entry(g, mine))) : accountLists.length ? null : h("p", { class: "muted" }, t("none"));
      clear(node).append(h("h2", {}, title), ...accountLists, ...(list ? [list] : []));
    }
  }

  /** The signed-in account's invitations (seats kept for it, not yet taken), then its
   * other games (GET /api/me/games: your turn first). */
  accountLists() {
    const invitations = this.accountGames.filter((g) => g.invited);
    const others = this.accountGames.filter((g) => !g.invited);
    const lists = [];
    if (invitations.length) {
      lists.push(h("h3", {}, t("invitations")), h("ul", { class: "game-list invitations" }, invitations.map((g) => this.accountEntry(g))));
    }
    if (others.length) lists.push(h("ul", { class: "game-list account-games" }, others.map((g) => this.accountEntry(g))));
    return lists;
  }

  /** A game of the signed-in account (GET /api/me/games), or an invitation to one. */
  accountEntry(game) {
    const link = `#/game/${encodeURIComponent(game.id)}`;
    const title = t(`game.${game.game}`, {}, game.title);
    const classes = ["game-entry", game.your_turn ? "your-turn" : "", game.invited ? "invitation" : ""].filter(Boolean).join(" ");
    let action;
    if (game.status === "finished") action = h("a", { class: "button", href: `#/replay/${encodeURIComponent(game.id)}` }, t("replay"));
    else action = h("a", { class: "button" + (game.invited ? " primary" : ""), href: link }, t(game.invited ? "open_invitation" : "resume"));
    return h(
      "li",
      { class: classes, "data-id": game.id, "data-status": game.status, "data-your-turn": game.your_turn ? "yes" : "no", "data-invited": game.invited ? "yes" : "no", "data-pace": game.pace },
      h("strong", {}, game.invited ? t("invitation_to", { game: title }) : title),
      " ",
      h("span", { class: "muted" }, game.id),
      " ",
      h("span", { class: "tag" }, t("status." + game.status)),
      game.your_turn ? [" ", h("span", { class: "tag your-turn-tag" }, t("your_turn_tag"))] : null,
      [" ", paceTag(game.pace)],
      h("div", { class: "turn-info" }, turnLine({ seats: game.seats, toMove: game.to_move, turnSince: game.turn_since, me: game.player })),
      h("div", { class: "seats-line" }, game.seats.map((seat) => this.seatChip(game, seat))),
      h("div", { class: "entry-actions" }, action),
    );
  }

  /** A seat in a list: badge and name, "(invited)" when it is kept for an account. */
  seatChip(game, seat) {
    return h(
      "span",
      { class: "seat-chip" + (seat.reserved ? " reserved" : "") },
      playerBadge(seat.player),
      " ",
      seatName(game.seats, seat.player),
      seat.reserved ? h("span", { class: "muted" }, ` (${t("invited")})`) : null,
    );
  }

  entry(game, mine) {
    const link = `#/game/${encodeURIComponent(game.id)}`;
    const seats = game.seats.map((seat) =>
      game.open_seats.includes(seat.player)
        ? h(
            "span",
            { class: "seat-chip open" },
            playerBadge(seat.player),
            " ",
            t("free_seat"),
            h("button", { class: "small join", "data-seat": seat.player, onclick: () => this.join(game.id, seat.player) }, t("join")),
          )
        : this.seatChip(game, seat),
    );
    const me = mine[game.id] ? mine[game.id].player : null;
    const actions = [];
    if (mine[game.id] && !game.is_over) actions.push(h("a", { class: "button", href: link }, t("resume")));
    if (game.is_over) actions.push(h("a", { class: "button", href: `#/replay/${encodeURIComponent(game.id)}` }, t("replay")));
    actions.push(h("a", { class: "button watch", href: `${link}?spectate=1` }, t("watch")));
    return h(
      "li",
      { class: "game-entry", "data-id": game.id, "data-status": game.status, "data-pace": game.pace },
      h("strong", {}, t(`game.${game.game}`, {}, game.title)),
      " ",
      h("span", { class: "muted" }, game.id),
      " ",
      h("span", { class: "tag" }, t("status." + game.status)),
      [" ", paceTag(game.pace)],
      game.is_over ? null : h("div", { class: "turn-info" }, turnLine({ seats: game.seats, toMove: game.to_move, turnSince: game.turn_since, me })),
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
