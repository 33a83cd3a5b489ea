// One suspended run as a card: who and when, its waiting calls with their controls (approve, or
// edit then approve: edit.js; decline, send data), and what every run has (cancel; continue or
// discard when interrupted).

import { act, discard } from './activity.js';
import { el, pair } from './dom.js';
import { approveControls, mayDo, withDigest } from './edit.js';
import { expiry, when } from './time.js';

let uid = 0;

/** The run's list item. */
export function runCard(run) {
  const n = ++uid;
  const who = [run.resourceId || 'no resource', run.threadId || 'no thread'].join(' · ');
  // the run's deadline is the soonest of its calls'; a store that keeps no run deadline still has theirs
  const deadlines = run.toolCalls.map((c) => c.expiresAt).filter(Boolean).sort((a, b) => Date.parse(a) - Date.parse(b));
  const expiresAt = run.expiresAt || deadlines[0] || null;
  const expires = expiresAt ? expiry(expiresAt) : null;
  const header = el('header', {}, el('h3', { id: 'run-' + n + '-title', text: who }),
    el('span', { class: 'badges' },
      run.interrupted ? el('span', { class: 'badge interrupted', text: 'interrupted' }) : null,
      expires ? el('span', { class: 'badge expiry' + (expires === 'expired' ? ' expired' : ''), text: expires }) : null));
  const meta = el('dl', { class: 'meta' },
    pair('Run', run.runId, 'mono'),
    pair('Resource', run.resourceId || '–'),
    pair('Thread', run.threadId || '–'),
    pair('Created', when(run.createdAt)),
    pair('Suspended', when(run.suspendedAt)),
    pair('Expires', expiresAt ? when(expiresAt) + ' (' + expires + ')' : 'never'));
  const article = el('article', { 'aria-labelledby': 'run-' + n + '-title' }, header, meta);
  const item = el('li', { class: 'run' + (run.interrupted ? ' is-interrupted' : '') }, article);
  item.dataset.runId = run.runId;
  item.dataset.resourceId = run.resourceId || '';
  item.dataset.threadId = run.threadId || '';
  item.dataset.interrupted = String(run.interrupted);
  const inner = !!run.parentRunId;
  if (inner) {
    article.append(el('p', { class: 'note', text: 'The inner run of a subagent: its supervisor’s run ' + run.parentRunId
      + ' drives it. Approve, decline, answer or cancel it there.' }));
  }
  if (run.interrupted) article.append(interruptionBlock(item, run, n, who, inner));
  article.append(...run.toolCalls.map((call, i) => callBlock(item, run, call, n + '-' + i, who, inner, expiresAt)));
  if (!inner) article.append(cancelBlock(item, run, n, who));
  return item;
}

/** Why the run stopped part-way; Continue (if nothing waits for a person) and Discard. */
function interruptionBlock(item, run, n, who, inner) {
  const box = el('div', { class: 'interruption' },
    el('p', {}, el('strong', { text: 'Interrupted: ' }), run.interruption || 'it stopped part-way'));
  const row = el('div', { class: 'row' });
  if (run.toolCalls.length === 0 && !inner) {
    const go = el('button', { type: 'button', class: 'continue', text: 'Continue', 'aria-label': 'Continue the run of ' + who });
    const refused = el('p', { class: 'error action-error', role: 'alert' });
    go.addEventListener('click', () => act(item, 'continue', {}, 'Continue', run, refused));
    row.append(go);
    box.append(refused);
  } else if (!inner) {
    box.append(el('p', { class: 'hint', text: 'Its calls below still wait for a person: answering them goes on.' }));
  }
  row.append(discardControl(item, run, n, who));
  box.append(row);
  return box;
}

