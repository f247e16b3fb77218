// @ts-check
// Accounts: who is signed in (GET /api/session), the sign-up / sign-in / sign-out forms, and
// "my games" (GET /api/me/games). The session is an HttpOnly cookie the page never sees:
// it only asks the server who it is.
import { api } from "./api.js";
import { h, live } from "./dom.js";
import { t } from "./i18n.js";
import { soundOn, setSound, browserNotificationsOn, setBrowserNotifications } from "./notify.js";

/** @typedef {{name: string, email?: string | null, notify?: boolean}} Account */
/** @type {Account | null | undefined} */
let current; // undefined: not asked yet; null: signed out
/** @type {Promise<void> | null} */
let asking = null; // the request under way, shared by callers

/** The signed-in account, or null (asks the server once per page load, then on change).
 * Each change is announced as the window event "machiavel:account" (notify.js listens). */
export async function me(refresh = false) {
  if (current === undefined || refresh) {
    if (!asking || refresh) {
      asking = api("GET", "/api/session").then(({ status, data }) => {
        setCurrent(status === 200 ? data.account : null); // 200 even signed out
      });
    }
    await asking;
  }
  return current;
}

/** @param {Account | null} account */
function setCurrent(account) {
  const changed = JSON.stringify(account) !== JSON.stringify(current);
  current = account;
  if (changed) window.dispatchEvent(new CustomEvent("machiavel:account", { detail: account }));
}

export function signedIn() {
  return current || null;
}

export async function signOut() {
  await api("DELETE", "/api/session");
  setCurrent(null);
}

export async function myGames() {
  const { status, data } = await api("GET", "/api/me/games");
  if (status !== 200) return [];
  window.dispatchEvent(new CustomEvent("machiavel:my-games", { detail: data.games })); // the tab title
  return data.games;
}

/**
 * The account panel: signed out, a form to sign in or sign up (name, password, e-mail for
 * sign-up); signed in, the name and a sign-out button. ``onChange(account)`` is called
 * after each change. ``intro`` is a sentence shown above the form (the game page's offer).
 * @param {(account: Account | null) => unknown} onChange
 * @param {{intro?: string | null, id?: string}} [options]
 */
export function accountPanel(onChange, { intro = null, id = "account" } = {}) {
  const box = h("section", { class: "panel account", id, "data-signed-in": current ? "yes" : "no" });
  if (current) {
    box.append(
      h("span", { class: "signed-in" }, t("signed_in_as"), " ", h("strong", { "data-account": current.name }, current.name), " ", h("a", { href: "#/players/" + encodeURIComponent(current.name), id: "my-profile", class: "small" }, t("my_profile"))),
      " ",
      h("button", { class: "small", id: "sign-out", onclick: async () => { await signOut(); onChange(null); } }, t("sign_out")),
      settingsPanel(id, current),
    );
    return box;
  }
  const error = h("p", { class: "error account-error", role: "alert" });
  const name = h("input", { id: `${id}-name`, name: "username", autocomplete: "username", maxlength: 24, required: true });
  const password = h("input", { id: `${id}-password`, type: "password", autocomplete: "current-password", maxlength: 200, required: true });
  const email = h("input", { id: `${id}-email`, type: "email", autocomplete: "email", maxlength: 254 });
  /** @param {string} path @param {Record<string, string>} body @param {number} expected */
  const send = async (path, body, expected) => {
    live(error).textContent = "";
    const { status, data } = await api("POST", path, body);
    if (status !== expected) {
      live(error).textContent = data.detail || t("error");
      return;
    }
    await me(true);
    onChange(current ?? null);
  };
  // The page may have been patched since this was drawn: the fields read are the live ones.
  const signIn = () => send("/api/session", { name: live(name).value.trim(), password: live(password).value }, 200);
  const signUp = () => {
    /** @type {Record<string, string>} */
    const body = { name: live(name).value.trim(), password: live(password).value };
    if (live(email).value.trim()) body.email = live(email).value.trim();
    return send("/api/accounts", body, 201);
  };
  box.append(
    ...(intro ? [h("p", { class: "account-intro" }, intro)] : []), // append() would write "null"
    h(
      "form",
      { class: "account-form", onsubmit: (e) => { e.preventDefault(); signIn(); } },
      h("label", {}, t("account_name"), " ", name),
      " ",
      h("label", {}, t("password"), " ", password),
      " ",
      h("button", { type: "submit", id: `${id}-sign-in` }, t("sign_in")),
      h(
        "details",
        { class: "sign-up" },
        h("summary", {}, t("no_account")),
        h("p", { class: "muted" }, t("sign_up_rules")),
        h("label", {}, t("email_optional"), " ", email),
        " ",
        h("button", { type: "button", id: `${id}-sign-up`, onclick: signUp }, t("sign_up")),
      ),
    ),
    error,
  );
  return box;
}

