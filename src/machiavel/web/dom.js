// @ts-check
// Tiny DOM helpers. Text is always added as text nodes (never parsed as HTML), so names
// typed by players cannot inject markup. Pages draw a whole new tree and `patch()` it onto
// the live one (morphdom): what did not change stays, with its focus, caret, typed text,
// open <details> and scroll position.
import morphdomModule from "./vendor/morphdom.js";

/** @typedef {(event: any) => unknown} Handler */
/**
 * An element's attributes; `on<type>` entries are its handlers (their event is `any`: one
 * attribute object serves inputs, selects and buttons alike).
 * @typedef {{[handler: `on${string}`]: Handler | null | undefined | false} & Record<string, unknown>} Attrs
 */
/** @typedef {Node | string | number | boolean | null | undefined} Leaf */
/** @typedef {Leaf | Leaf[] | ChildList} Child  (nested lists are flattened) */
/** @typedef {Array<any>} ChildList */

/** @type {typeof import("morphdom").default} */
const morphdom = /** @type {any} */ (morphdomModule);

const SVG_NS = "http://www.w3.org/2000/svg";

// An element's handlers by event type. Listeners added with addEventListener cannot be read
// back nor moved, so h() adds one dispatcher per type that calls the element's current
// handler: patch() moves the new drawing's handlers onto the element it keeps.
/** @type {WeakMap<Element, Record<string, Handler>>} */
const handlers = new WeakMap();

/** @param {Event} event */
function dispatch(event) {
  const target = /** @type {Element} */ (event.currentTarget);
  const handler = handlers.get(target)?.[event.type];
  return handler ? handler.call(target, event) : undefined;
}

/** @param {Element} node @param {Record<string, Handler>} table */
function setHandlers(node, table) {
  handlers.set(node, table);
  for (const type of Object.keys(table)) node.addEventListener(type, dispatch); // once per type
}

/**
 * @template {Element} E
 * @param {E} node @param {Attrs | null | undefined} attrs @param {Child[]} children
 * @returns {E}
 */
function fill(node, attrs, children) {
  /** @type {Record<string, Handler>} */
  const table = {};
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      table[name.slice(2)] = /** @type {Handler} */ (value);
    } else if (name === "style" && typeof value === "object") {
      const style = /** @type {HTMLElement | SVGElement} */ (/** @type {unknown} */ (node)).style;
      for (const [prop, v] of Object.entries(value)) style.setProperty(prop, String(v));
    } else {
      node.setAttribute(name, value === true ? "" : String(value));
    }
  }
  setHandlers(node, table);
  append(node, children);
  return node;
}

/** @param {Element} node @param {Child[]} children */
function append(node, children) {
  for (const child of /** @type {unknown[]} */ (children.flat(Infinity))) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * An HTML element: h("button", {class: "x", onclick: f}, "text", otherNode).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Attrs | null} [attrs] @param {Child[]} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/**
 * An SVG element: s("rect", {x: 0, y: 0, width: 10, height: 10}).
 * @param {string} tag @param {Attrs | null} [attrs] @param {Child[]} children
 * @returns {SVGElement}
 */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/**
 * An <svg> scaling to its container's width (the viewBox keeps proportions).
 * @param {number} width @param {number} height @param {Attrs | null} [attrs] @param {Child[]} children
 */
export function svgRoot(width, height, attrs, ...children) {
  return s(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "xMidYMid meet", ...attrs },
    ...children,
  );
}

/**
 * A polygon's points for a regular shape of n corners around (cx, cy).
 * @param {number} cx @param {number} cy @param {number} r @param {number} n @param {number} [rotation]
 */