/** Discard, behind a confirmation in the page (no dialog): a discarded run is gone for good. */
function discardControl(item, run, n, who) {
  const wrap = el('span', { class: 'discard' });
  const ask = el('button', { type: 'button', class: 'discard-ask', text: 'Discard…', 'aria-label': 'Discard the run of ' + who + '…',
    'aria-expanded': 'false', 'aria-controls': 'confirm-' + n });
  const yes = el('button', { type: 'button', class: 'discard-confirm danger', text: 'Discard for good',
    'aria-label': 'Discard the run of ' + who + ' for good' });
  const no = el('button', { type: 'button', class: 'discard-keep', text: 'Keep it', 'aria-label': 'Keep the run of ' + who });
  const confirm = el('span', { id: 'confirm-' + n, class: 'confirm', role: 'group', 'aria-label': 'Confirm discarding',
    hidden: true }, el('span', { text: 'Remove this run? Nothing more runs and the model is not told. ' }), yes, no);
  ask.addEventListener('click', () => {
    confirm.hidden = false;
    ask.setAttribute('aria-expanded', 'true');
    no.focus();
  });
  no.addEventListener('click', () => {
    confirm.hidden = true;
    ask.setAttribute('aria-expanded', 'false');
    ask.focus();
  });
  yes.addEventListener('click', () => discard(item, run));
  wrap.append(ask, confirm);
  return wrap;
}

/** Cancel with an optional reason: every run has it. */
function cancelBlock(item, run, n, who) {
  const reasonId = 'cancel-reason-' + n;
  const reason = el('input', { id: reasonId, class: 'cancel-reason', type: 'text', placeholder: 'optional' });
  const cancel = el('button', { type: 'button', class: 'cancel', text: 'Cancel run', 'aria-label': 'Cancel the run of ' + who });
  const doCancel = () => {
    const body = {};
    if (reason.value.trim()) body.reason = reason.value.trim();
    act(item, 'cancel', body, 'Cancel' + (body.reason ? ' ("' + body.reason + '")' : ''), run, refused);
  };
  const refused = el('p', { class: 'error action-error', role: 'alert' });
  cancel.addEventListener('click', doCancel);
  onEnter(reason, doCancel);
  return el('div', { class: 'run-actions' },
    el('div', { class: 'row' }, el('label', { for: reasonId, text: 'Reason for cancelling' }), reason, cancel), refused);
}

/** One waiting call: its arguments or question, and its controls (none on a subagent's inner run). */
function callBlock(item, run, call, key, who, inner, runExpiresAt) {
  const box = el('div', { class: 'call' });
  box.dataset.toolCallId = call.toolCallId;
  // a call's own deadline, when it differs from the run's (the soonest of its calls)
  const own = call.expiresAt && Date.parse(call.expiresAt) !== Date.parse(runExpiresAt) ? el('span', { class: 'kind', text: ' · ' + expiry(call.expiresAt) }) : null;
  if (inner) {
    box.append(el('h4', {}, call.toolName + ' ', el('span', { class: 'kind', text: call.requiresApproval ? '— needs approval' : '— waits for data' }), own));
    box.append(el('pre', { class: 'args', text: JSON.stringify(call.requiresApproval ? call.args : call.suspendPayload, null, 2) }));
    return box;
  }
  if (call.requiresApproval) approvalControls(box, item, run, call, key, who, own);
  else dataControls(box, item, run, call, key, who, own);
  return box;
}

/** Approve (as proposed, or edited: edit.js); Decline with an optional reason (Enter in the reason field declines). */
function approvalControls(box, item, run, call, key, who, own) {
  const title = call.toolName + ' for ' + who;
  box.append(el('h4', {}, call.toolName + ' ', el('span', { class: 'kind approval', text: '— needs approval' }), own));
  const quorum = approvalsLine(call);
  if (quorum) box.append(quorum);
  if (call.escalatedAt) box.append(el('p', { class: 'note escalated', text: 'Escalated ' + when(call.escalatedAt) + ': not decided in time' }));
  const whyNot = whyNotLine(call, 'approve');
  if (whyNot) box.append(whyNot);
  const refused = approveControls(box, item, run, call, key, title);
  if (!mayDo(call, 'decline')) return;
  const reasonId = 'reason-' + key;
  const reason = el('input', { id: reasonId, class: 'reason', type: 'text', placeholder: 'optional' });
  const decline = el('button', { type: 'button', class: 'decline', text: 'Decline', 'aria-label': 'Decline ' + title });
  box.append(el('div', { class: 'row' }, el('label', { for: reasonId, text: 'Reason for declining' }), reason, decline));
  const doDecline = () => {
    const body = withDigest({ toolCallId: call.toolCallId }, call);
    if (reason.value.trim()) body.reason = reason.value.trim();
    act(item, 'decline', body, 'Decline ' + call.toolName + (body.reason ? ' ("' + body.reason + '")' : ''), run, refused);
  };
  decline.addEventListener('click', doDecline);
  onEnter(reason, doDecline);
}

