// Actions on runs, and the Activity column: each action's events appear there live, as the run
// produces them, then its outcome.

import { del, newKey, postForEvents, problemOf, problemText, readEvents, runPath } from './api.js';
import { $, el } from './dom.js';
import { filters } from './filters.js';
import { tokenRejected } from './status.js';

let afterAction = async () => {};
let actionCount = 0;

/** What runs after every action, once its log is done (the wiring reloads the list). */
export function whenActionDone(handler) {
  afterAction = handler;
}

/**
 * POSTs an action on a run (approve, decline, resume, continue, cancel) and streams its events into Activity.
 * If the server refuses it (a 400 for an invalid edit, a 409, 429 or 503, or no answer), nothing changed:
 * the card's buttons come back so the person can correct it, decline or cancel, and the refusal is shown
 * in `errorAt` (under the editor or the call) as well as in Activity.
 */
export async function act(item, action, body, label, run, errorAt = null) {
  const buttons = [...item.querySelectorAll('button')].filter((b) => !b.disabled);
  for (const b of buttons) b.disabled = true;
  if (errorAt) errorAt.textContent = '';
  const log = startLog(label + ' · ' + (run.resourceId || '') + ' · run ' + run.runId.substring(0, 8));
  let refused = null;
  try {
    const decision = action === 'approve' || action === 'decline';
    const res = await postForEvents(runPath(filters.agent, run.runId) + '/' + action, body, decision ? newKey() : null);
    if (!res.ok) {
      const problem = await problemOf(res);
      logProblem(log, res, problem);
      refused = problemText(res, problem);
    } else {
      await readEvents(res, (event, data) => logEvent(log, event, data));
    }
  } catch (e) {
    refused = e.message || String(e);
    logLine(log, 'problem', refused, 'problem');
  } finally {
    if (refused !== null) {
      for (const b of buttons) b.disabled = false;
      if (errorAt) errorAt.textContent = refused;
    }
    await finish(log);
  }
}

/** Discards a run (DELETE): no events, 204 when done. */
export async function discard(item, run) {
  const buttons = [...item.querySelectorAll('button')].filter((b) => !b.disabled);
  for (const b of buttons) b.disabled = true;
  let refused = false;
  const log = startLog('Discard · ' + (run.resourceId || '') + ' · run ' + run.runId.substring(0, 8));
  try {
    const res = await del(runPath(filters.agent, run.runId));
    if (res.status === 204) {
      logLine(log, '⇒ DISCARDED', 'run ' + run.runId + ' removed', 'outcome DISCARDED').dataset.outcome = 'DISCARDED';
    } else {
      refused = true;
      logProblem(log, res, await problemOf(res));
    }
  } catch (e) {
    refused = true;
    logLine(log, 'problem', e.message || String(e), 'problem');
  } finally {
    if (refused) for (const b of buttons) b.disabled = false;
    await finish(log);
  }
}

function logProblem(log, res, problem) {
  logLine(log, 'problem', problemText(res, problem), 'problem');
  if (res.status === 401) tokenRejected();
}

async function finish(log) {
  log.item.classList.add('done');
  log.item.dataset.done = 'true';
  await afterAction();
}

function startLog(title) {
  const n = ++actionCount;
  const lines = el('ol');
  const item = el('li', { class: 'action', 'aria-labelledby': 'action-' + n },
    el('h3', { id: 'action-' + n, text: title }), lines);
  $('actions').prepend(item);
  return { item, lines, text: null };
}

function logLine(log, type, text, cls) {
  const li = el('li', { class: cls || '' }, el('span', { class: 'type', text: type }), text);
  li.dataset.type = type;
  log.lines.append(li);
  return li;
}

const compact = (v) => (typeof v === 'string' ? '"' + v + '"' : JSON.stringify(v));

/** One event of the stream as a line of the action's log. */
function logEvent(log, type, e) {
  if (type === 'text-delta') {
    // consecutive text arrives as one growing line
    if (!log.text) log.text = logLine(log, 'text', '');
    log.text.lastChild.textContent += e.text;
    return;
  }
  log.text = null;
  switch (type) {
    case 'start': logLine(log, type, 'run ' + e.runId); break;
    case 'step-start': logLine(log, type, 'step ' + e.step); break;
    case 'tool-call': logLine(log, type, e.toolName + ' ' + compact(e.args)); break;
    case 'tool-call-approval': logLine(log, type, e.toolName + ' ' + compact(e.args) + ' waits for approval'); break;
    case 'tool-call-approved': logLine(log, type, e.toolName + ' ' + compact(e.approvedArgs) + ' approved by ' + e.actor
      + ' (proposed ' + compact(e.proposedArgs) + ')'); break;
    case 'tool-call-suspended': logLine(log, type, e.toolName + ' asks ' + compact(e.suspendPayload)); break;
    case 'tool-result': logLine(log, type, e.toolName + ' → ' + compact(e.result)); break;
    case 'tool-error': logLine(log, type, e.toolName + ' failed: ' + e.error); break;
    case 'tool-output-denied': logLine(log, type, e.toolName + ' did not run: ' + compact(e.reason)); break;
    case 'step-finish': logLine(log, type, 'step ' + e.step + ', ' + e.finishReason); break;
    case 'finish': logLine(log, type, e.finishReason + ': ' + compact(e.text)); break;
    case 'cancelled': logLine(log, type, compact(e.reason)); break;
    case 'error': logLine(log, type, e.message, 'problem'); break;
    case 'outcome': {
      const waits = e.waitingCalls.map((c) => (c.requiresApproval ? 'approval of ' : 'data for ') + c.toolName);
      const li = logLine(log, '⇒ ' + e.outcome,
        e.outcome === 'SUSPENDED' ? 'waits for ' + waits.join(', ')
          : e.outcome === 'INTERRUPTED' ? (e.error || 'stopped part-way; it is kept') + (waits.length ? ' It waits for ' + waits.join(', ') + '.' : '')
            : (e.error || 'run ' + e.runId), 'outcome ' + e.outcome);
      li.dataset.outcome = e.outcome;
      break;
    }
    case 'problem': logLine(log, type, e.title + ': ' + e.detail, 'problem'); break;
    default: logLine(log, type, JSON.stringify(e));
  }
}
