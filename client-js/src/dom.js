// A tiny renderer: build the whole screen with h(), then morph() the live DOM into it in place.
// Updating in place (instead of replacing everything) keeps the keyboard focus, an open <select>,
// what the player is typing, and lets CSS transitions run (a selected card slides up).

/** Create an element: attributes, `on*` handlers (as properties, so morph can move them), children. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el[k.toLowerCase()] = v;
    else if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false || c === "") continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const HANDLERS = ["onclick", "onchange", "oninput", "onsubmit", "onkeydown", "ontoggle", "onscroll"];

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.nodeType !== 1) return true;
  return a.getAttribute("data-key") === b.getAttribute("data-key") && a.type === b.type;
}

/** Make the live node `from` look like `to`; returns the node now in the document. */
export function morph(from, to) {
  if (!sameKind(from, to)) {
    from.replaceWith(to);
    return to;
  }
  if (from.nodeType === 3 || from.nodeType === 8) {
    if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
    return from;
  }
  // a subtree marked data-static (a long document) is the same as long as its key is: no walk through it
  if (to.dataset.static !== undefined && from.dataset.static === to.dataset.static) return from;
  for (const a of [...from.attributes]) {
    if (!to.hasAttribute(a.name) && !(a.name === "open" && from.tagName === "DETAILS")) from.removeAttribute(a.name);
  }
  for (const a of to.attributes) {
    if (from.getAttribute(a.name) !== a.value) from.setAttribute(a.name, a.value);
  }
  for (const name of HANDLERS) if (from[name] !== to[name]) from[name] = to[name];
  morphChildren(from, to);
  const focused = from === document.activeElement;
  if (from.tagName === "INPUT") {
    if (from.type === "checkbox" || from.type === "radio") from.checked = to.checked;
    else if (!focused && from.value !== to.value) from.value = to.value;
  } else if (from.tagName === "SELECT" && !focused && from.value !== to.value) {
    from.value = to.value;
  }
  return from;
}

/** The same kind of node in the same role: its classes and test id too (an unkeyed node's best match). */
function alike(a, b) {
  return sameKind(a, b) && (a.nodeType !== 1
    || (a.className === b.className && a.getAttribute("data-testid") === b.getAttribute("data-testid")));
}

function keyOf(node) {
  return node.nodeType === 1 ? node.getAttribute("data-key") : null;
}

/**
 * Morph child by child. A keyed child keeps its element when others come or go before it: an open
 * drawer keeps where the player scrolled as the deal's result appears over the table, and the cards
 * after a played one stay the same elements.
 */
export function morphChildren(from, to) {
  const next = [...to.childNodes];
  const wanted = new Set(next.map(keyOf).filter(Boolean));
  next.forEach((child, i) => {
    let current = from.childNodes[i];
    if (current && !sameKind(current, child)) {
      const kept = keyOf(child) && [...from.childNodes].slice(i + 1).find((n) => sameKind(n, child));
      if (kept) {
        // drop what went away before it (a keyed node still wanted is not dropped: a reordering)
        while (from.childNodes[i] !== kept && !wanted.has(keyOf(from.childNodes[i]))) from.childNodes[i].remove();
        current = from.childNodes[i];
      } else if (wanted.has(keyOf(current))) {
        from.insertBefore(child, current); // something new comes before a keyed node still wanted
        return;
      }
    }
    if (current && !keyOf(current) && !keyOf(child) && !alike(current, child)) {
      // one node came or went before the rest (the connection's banner, a message over the lobby): the
      // rest keep their elements, instead of each being rebuilt from the next one's (a lobby rebuilt as
      // the connection came up lost the nickname being typed, and a click on Create)
      const after = current.nextSibling;
      if (after && !keyOf(after) && alike(after, child)) {
        current.remove();
        current = after;
      } else if (next[i + 1] && alike(current, next[i + 1])) {
        from.insertBefore(child, current);
        return;
      }
    }
    if (current) morph(current, child);
    else from.appendChild(child);
  });
  while (from.childNodes.length > next.length) from.lastChild.remove();
}
