// The Baton inbox: plain JavaScript modules, no build step. This one wires the page; the others:
//   inbox/api.js       the API next to the page (relative URLs, Bearer token, never a cookie), problems, event streams
//   inbox/status.js    the status line, and what a rejected token does
//   inbox/filters.js   the filter form
//   inbox/runs.js      the list of suspended runs, Load more
//   inbox/live.js      the live list: a conditional poll (ETag, 304) while the tab is visible
//   inbox/cards.js     one run's card and its controls
//   inbox/edit.js      approving a call as proposed or edited, bound to the digest shown
//   inbox/history.js   the History view: who decided what, newest first
//   inbox/activity.js  actions on runs, their events streamed live into Activity
//   inbox/time.js      times by the server's clock
//   inbox/dom.js       building elements: values are written with textContent, never as HTML
// A further view (a run's history, an edit dialog) is a module of its own, wired here.

import { ApiError, clearToken, getJson, hasToken, setToken } from './inbox/api.js';
import { whenActionDone } from './inbox/activity.js';
import { $ } from './inbox/dom.js';
import { filters, initFilters, showAgents } from './inbox/filters.js';
import { initHistory, loadHistory } from './inbox/history.js';
import { startLive } from './inbox/live.js';
import { clearRuns, loadRuns, resetPaging } from './inbox/runs.js';
import { setStatus, showError, whenTokenRejected } from './inbox/status.js';

// ---- signing in ---------------------------------------------------------------------------

function showLogin(message) {
  $('app').hidden = true;
  $('who').hidden = true;
  $('login').hidden = false;
  setStatus(message || '', !!message);
  $('token').focus();
}

async function signIn() {
  let principal;
  try {
    principal = await getJson('me');
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      clearToken();
      showLogin('That token was not accepted.');
      return;
    }
    throw e;
  }
  $('login').hidden = true;
  $('who').hidden = false;
  $('who-name').textContent = principal.name;
  $('who-scope').textContent = principal.resourceIds
    ? ' (resources: ' + principal.resourceIds.join(', ') + ')' : ' (all resources)';
  $('app').hidden = false;
  const { agents } = await getJson('agents');
  showAgents(agents);
  const linked = linkedRun(agents);
  await loadRuns();
  startLive();
  if (linked) showLinkedRun(linked);
}

// ---- a link to a run (?agent=...&run=..., as notifications send it) --------------------------

function linkedRun(agents) {
  const q = new URLSearchParams(location.search);
  const agent = q.get('agent');
  if (!agent || !agents.some((a) => a.id === agent)) return null;
  $('agent').value = agent;
  filters.agent = agent;
  return q.get('run');
}

/** Scrolls to the linked run's card and marks it; says so if it no longer waits. */
function showLinkedRun(runId) {
  const card = [...document.querySelectorAll('#run-list > li.run')].find((li) => li.dataset.runId === runId);
  if (!card) {
    setStatus('The linked run no longer waits (decided, cancelled or expired), or is further down the list.', false);
    return;
  }
  card.classList.add('linked');
  const heading = card.querySelector('h3');
  if (heading) { heading.tabIndex = -1; heading.focus(); }
  card.scrollIntoView({ block: 'center' });
}

$('login').addEventListener('submit', (ev) => {
  ev.preventDefault();
  setToken($('token').value.trim());
  $('token').value = '';
  signIn().catch(showError);
});

$('sign-out').addEventListener('click', () => {
  clearToken();
  clearRuns();
  showLogin('Signed out.');
});

whenTokenRejected(showLogin);

// ---- the list -----------------------------------------------------------------------------

initFilters({
  onApply: () => {
    resetPaging();
    loadRuns();
    if (!$('history').hidden) loadHistory(false);
  },
  onRefresh: () => loadRuns(),
});
whenActionDone(() => loadRuns());   // after an action the list is read again, as many runs as were shown

// ---- the views: the inbox of waiting runs, or the history of decisions --------------------

function showView(history) {
  $('inbox-view').hidden = history;
  $('history').hidden = !history;
  $('view-inbox').setAttribute('aria-pressed', String(!history));
  $('view-history').setAttribute('aria-pressed', String(history));
  if (history) loadHistory(false);
}

$('view-inbox').addEventListener('click', () => showView(false));
$('view-history').addEventListener('click', () => showView(true));
initHistory();

// ---- start --------------------------------------------------------------------------------

if (hasToken()) signIn().catch(showError);
else showLogin();
