// The list of suspended runs: read from the top, or continued by the listing's cursor, with its
// summary and its Load more control.

import { agentPath, getJson, getJsonIfChanged } from './api.js';
import { runCard } from './cards.js';
import { $, el } from './dom.js';
import { filters } from './filters.js';
import { setStatus, showError } from './status.js';
import { expiry, setServerTime } from './time.js';

const list = {
  runs: [],           // the runs shown, in listing order
  loads: 1,           // how many loads of perPage runs are shown: a refresh reads as many again
  nextCursor: null,   // where "Load more" continues
  total: 0,
  loading: 0,
  etag: null,         // the ETag of the first loads (what a refresh reads): the live poll sends it back
  page: null,         // that listing, to redraw expiry badges when the poll finds nothing changed
  reads: 0,           // one more per read: a poll answered after a newer read is dropped
  cards: new Map(),   // runId -> { key, node }: a card drawn again only when its run (or its expiry text) changed
};

// "Load N more runs": in the page only while runs are left to load (never "Load 0 more runs")
const moreButton = el('button', { type: 'button', id: 'load-more' });
moreButton.addEventListener('click', () => loadMore());

/** After the filters changed: the next read starts over with one load. */
export function resetPaging() {
  list.loads = 1;
  list.etag = null;
  list.nextCursor = null;
}

export function clearRuns() {
  list.page = null;
  list.etag = null;
  list.cards = new Map();
  $('run-list').replaceChildren();
  $('more').replaceChildren();
}

/**
 * Reads the list. Without `more`: from the start, as many runs as are shown (so a refresh after an
 * action keeps what was loaded). With `more`: the next perPage runs after the last one shown, by the
 * listing's cursor, which skips or repeats no run while others come and go.
 */
export async function loadRuns(more) {
  if (!filters.agent) {
    setStatus('No agents are served here.', true);
    return;
  }
  const read = ++list.reads;
  list.loading++;
  document.body.setAttribute('aria-busy', 'true');
  try {
    if (more && list.nextCursor) {
      const page = await getJson(listingPath(true));
      list.loads++;
      list.etag = null;   // the first loads are one more now: the next poll reads them all
      show(page, true);
    } else {
      const got = await getJsonIfChanged(listingPath(false), null);
      if (read === list.reads) {
        list.etag = got.etag;
        show(got.body, false);
      }
    }
    setStatus('Updated ' + new Date().toLocaleTimeString() + '.', false);
  } catch (e) {
    showError(e);
  } finally {
    list.loading--;
    if (list.loading === 0) document.body.removeAttribute('aria-busy');
  }
}

/**
 * The live poll (live.js): reads the first loads again with If-None-Match; a 304 (nothing changed)
 * only redraws expiry badges that changed, a new page replaces the list. Skipped while a read runs.
 */
export async function pollRuns() {
  if (!filters.agent || list.loading > 0 || !list.page) return;
  const read = ++list.reads;
  const got = await getJsonIfChanged(listingPath(false), list.etag);
  if (read !== list.reads || list.loading > 0) return;   // a newer read answers instead
  if (got === null) {
    show(list.page, false, false);   // the same page, redrawn for the time that passed
    return;
  }
  list.etag = got.etag;
  show(got.body, false);
}

/** The listing's address: the first `loads` pages at once, or (more) the next page by the cursor. */
function listingPath(more) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters.query)) if (v) q.set(k, v);
  if (more && list.nextCursor) {
    q.set('perPage', String(filters.perPage));
    q.set('cursor', list.nextCursor);
  } else {
    q.set('perPage', String(Math.min(200, filters.perPage * list.loads)));
  }
  return agentPath(filters.agent) + '/suspended-runs?' + q.toString();
}

