// History: the agent's decisions, newest first, as the server recorded them (who decided, when,
// what, why, and the digests of the call as shown and as it ran: they differ after an edit), filtered and continued by the cursor. Only
// the decisions on the caller's resources are listed (the server scopes them).

import { agentPath, ApiError, getJson } from './api.js';
import { $, el } from './dom.js';
import { filters } from './filters.js';
import { setStatus, showError } from './status.js';
import { when } from './time.js';

const PER_PAGE = 20;
const KINDS = {
  approve: 'approved', edit: 'approved with edits', decline: 'declined', resume: 'answered',
  cancel: 'cancelled', discard: 'discarded', continue: 'continued', expire: 'expired (policy)', escalate: 'escalated',
};

const state = { nextCursor: null, shown: 0, loading: false };

const moreButton = el('button', { type: 'button', id: 'history-more', text: 'Load more decisions' });
moreButton.addEventListener('click', () => loadHistory(true));

/** Wires the History filter form (Enter or Apply reads from the top). */
export function initHistory() {
  $('history-filters').addEventListener('submit', (ev) => {
    ev.preventDefault();
    loadHistory(false);
  });
  $('history-clear').addEventListener('click', () => {
    for (const id of ['history-actor', 'history-run', 'history-from', 'history-to']) $(id).value = '';
    loadHistory(false);
  });
}

function query() {
  const q = new URLSearchParams();
  const pick = { actor: 'history-actor', runId: 'history-run', from: 'history-from', to: 'history-to' };
  for (const [name, id] of Object.entries(pick)) if ($(id).value.trim()) q.set(name, $(id).value.trim());
  for (const name of ['threadId', 'resourceId']) if (filters.query[name]) q.set(name, filters.query[name]);
  q.set('perPage', String(PER_PAGE));
  return q;
}

/** Reads the decisions from the top, or (more) the next page after the last one shown. */
export async function loadHistory(more) {
  if (!filters.agent || state.loading) return;
  const q = query();
  if (more && state.nextCursor) q.set('cursor', state.nextCursor);
  state.loading = true;
  $('history').setAttribute('aria-busy', 'true');
  try {
    const page = await getJson(agentPath(filters.agent) + '/decisions?' + q.toString());
    const rows = page.decisions.map(row);
    if (more) $('history-list').append(...rows);
    else $('history-list').replaceChildren(...rows);
    state.shown = (more ? state.shown : 0) + rows.length;
    state.nextCursor = page.nextCursor;
    $('history-summary').textContent = state.shown === 0 ? 'No decisions match.'
      : state.shown + (state.shown === 1 ? ' decision' : ' decisions') + ' shown, newest first.';
    if (page.nextCursor) $('history-more-box').replaceChildren(moreButton);
    else $('history-more-box').replaceChildren();
    setStatus('History updated ' + new Date().toLocaleTimeString() + '.', false);
  } catch (e) {
    if (e instanceof ApiError && e.status === 501) {
      $('history-list').replaceChildren();
      $('history-summary').textContent = 'This server’s store keeps no decisions: there is no history to show.';
    } else {
      showError(e);
    }
  } finally {
    state.loading = false;
    $('history').removeAttribute('aria-busy');
  }
}

/** A digest, short enough to compare by eye (the full one is in the title). */
const short = (digest) => el('span', { class: 'mono digest', text: digest.replace(/^sha256:/, '').substring(0, 10), title: digest });

/** One decision as a row of the table. */
function row(d) {
  const what = KINDS[d.kind] || d.kind;
  const call = d.toolName ? d.toolName + (d.toolCallId ? ' (' + d.toolCallId + ')' : '') : 'the whole run';
  let digests = '–';
  if (d.argsDigestBefore && d.argsDigestAfter && d.argsDigestBefore !== d.argsDigestAfter) {
    digests = el('span', {}, el('span', { class: 'was' }, short(d.argsDigestBefore)), ' → ', el('span', { class: 'now' }, short(d.argsDigestAfter)));
  } else if (d.argsDigestBefore) {
    digests = short(d.argsDigestBefore);
  }
  const tr = el('tr', { class: 'decision kind-' + d.kind },
    el('td', { text: when(d.decidedAt) }),
    el('td', { class: 'actor', text: d.actor }),
    el('td', { class: 'kind', text: what }),
    el('td', { class: 'mono', text: call }),
    el('td', {}, el('span', { class: 'mono', text: d.runId.substring(0, 8) }), ' ' + [d.resourceId || '–', d.threadId || '–'].join(' · ')),
    el('td', { class: 'args' }, digests),
    el('td', { text: d.reason || '' }));
  tr.dataset.kind = d.kind;
  tr.dataset.actor = d.actor;
  tr.dataset.runId = d.runId;
  return tr;
}
