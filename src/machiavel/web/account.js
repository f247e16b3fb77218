// Accounts: who is signed in (GET /api/session), the sign-up / sign-in / sign-out forms, and
// "my games" (GET /api/me/games). The session is an HttpOnly cookie the page never sees:
// it only asks the server who it is.
import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

let current; // undefined: not asked yet; null: signed out; {name, email, notify}

/** The signed-in account, or null (asks the server once per page load, then on change). */
export async function me(refresh = false) {
  if (current === undefined || refresh) {
    const { status, data } = await api("GET", "/api/session"); // 200 even signed out
    current = status === 200 ? data.account : null;
  }
  return current;
}

export function signedIn() {
  return current || null;
}

export async function signOut() {
  await api("DELETE", "/api/session");
  current = null;
}

export async function myGames() {
  const { status, data } = await api("GET", "/api/me/games");
  return status === 200 ? data.games : [];
}

/**
 * The account panel: signed out, a form to sign in or sign up (name, password, e-mail for
 * sign-up); signed in, the name and a sign-out button. ``onChange(account)`` is called
 * after each change. ``intro`` is a sentence shown above the form (the game page's offer).
 */
export function accountPanel(onChange, { intro = null, id = "account" } = {}) {
  const box = h("section", { class: "panel account", id, "data-signed-in": current ? "yes" : "no" });
  if (current) {
    box.append(
      h("span", { class: "signed-in" }, t("signed_in_as"), " ", h("strong", { "data-account": current.name }, current.name), " ", h("a", { href: "#/players/" + encodeURIComponent(current.name), id: "my-profile", class: "small" }, t("my_profile"))),
      " ",
      h("button", { class: "small", id: "sign-out", onclick: async () => { await signOut(); onChange(null); } }, t("sign_out")),
    );
    return box;
  }
  const error = h("p", { class: "error account-error", role: "alert" });
  const name = h("input", { id: `${id}-name`, name: "username", autocomplete: "username", maxlength: 24, required: true });
  const password = h("input", { id: `${id}-password`, type: "password", autocomplete: "current-password", maxlength: 200, required: true });
  const email = h("input", { id: `${id}-email`, type: "email", autocomplete: "email", maxlength: 254 });
  const send = async (path, body, expected) => {
    error.textContent = "";
    const { status, data } = await api("POST", path, body);
    if (status !== expected) {
      error.textContent = data.detail || t("error");
      return;
    }
    await me(true);
    onChange(current);
  };
  const signIn = () => send("/api/session", { name: name.value.trim(), password: password.value }, 200);
  const signUp = () => {
    const body = { name: name.value.trim(), password: password.value };
    if (email.value.trim()) body.email = email.value.trim();
    return send("/api/accounts", body, 201);
  };
  box.append(
    intro ? h("p", { class: "account-intro" }, intro) : null,
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