/**
 * The signed-in account's settings (PATCH /api/me): the e-mail address (changed or
 * removed), e-mails when it is your turn (`notify`), the password (the current one and a
 * new one); and this browser's own choices (notify.js): a sound, browser notifications.
 * The server's sentence is shown when it refuses a change.
 */
/** @param {string} id @param {Account} account the signed-in account */
function settingsPanel(id, account) {
  const message = h("p", { class: "settings-message", id: `${id}-settings-message`, role: "status" });
  const error = h("p", { class: "error account-error", id: `${id}-settings-error`, role: "alert" });
  const say = (/** @type {string} */ text, isError = false) => {
    live(message).textContent = isError ? "" : text;
    live(error).textContent = isError ? text : "";
  };
  const email = h("input", { id: `${id}-new-email`, type: "email", autocomplete: "email", maxlength: 254, value: account.email || "" });
  const notify = h("input", {
    type: "checkbox",
    id: `${id}-notify`,
    checked: !!account.notify,
    onchange: (e) => change({ notify: e.target.checked }, t(e.target.checked ? "notify_on" : "notify_off")),
  });
  const oldPassword = h("input", { id: `${id}-old-password`, type: "password", autocomplete: "current-password", maxlength: 200, required: true });
  const newPassword = h("input", { id: `${id}-new-password`, type: "password", autocomplete: "new-password", maxlength: 200, required: true });
  const removeEmail = h(
    "button",
    { type: "button", class: "small", id: `${id}-remove-email`, hidden: !account.email, onclick: () => change({ email: null }, t("email_removed")) },
    t("remove_email"),
  );
  /** @param {Record<string, unknown>} body @param {string} done */
  const change = async (body, done) => {
    say("");
    const { status, data } = await api("PATCH", "/api/me", body);
    if (status !== 200) {
      say(data.detail || t("error"), true);
      return false;
    }
    setCurrent(/** @type {Account} */ (data));
    live(email).value = data.email || "";
    live(notify).checked = !!data.notify;
    live(removeEmail).hidden = !data.email;
    say(done);
    return true;
  };
  const sound = h("input", { type: "checkbox", id: `${id}-sound`, checked: soundOn(), onchange: (e) => setSound(e.target.checked) });
  const browser = h("input", {
    type: "checkbox",
    id: `${id}-browser-notify`,
    checked: browserNotificationsOn(),
    onchange: async (e) => {
      say("");
      const refused = await setBrowserNotifications(e.target.checked); // asks permission now, on this click
      if (refused) {
        e.target.checked = false;
        say(refused, true);
      }
    },
  });
  return h(
    "details",
    { class: "account-settings", id: `${id}-settings` },
    h("summary", {}, t("settings")),
    h(
      "form",
      { class: "settings-row", id: `${id}-email-form`, onsubmit: (e) => { e.preventDefault(); const typed = live(email).value.trim(); change({ email: typed || null }, t(typed ? "email_saved" : "email_removed")); } },
      h("label", {}, t("email"), " ", email),
      " ",
      h("button", { type: "submit", class: "small", id: `${id}-save-email` }, t("save")),
      " ",
      removeEmail,
    ),
    h("p", { class: "settings-row" }, h("label", {}, notify, " ", t("notify_by_email")), h("span", { class: "muted small-text" }, " ", t("notify_by_email_note"))),
    h(
      "form",
      {
        class: "settings-row",
        id: `${id}-password-form`,
        onsubmit: async (e) => {
          e.preventDefault();
          const done = await change({ old_password: live(oldPassword).value, password: live(newPassword).value }, t("password_changed"));
          if (done) live(oldPassword).value = live(newPassword).value = "";
        },
      },
      h("input", { type: "text", autocomplete: "username", value: account.name, hidden: true, readonly: true }),
      h("label", {}, t("current_password"), " ", oldPassword),
      " ",
      h("label", {}, t("new_password"), " ", newPassword),
      " ",
      h("button", { type: "submit", class: "small", id: `${id}-change-password` }, t("change_password")),
    ),
    h(
      "fieldset",
      { class: "settings-row" },
      h("legend", {}, t("on_this_device")),
      h("label", { class: "option" }, sound, " ", t("sound_on_turn")),
      h("label", { class: "option" }, browser, " ", t("browser_notify")),
    ),
    message,
    error,
  );
}
