// Building the page: every value from the server is written with textContent, never as HTML.

export const $ = (id) => document.getElementById(id);

/** An element with properties (`text`, `class`, DOM properties, else attributes) and children (nullish ones skipped). */
export function el(tag, props, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k === 'text') e.textContent = v;
    else if (k === 'class') e.className = v;
    else if (k in e && k !== 'for') e[k] = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

/** A term and its value, for a <dl>. */
export function pair(term, value, cls) {
  return el('div', {}, el('dt', { text: term }), el('dd', { text: value, class: cls || '' }));
}