export function polygon(cx, cy, r, n, rotation = -Math.PI / 2) {
  const points = [];
  for (let i = 0; i < n; i++) {
    const a = rotation + (2 * Math.PI * i) / n;
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(" ");
}

/**
 * @template {Node} N
 * @param {N} node
 * @returns {N}
 */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// ---- patching ----------------------------------------------------------------------------

// Fields whose text a person types (not checkboxes, ranges or buttons).
const TYPED = 'input:not([type]), input[type="text"], input[type="password"], input[type="email"], input[type="search"], textarea';

// A drawing's element -> the live element patch() kept in its place (see live()).
/** @type {WeakMap<Element, Element>} */
const keptFor = new WeakMap();

// A stand-in for a node a component keeps and updates itself (see owned()).
/** @type {WeakMap<Element, Element>} */
const ownedBy = new WeakMap();

/**
 * The element now in the page that stands for `node`, an element of a drawing: itself if
 * patch() added it, else the live element patch() updated in its place. A handler that
 * reads a field it was drawn with (a form's inputs) reads `live(field).value`.
 * @template {Element} E
 * @param {E} node
 * @returns {E}
 */
export function live(node) {
  return /** @type {E} */ (keptFor.get(node) ?? node);
}

/**
 * A stand-in for `node`, an element a component builds once and keeps up to date itself
 * (the chat: its list, box and focus are its own): patch() leaves the live one alone, or
 * puts it where the stand-in is. `node` needs an id.
 * @param {HTMLElement} node
 * @returns {HTMLElement}
 */
export function owned(node) {
  const standIn = document.createElement(node.tagName.toLowerCase());
  standIn.id = node.id;
  ownedBy.set(standIn, node);
  return standIn;
}

/**
 * A place in a page for a part that comes and goes (a panel, a prompt): always there, with
 * an id, and no box of its own (CSS .slot: display contents). morphdom matches siblings in
 * order and moves a kept element when something new appears before it, and moving an
 * element takes the focus out of it: a page whose parts sit in fixed slots keeps its
 * elements in place, so the name box or the chat keeps the focus when a panel appears.
 * @param {string} name @param {Child[]} content
 */
export function slot(name, ...content) {
  return h("div", { id: `slot-${name}`, class: "slot" }, content);
}

/**
 * Which element of the live tree a drawing's element is matched with: by id, else by a
 * board target's data-key when only one element of the page has it (keys repeated on a page
 * would mix things up; those elements are matched by position).
 * @param {Set<string>} uniqueKeys
 * @returns {(node: Node) => string | undefined}
 */
function keyOf(uniqueKeys) {
  return (node) => {
    if (!(node instanceof Element)) return undefined;
    if (node.id) return node.id;
    const key = node.getAttribute("data-key");
    return key !== null && uniqueKeys.has(key) ? `data-key:${key}` : undefined;
  };
}

/**
 * The board keys found at most once in each tree.
 * @param {Element[]} roots
 */
function keysOnce(...roots) {
  /** @type {Set<string>} */
  const seen = new Set();
  /** @type {Set<string>} */
  const repeated = new Set();
  for (const root of roots) {
    /** @type {Set<string>} */
    const here = new Set();
    for (const node of root.querySelectorAll("[data-key]")) {
      const key = /** @type {string} */ (node.getAttribute("data-key"));
      if (here.has(key)) repeated.add(key);
      here.add(key);
      seen.add(key);
    }
  }
  return new Set([...seen].filter((key) => !repeated.has(key)));
}

/**
 * What the person did to a kept element that the drawing does not know: an open or closed
 * <details>, text typed in a field. The drawing gets it so that the patch keeps it.
 * @param {Element} from @param {Element} to
 */
function keepPersonsState(from, to) {
  if (from instanceof HTMLDetailsElement && to instanceof HTMLDetailsElement) to.open = from.open;
  if ((from instanceof HTMLInputElement || from instanceof HTMLTextAreaElement) && from.matches(TYPED)) {
    const field = /** @type {HTMLInputElement | HTMLTextAreaElement} */ (to);
    // Typed since it was drawn: the person's text wins over the drawing's.
    if (from.value !== from.defaultValue && from.type === field.type) field.value = from.value;
  }
}

/**
 * Inline styles through the CSSOM, never as an attribute: the page's Content-Security-Policy
 * (style-src 'self', no 'unsafe-inline') refuses a `style` attribute that morphdom would
 * copy with setAttribute, but not `element.style`. Once the kept element's style reads the
 * same as the drawing's, morphdom has no attribute left to copy.
 * @param {Element} from
 * @param {Element} to
 */
function keepStyleUnderPolicy(from, to) {
  if (!(from instanceof HTMLElement || from instanceof SVGElement)) return;
  if (!(to instanceof HTMLElement || to instanceof SVGElement)) return;
  if (from.getAttribute("style") === to.getAttribute("style")) return;
  from.style.cssText = to.style.cssText;
  if (!to.hasAttribute("style")) from.removeAttribute("style");
}

/**
 * Make `root`'s children those of `drawing` (a new element, or a list of them), changing
 * only what differs: kept elements keep focus, caret, typed text, open <details> and
 * scroll positions; handlers come from the drawing.
 * @param {Element} root @param {Child} drawing
 */
export function patch(root, drawing) {
  const next = /** @type {Element} */ (root.cloneNode(false));
  append(next, [drawing]);
  const uniqueKeys = keysOnce(root, next);
  morphdom(root, next, {
    childrenOnly: true,
    getNodeKey: keyOf(uniqueKeys),
    onBeforeElUpdated(from, to) {
      const own = ownedBy.get(to);
      if (own) return from === own ? false : true; // the component's node updates itself
      keepPersonsState(from, to);
      keepStyleUnderPolicy(from, to);
      handlers.delete(from);
      setHandlers(from, handlers.get(to) ?? {});
      keptFor.set(to, from);
      return true;
    },
    onBeforeNodeAdded(node) {
      return (node instanceof Element && ownedBy.get(node)) || node;
    },
  });
  // A stand-in inside a newly added part of the page: the owned node takes its place.
  for (const standIn of root.querySelectorAll("[id]")) {
    const own = ownedBy.get(standIn);
    if (own) standIn.replaceWith(own);
  }
}
