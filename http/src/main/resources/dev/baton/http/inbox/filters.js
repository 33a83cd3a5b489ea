// The filter form: which agent, which runs, how many per load.

import { $ } from './dom.js';

/** What the list shows; read by the list and by actions (the agent of the runs shown). */
export const filters = {
  agent: null,
  perPage: 10,
  query: {},   // threadId, resourceId, fromDate, toDate, waitingFor ('me'): the listing's filters (empty ones are left out)
};

/** Fills the agent choice; the first agent is chosen. */
export function showAgents(agents) {
  $('agent').replaceChildren(...agents.map((a) => {
    const o = document.createElement('option');
    o.value = a.id;
    o.textContent = a.id;
    return o;
  }));
  filters.agent = agents.length ? agents[0].id : null;
}

/**
 * Wires the form: onApply() after the filters changed (submit, or a new agent or page size),
 * onRefresh() for the Refresh button.
 */
export function initFilters({ onApply, onRefresh }) {
  $('filters').addEventListener('submit', (ev) => {
    ev.preventDefault();
    filters.agent = $('agent').value;
    filters.perPage = Number($('per-page').value);
    filters.query = {
      threadId: $('thread').value.trim(),
      resourceId: $('resource').value.trim(),
      fromDate: $('from').value,
      toDate: $('to').value,
      waitingFor: $('waiting-for-me').checked ? 'me' : '',
    };
    onApply();
  });
  $('agent').addEventListener('change', () => $('filters').requestSubmit());
  $('per-page').addEventListener('change', () => $('filters').requestSubmit());
  $('waiting-for-me').addEventListener('change', () => $('filters').requestSubmit());
  $('clear').addEventListener('click', () => {
    for (const id of ['thread', 'resource', 'from', 'to']) $(id).value = '';
    $('waiting-for-me').checked = false;
    $('filters').requestSubmit();
  });
  $('refresh').addEventListener('click', () => onRefresh());
}
