// The list of suspended runs: read from the top, or continued by the listing's cursor, with its
// summary and its Load more control.

import { agentPath, getJson } from './api.js';
import { runCard } from './cards.js';
import { $, el } from './dom.js';
import { filters } from './filters.js';
import { setStatus, showError } from './status.js';
import { setServerTime } from './time.js';

const list = {
  runs: [],           // the runs shown, in listing order
  loads: 1,           // how many loads of perPage runs are shown: a refresh reads as many again
  nextCursor: null,   // where "Load more" continues
  total: 0,
  loading: 0,
};

// "Load N more runs": in the page only while runs are left to load (never "Load 0 more runs")
const moreButton = el('button', { type: 'button', id: 'load-more' });
moreButton.addEventListener('click', () => loadMore());

/** After the filters changed: the next read starts over with one load. */
export function resetPaging() {
  list.loads = 1;
  list.nextCursor = null;
}

export function clearRuns() {
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
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters.query)) if (v) q.set(k, v);
  if (more && list.nextCursor) {
    q.set('perPage', String(filters.perPage));
    q.set('cursor', list.nextCursor);
  } else {
    q.set('perPage', String(Math.min(200, filters.perPage * list.loads)));
  }
  list.loading++;
  document.body.setAttribute('aria-busy', 'true');
  try {
    const page = await getJson(agentPath(filters.agent) + '/suspended-runs?' + q.toString());
    setServerTime(page.asOf);
    list.total = page.total;
    list.nextCursor = page.nextCursor;
    if (more) {
      list.loads++;
      list.runs = list.runs.concat(page.runs);
      $('run-list').append(...page.runs.map(runCard));
    } else {
      list.runs = page.runs;
      $('run-list').replaceChildren(...page.runs.map(runCard));
    }
    renderSummary();
    setStatus('Updated ' + new Date().toLocaleTimeString() + '.', false);
  } catch (e) {
    showError(e);
  } finally {
    list.loading--;
    if (list.loading === 0) document.body.removeAttribute('aria-busy');
  }
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