/** Why the caller may not take the call's main decision now ("You may not approve: needs finance"), else null. */
function whyNotLine(call, decision) {
  if (!call.whyNot || mayDo(call, decision)) return null;
  return el('p', { class: 'why-not', text: 'You may not ' + decision + ': ' + call.whyNot });
}

/** "1 of 2 approvals: maria" for a call that needs several distinct approvals (an approver rule's approvals(n)), else null. */
function approvalsLine(call) {
  const needed = call.approvalsNeeded || 1;
  if (needed < 2) return null;
  const by = call.approvedBy || [];
  return el('p', { class: 'approvals', text: by.length + ' of ' + needed + ' approvals' + (by.length ? ': ' + by.join(', ') : '') });
}

/** The question, and Send data with JSON parsed here first: nothing is sent until it parses (Ctrl+Enter sends). */
function dataControls(box, item, run, call, key, who, own) {
  const title = call.toolName + ' for ' + who;
  box.append(el('h4', {}, call.toolName + ' ', el('span', { class: 'kind', text: '— waits for data' }), own));
  const payload = call.suspendPayload;
  const question = payload && typeof payload.question === 'string' ? payload.question : JSON.stringify(payload);
  box.append(el('p', { class: 'question', text: question }));
  const whyNot = whyNotLine(call, 'answer');
  if (whyNot || !mayDo(call, 'answer')) {
    if (whyNot) box.append(whyNot);
    return;
  }
  const dataId = 'data-' + key;
  const errorId = dataId + '-error';
  const example = exampleOf(call.resumeSchema);
  const data = el('textarea', { id: dataId, class: 'resume-data', rows: 3, spellcheck: false,
    'aria-describedby': errorId, placeholder: example });
  const error = el('p', { id: errorId, class: 'error', role: 'alert' });
  const send = el('button', { type: 'button', class: 'resume', text: 'Send data', 'aria-label': 'Send data to ' + title });
  box.append(el('label', { for: dataId, text: 'Resume data (JSON)' }), data, error, el('div', { class: 'row' }, send));
  const doSend = () => {
    let value;
    try {
      if (!data.value.trim()) throw new Error('enter a JSON value, for example ' + example);
      value = JSON.parse(data.value);
    } catch (e) {
      // validated here: nothing is sent until it parses
      data.setAttribute('aria-invalid', 'true');
      error.textContent = 'Not valid JSON: ' + e.message;
      data.focus();
      return;
    }
    data.removeAttribute('aria-invalid');
    error.textContent = '';
    // a refusal (say 400 invalid-tool-input: the data breaks the tool's resume schema) shows under the field
    act(item, 'resume', { toolCallId: call.toolCallId, resumeData: value }, 'Send data to ' + call.toolName, run, error);
  };
  send.addEventListener('click', doSend);
  data.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); doSend(); }
  });
}

/**
 * What the resume field suggests: an object with the fields the tool's resume schema asks for (the
 * required ones, else all), each with a value of its type; {"answer": "..."} when the tool declared none.
 */
export function exampleOf(schema) {
  const props = schema && typeof schema === 'object' && schema.properties && typeof schema.properties === 'object'
    ? schema.properties : null;
  if (!props) return '{"answer": "..."}';
  const required = Array.isArray(schema.required) ? schema.required.filter((k) => k in props) : [];
  const names = required.length ? required : Object.keys(props);
  const sample = {};
  for (const name of names) sample[name] = sampleOf(props[name]);
  return JSON.stringify(sample);
}

function sampleOf(s) {
  if (!s || typeof s !== 'object') return '...';
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if ('const' in s) return s.const;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'integer': case 'number': return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean': return true;
    case 'array': return [];
    case 'object': return {};
    default: return '...';
  }
}

/** Enter in a one-line field does what its button does. */
function onEnter(input, action) {
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') { ev.preventDefault(); action(); }
  });
}
