// @ts-check
// Invitations by account name: the host of a table reserves a seat never taken for an
// account (POST /api/games/{id}/seats/{n}/invite with "account"), which finds the game in
// its "your games" and opens the seat with its cookie alone, from any device.
import { h, live } from "./dom.js";
import { t } from "./i18n.js";

// What the host typed in each name box, by game and seat: the game page is redrawn on every
// push, which must not wipe a name being typed.
/** @type {Map<string, string>} */
const drafts = new Map();

/**
 * The host's form for a seat never taken of game ``gameId``: who it is kept for (if
 * anybody), a name box and "Invite"; "Withdraw" for a reserved seat. ``invite(name)`` asks
 * the server ("" withdraws) and resolves to true when it is done.
 * @param {string} gameId @param {import("./players.js").Seat} seat
 * @param {(name: string) => Promise<boolean>} invite
 */
export function accountInviteForm(gameId, seat, invite) {
  const key = `${gameId}/${seat.player}`;
  const box = h("input", {
    class: "invite-account",
    "data-player": seat.player,
    maxlength: 64,
    autocomplete: "off",
    placeholder: t("account_name_placeholder"),
    "aria-label": t("invite_account_label", { n: seat.player + 1 }),
    value: drafts.get(key) || "",
    oninput: (e) => drafts.set(key, e.target.value),
  });
  /** @param {string} name */
  const send = async (name) => {
    const typed = drafts.get(key);
    drafts.delete(key); // the page is redrawn once the server said yes: an empty box
    if (!(await invite(name)) && typed !== undefined) drafts.set(key, typed);
  };
  return h(
    "form",
    { class: "invite-by-account", "data-player": seat.player, onsubmit: (e) => { e.preventDefault(); const name = live(box).value.trim(); if (name) send(name); } },
    seat.reserved ? h("span", { class: "reserved-for" }, t("reserved_for", { name: seat.name })) : null,
    box,
    h("button", { type: "submit", class: "small invite-account-button" }, t("invite")),
    seat.reserved ? h("button", { type: "button", class: "small withdraw-invite", onclick: () => send("") }, t("withdraw_invite")) : null,
  );
}

/** A lobby create form's optional invitation of an account to a human seat. */
/** @param {number} player @param {string | null | undefined} value @param {boolean} hidden @param {(name: string) => void} onChange */
export function seatAccountField(player, value, hidden, onChange) {
  return h(
    "label",
    { class: "seat-account-label", hidden },
    t("invite_account"),
    " ",
    h("input", {
      class: "seat-account",
      "data-seat": player,
      value: value || "",
      maxlength: 64,
      autocomplete: "off",
      placeholder: t("account_name_placeholder"),
      oninput: (e) => onChange(e.target.value.trim()),
    }),
  );
}