/** Shows a page; fresh: just read from the server, so its asOf is the server's time now. */
function show(page, more, fresh = true) {
  if (fresh) setServerTime(page.asOf);
  list.total = page.total;
  list.nextCursor = page.nextCursor;
  list.runs = more ? list.runs.concat(page.runs) : page.runs;
  if (!more) list.page = page;
  const cards = new Map();
  const refocus = [];
  const nodes = list.runs.map((run) => {
    const key = JSON.stringify(run) + expiryText(run);
    const had = list.cards.get(run.runId);
    if (had && had.key === key) {
      cards.set(run.runId, had);
      return had.node;
    }
    const node = runCard(run);
    if (had) refocus.push(carryOver(had.node, node));
    cards.set(run.runId, { key, node });
    return node;
  });
  list.cards = cards;
  placeCards($('run-list'), nodes);
  for (const f of refocus) if (f) f();
  renderSummary();
}

/**
 * A card redrawn because its run changed (say its expiry text turned a minute) keeps what the person
 * was doing in it, when the card still has the same shape: what they typed, an open confirmation or
 * editor, and the focus with its selection. Returns the focus to restore once the card is in the
 * page (or null). A card whose shape changed (a call was decided, a deadline appeared) starts afresh.
 */
function carryOver(old, fresh) {
  const a = old.querySelectorAll('*');
  const b = fresh.querySelectorAll('*');
  if (a.length !== b.length) return null;
  for (let i = 0; i < a.length; i++) {
    if (a[i].tagName !== b[i].tagName || a[i].className !== b[i].className) return null;
  }
  let focus = null;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if ('value' in x && (x.tagName === 'INPUT' || x.tagName === 'TEXTAREA' || x.tagName === 'SELECT') && x.value !== y.value) {
      y.value = x.value;
      y.dispatchEvent(new Event('input'));   // a control that follows its field (the edit's check) sees it
    }
    if (x.hidden !== y.hidden) y.hidden = x.hidden;
    if (x.tagName === 'DETAILS') y.open = x.open;
    if (x.hasAttribute('aria-expanded')) y.setAttribute('aria-expanded', x.getAttribute('aria-expanded'));
    if (x === document.activeElement) focus = { y, start: x.selectionStart, end: x.selectionEnd };
  }
  if (!focus) return null;
  return () => {
    focus.y.focus();
    if (typeof focus.start === 'number' && typeof focus.y.setSelectionRange === 'function') {
      focus.y.setSelectionRange(focus.start, focus.end);
    }
  };
}

/**
 * Puts the cards in the list touching only those that changed: a card that stays where it is is
 * never moved (moving a node out of the document and back drops the keyboard focus, so a person in
 * the middle of a card, say in its discard confirmation, would lose their place whenever another
 * card changed, for example when its expiry text turned a minute).
 */
function placeCards(ul, nodes) {
  const keep = new Set(nodes);
  for (const child of [...ul.children]) if (!keep.has(child)) child.remove();
  nodes.forEach((n, i) => {
    if (ul.children[i] !== n) ul.insertBefore(n, ul.children[i] || null);
  });
}

/** The expiry texts a card shows (they change with time alone, not with the listing). */
function expiryText(run) {
  return [run.expiresAt, ...run.toolCalls.map((c) => c.expiresAt)].filter(Boolean).map(expiry).join('|');
}

/** Load more, keeping the keyboard where the reader is: on the first of the new runs. */
async function loadMore() {
  const before = list.runs.length;
  await loadRuns(true);
  const first = $('run-list').children[before];
  const heading = first && first.querySelector('h3');
  if (heading) { heading.tabIndex = -1; heading.focus(); }
}

function renderSummary() {
  const shown = list.runs.length;
  const total = list.total;
  $('summary').textContent = total === 0 ? 'No suspended runs match.'
    : (shown === 0 ? 'No runs shown; ' : 'Runs 1–' + shown + ' of ') + total + (total === 1 ? ' waiting run' : ' waiting runs') + '.';
  // a full last page has a cursor too: the control needs a cursor and runs left by the total
  const left = Math.min(filters.perPage, total - shown);
  if (list.nextCursor && left > 0) {
    moreButton.textContent = 'Load ' + left + ' more runs';
    if (!moreButton.isConnected) $('more').replaceChildren(moreButton);
  } else {
    $('more').replaceChildren();
  }
  $('run-list').dataset.total = String(total);
}
