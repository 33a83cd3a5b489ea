// Approving a call, as proposed or edited: the arguments are shown, Edit opens them as JSON, and
// "Approve with these arguments" sends them. Every approval carries the digest of what the person
// was shown (tool, arguments, payload): if the waiting call changed since, the server refuses it
// (409 decision-conflict) and nothing runs. The server checks the edit against the tool's input
// schema (400 invalid-tool-input naming the field and the rule); here it must parse as a JSON object.

import { act } from './activity.js';
import { el } from './dom.js';

/**
 * The arguments, Approve, and Edit with its editor. `title` names the call for screen readers.
 * Returns the element where a refused decision on the call is shown (Decline uses it too).
 */
export function approveControls(box, item, run, call, key, title) {
  const shown = el('pre', { class: 'args', text: JSON.stringify(call.args, null, 2) });
  box.append(shown);
  if (call.approvedArgs !== null && call.approvedArgs !== undefined) {
    // approved with edits before the run stopped: what will run
    box.append(el('p', { class: 'note', text: 'Approved as:' }),
      el('pre', { class: 'args approved-args', text: JSON.stringify(call.approvedArgs, null, 2) }));
  }
  const refused = el('p', { id: 'refused-' + key, class: 'error action-error', role: 'alert' });
  // only what the caller may do now (the listing's youMay, by the agent's approver rules) is offered
  const approve = mayDo(call, 'approve') ? el('button', { type: 'button', class: 'approve', text: 'Approve', 'aria-label': 'Approve ' + title }) : null;
  const editorId = 'edit-' + key;
  const edit = mayDo(call, 'edit') ? el('button', { type: 'button', class: 'edit', text: 'Edit…', 'aria-label': 'Edit the arguments of ' + title,
    'aria-expanded': 'false', 'aria-controls': editorId }) : null;
  if (approve) {
    approve.addEventListener('click', () => act(item, 'approve', withDigest({ toolCallId: call.toolCallId }, call),
      'Approve ' + call.toolName, run, refused));
  }
  const editor = edit ? editorBlock(item, run, call, editorId, title, edit) : null;
  if (edit) {
    edit.addEventListener('click', () => {
      const open = editor.hidden;
      editor.hidden = !open;
      edit.setAttribute('aria-expanded', String(open));
      if (open) editor.querySelector('textarea').focus();
    });
  }
  box.append(el('div', { class: 'row' }, approve, edit,
    call.digest ? el('span', { class: 'note digest', title: call.digest, text: 'bound to digest ' + call.digest.substring(0, 12) + '…' }) : null),
  editor, refused);
  return refused;
}

/** The editor: the arguments as JSON, checked here before anything is sent (Ctrl+Enter approves). */
function editorBlock(item, run, call, id, title, edit) {
  const fieldId = id + '-args';
  const errorId = id + '-error';
  const text = el('textarea', { id: fieldId, class: 'edit-args', rows: 5, spellcheck: false, 'aria-describedby': errorId });
  text.value = JSON.stringify(call.args, null, 2);
  const error = el('p', { id: errorId, class: 'error', role: 'alert' });
  const send = el('button', { type: 'button', class: 'approve approve-edited', text: 'Approve with these arguments',
    'aria-label': 'Approve ' + title + ' with the edited arguments' });
  const cancel = el('button', { type: 'button', class: 'edit-cancel', text: 'Cancel edit', 'aria-label': 'Stop editing ' + title });
  const doSend = () => {
    let args;
    try {
      args = JSON.parse(text.value);
      if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new Error('the arguments are a JSON object, {...}');
    } catch (e) {
      text.setAttribute('aria-invalid', 'true');
      error.textContent = 'Not valid JSON: ' + e.message;
      text.focus();
      return;
    }
    text.removeAttribute('aria-invalid');
    error.textContent = '';
    const changed = JSON.stringify(args) !== JSON.stringify(call.args);
    const body = withDigest({ toolCallId: call.toolCallId }, call);
    if (changed) body.args = args;
    // a refusal (say 400 invalid-tool-input naming the field) shows here, under the editor, to correct
    act(item, 'approve', body, 'Approve ' + call.toolName + (changed ? ' with edits ' + JSON.stringify(args) : ''), run, error);
  };
  send.addEventListener('click', doSend);
  cancel.addEventListener('click', () => {
    box.hidden = true;
    edit.setAttribute('aria-expanded', 'false');
    edit.focus();
  });
  text.addEventListener('input', () => {
    text.removeAttribute('aria-invalid');
    error.textContent = '';
  });
  text.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); doSend(); }
  });
  const box = el('div', { id, class: 'editor', role: 'group', 'aria-label': 'Edit the arguments of ' + title, hidden: true },
    el('label', { for: fieldId, text: 'Arguments (JSON)' }), text, error, el('div', { class: 'row' }, send, cancel));
  return box;
}

/** Whether the listing lets the caller take `decision` on the call now (a server without youMay: every decision). */
export function mayDo(call, decision) {
  return !Array.isArray(call.youMay) || call.youMay.includes(decision);
}

/** The decision is bound to what was shown: the call's digest, when the server gave one. */
export function withDigest(body, call) {
  if (call.digest) body.digest = call.digest;
  return body;
}
