// The board module of each game. A module exports (see docs/web.md):
//   keys(action, view) -> {keys: [...], unordered?: bool}   one key per click
//   label(key, ctx) -> text or Node                           a key on a button
//   render(ctx) -> Node                                        the board (SVG and panels)
//   optional: describe(action, ctx), hint(view, legal), merge(replay), endDetails(ctx)
import tyrus from "./tyrus.js";
import djambi from "./djambi.js";
import guildes from "./guildes.js";
import tyros from "./tyros.js";
import generic from "./generic.js";

const BOARDS = { tyrus, djambi, guildes, tyros };

export function boardOf(gameId) {
  return BOARDS[gameId] || generic;
}
