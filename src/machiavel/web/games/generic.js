// A game without a board module yet: its view as data, its actions as buttons.
import { h } from "../dom.js";

export default {
  keys: (action) => ({ keys: ["action:" + action] }),
  label: (key) => key.slice("action:".length),
  render: (ctx) => h("pre", { class: "generic-view" }, JSON.stringify(ctx.view, null, 1)),
};
