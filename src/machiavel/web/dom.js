// Tiny DOM helpers. Text is always added as text nodes (never parsed as HTML), so names
// typed by players cannot inject markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else if (name === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, v);
    } else {
      node.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: h("button", {class: "x", onclick: f}, "text", otherNode). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element: s("rect", {x: 0, y: 0, width: 10, height: 10}). */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** An <svg> scaling to its container's width (the viewBox keeps proportions). */
export function svgRoot(width, height, attrs, ...children) {
  return s(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "xMidYMid meet", ...attrs },
    ...children,
  );
}

/** A polygon's points for a regular shape of n corners around (cx, cy). */
export function polygon(cx, cy, r, n, rotation = -Math.PI / 2) {
  const points = [];
  for (let i = 0; i < n; i++) {
    const a = rotation + (2 * Math.PI * i) / n;
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(" ");
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// Fields whose text a person types (not checkboxes, ranges or buttons).
const TYPED = 'input[id]:not([type]), input[id][type="text"], input[id][type="password"], input[id][type="email"], input[id][type="search"], textarea[id]';

/**
 * Redraw `root` with `rebuild()` without losing what the person is typing: a field (by its
 * id) whose text differs from the text it was drawn with gets that text back, and the field
 * that had the focus gets it back with its caret. Pages redraw on every push; without this
 * a push arriving while someone types would wipe their words.
 */
export function redrawKeepingTyping(root, rebuild) {
  const typed = new Map();
  for (const field of root.querySelectorAll(TYPED)) {
    if (field.value !== field.defaultValue) typed.set(field.id, field.value);
  }
  const active = document.activeElement;
  const focused = active && root.contains(active) && active.matches(TYPED) ? active : null;
  const caret = focused ? [focused.selectionStart, focused.selectionEnd, focused.selectionDirection] : null;
  rebuild();
  for (const [id, value] of typed) {
    const field = document.getElementById(id);
    if (field && root.contains(field) && field.matches(TYPED) && field.value !== value) field.value = value;
  }
  if (!focused) return;
  const field = document.getElementById(focused.id);
  if (!field || !root.contains(field) || document.activeElement === field) return;
  field.focus({ preventScroll: true });
  try {
    field.setSelectionRange(...caret);
  } catch {
    // a field without a caret (email): focus is enough
  }
}
