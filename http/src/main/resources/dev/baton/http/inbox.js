// The Baton inbox: plain JavaScript, no build step. It talks only to the API next to it (relative
// URLs), sends the token as "Authorization: Bearer" (never a cookie), and writes every value from
// the server with textContent, never as HTML.
'use strict';

(() => {
  const TOKEN_KEY = 'baton.inbox.token';
  const $ = (id) => document.getElementById(id);

  const state = {
    token: sessionStorage.getItem(TOKEN_KEY),
    principal: null,
    agent: null,
    perPage: 10,
    filters: {},
    runs: [],           // the runs shown, in listing order
    loads: 1,           // how many loads of perPage runs are shown: a refresh reads as many again
    nextCursor: null,   // where "Load more" continues
    total: 0,
    clock: null,        // { asOf, at }: the server's time of the last listing, and when it arrived
    loading: 0,
    actionCount: 0,
  };

  // A token handed over in the address (#token=...) is taken and removed from the address bar.
  if (location.hash.startsWith('#token=')) {
    state.token = decodeURIComponent(location.hash.substring('#token='.length));
    sessionStorage.setItem(TOKEN_KEY, state.token);
    history.replaceState(null, '', location.pathname + location.search);
  }

  // ---- talking to the API ------------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, problem) {
      super(problem && problem.detail ? problem.title + ': ' + problem.detail : 'HTTP ' + status);
      this.status = status;
      this.problem = problem;
    }
  }

  function headers(extra) {
    return Object.assign({ Authorization: 'Bearer ' + state.token }, extra || {});
  }

  async function problemOf(res) {
    try {
      return await res.json();
    } catch (e) {
      return null;
    }
  }

  async function getJson(path) {
    const res = await fetch(path, { headers: headers({ Accept: 'application/json' }), credentials: 'omit' });
    if (!res.ok) throw new ApiError(res.status, await problemOf(res));
    return res.json();
  }

  const seg = (s) => encodeURIComponent(s);
  const agentPath = () => 'agents/' + seg(state.agent);

  // ---- signing in ---------------------------------------------------------------------------

  function showLogin(message) {
    $('app').hidden = true;
    $('who').hidden = true;
    $('login').hidden = false;
    setStatus(message || '', !!message);
    $('token').focus();
  }

  async function signIn() {
    try {
      state.principal = await getJson('me');
    } catch (e) {
      if (e.status === 401) {
        sessionStorage.removeItem(TOKEN_KEY);
        state.token = null;
        showLogin('That token was not accepted.');
        return;
      }
      throw e;
    }
    $('login').hidden = true;
    $('who').hidden = false;
    $('who-name').textContent = state.principal.name;
    $('who-scope').textContent = state.principal.resourceIds
      ? ' (resources: ' + state.principal.resourceIds.join(', ') + ')' : ' (all resources)';
    $('app').hidden = false;
    const { agents } = await getJson('agents');
    const select = $('agent');
    select.replaceChildren(...agents.map((a) => {
      const o = document.createElement('option');
      o.value = a.id;
      o.textContent = a.id;
      return o;
    }));
    state.agent = agents.length ? agents[0].id : null;
    await loadRuns();
  }

  $('login').addEventListener('submit', (ev) => {
    ev.preventDefault();
    state.token = $('token').value.trim();
    $('token').value = '';
    sessionStorage.setItem(TOKEN_KEY, state.token);
    signIn().catch(showError);
  });

  $('sign-out').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    state.token = null;
    state.principal = null;
    $('run-list').replaceChildren();
    showLogin('Signed out.');
  });

  // ---- the list -----------------------------------------------------------------------------

  function setStatus(text, isError) {
    const s = $('status');
    s.textContent = text;
    s.classList.toggle('error', !!isError);
  }

  function showError(e) {
    if (e instanceof ApiError && e.status === 401) {
      showLogin('Your token is no longer accepted; sign in again.');
      return;
    }
    setStatus(e.message || String(e), true);
  }

  /**
   * Reads the list. Without `more`: from the start, as many runs as are shown (so a refresh after an
   * action keeps what was loaded). With `more`: the next perPage runs after the last one shown, by the
   * listing's cursor, which skips or repeats no run while others come and go.
   */
  async function loadRuns(more) {
    if (!state.agent) {
      setStatus('No agents are served here.', true);
      return;
    }
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(state.filters)) if (v) q.set(k, v);
    if (more && state.nextCursor) {
      q.set('perPage', String(state.perPage));
      q.set('cursor', state.nextCursor);
    } else {
      q.set('perPage', String(Math.min(200, state.perPage * state.loads)));
    }
    state.loading++;
    document.body.setAttribute('aria-busy', 'true');
    try {
      const page = await getJson(agentPath() + '/suspended-runs?' + q.toString());
      state.clock = { asOf: Date.parse(page.asOf), at: Date.now() };
      state.total = page.total;
      state.nextCursor = page.nextCursor;
      if (more) {
        state.loads++;
        state.runs = state.runs.concat(page.runs);
        $('run-list').append(...page.runs.map(runItem));
      } else {
        state.runs = page.runs;
        $('run-list').replaceChildren(...page.runs.map(runItem));
      }
      renderSummary();
      setStatus('Updated ' + new Date().toLocaleTimeString() + '.', false);
    } catch (e) {
      showError(e);
    } finally {
      state.loading--;
      if (state.loading === 0) document.body.removeAttribute('aria-busy');
    }
  }

  function renderSummary() {
    const shown = state.runs.length;
    const total = state.total;
    $('summary').textContent = total === 0 ? 'No suspended runs match.'
      : (shown === 0 ? 'No runs shown; ' : 'Runs 1–' + shown + ' of ') + total + (total === 1 ? ' waiting run' : ' waiting runs') + '.';
    const more = $('load-more');
    more.hidden = !state.nextCursor || shown >= total;
    more.textContent = 'Load ' + Math.min(state.perPage, Math.max(0, total - shown)) + ' more runs';
    $('run-list').dataset.total = String(total);
  }

  /** The server's time now: its time at the last listing, plus what passed here since (no trust in this machine's clock). */
  function serverNow() {
    return state.clock ? state.clock.asOf + (Date.now() - state.clock.at) : Date.now();
  }

  /** "expires in 2 h", "expires in 25 min", "expired". */
  function expiry(expiresAt) {
    const ms = Date.parse(expiresAt) - serverNow();
    if (ms <= 0) return 'expired';
    const minutes = Math.floor(ms / 60000);
    if (minutes < 1) return 'expires in less than a minute';
    if (minutes < 60) return 'expires in ' + minutes + ' min';
    const hours = Math.floor(minutes / 60);
    if (hours < 48) return 'expires in ' + hours + ' h';
    return 'expires in ' + Math.floor(hours / 24) + ' days';
  }

  const when = (iso) => new Date(iso).toLocaleString();

  function el(tag, props, ...children) {
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

  let uid = 0;

  function runItem(run) {
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
      go.addEventListener('click', () => act(item, 'continue', {}, 'Continue', run));
      row.append(go);
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
      act(item, 'cancel', body, 'Cancel' + (body.reason ? ' ("' + body.reason + '")' : ''), run);
    };
    cancel.addEventListener('click', doCancel);
    reason.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') { ev.preventDefault(); doCancel(); }
    });
    return el('div', { class: 'run-actions row' }, el('label', { for: reasonId, text: 'Reason for cancelling' }), reason, cancel);
  }

  function pair(term, value, cls) {
    return el('div', {}, el('dt', { text: term }), el('dd', { text: value, class: cls || '' }));
  }

  function callBlock(item, run, call, key, who, inner, runExpiresAt) {
    const box = el('div', { class: 'call' });
    box.dataset.toolCallId = call.toolCallId;
    const title = call.toolName + ' for ' + who;
    // a call's own deadline, when it differs from the run's (the soonest of its calls)
    const own = call.expiresAt && Date.parse(call.expiresAt) !== Date.parse(runExpiresAt) ? el('span', { class: 'kind', text: ' · ' + expiry(call.expiresAt) }) : null;
    if (inner) {
      box.append(el('h4', {}, call.toolName + ' ', el('span', { class: 'kind', text: call.requiresApproval ? '— needs approval' : '— waits for data' }), own));
      box.append(el('pre', { class: 'args', text: JSON.stringify(call.requiresApproval ? call.args : call.suspendPayload, null, 2) }));
      return box;
    }
    if (call.requiresApproval) {
      box.append(el('h4', {}, call.toolName + ' ', el('span', { class: 'kind approval', text: '— needs approval' }), own));
      box.append(el('pre', { class: 'args', text: JSON.stringify(call.args, null, 2) }));
      const approve = el('button', { type: 'button', class: 'approve', text: 'Approve', 'aria-label': 'Approve ' + title });
      const reasonId = 'reason-' + key;
      const reason = el('input', { id: reasonId, class: 'reason', type: 'text', placeholder: 'optional' });
      const decline = el('button', { type: 'button', class: 'decline', text: 'Decline', 'aria-label': 'Decline ' + title });
      box.append(el('div', { class: 'row' }, approve));
      box.append(el('div', { class: 'row' }, el('label', { for: reasonId, text: 'Reason for declining' }), reason, decline));
      approve.addEventListener('click', () => act(item, 'approve', { toolCallId: call.toolCallId },
        'Approve ' + call.toolName, run));
      const doDecline = () => {
        const body = { toolCallId: call.toolCallId };
        if (reason.value.trim()) body.reason = reason.value.trim();
        act(item, 'decline', body, 'Decline ' + call.toolName + (body.reason ? ' ("' + body.reason + '")' : ''), run);
      };
      decline.addEventListener('click', doDecline);
      reason.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter') { ev.preventDefault(); doDecline(); }
      });
    } else {
      box.append(el('h4', {}, call.toolName + ' ', el('span', { class: 'kind', text: '— waits for data' }), own));
      const payload = call.suspendPayload;
      const question = payload && typeof payload.question === 'string' ? payload.question : JSON.stringify(payload);
      box.append(el('p', { class: 'question', text: question }));
      const dataId = 'data-' + key;
      const errorId = dataId + '-error';
      const data = el('textarea', { id: dataId, class: 'resume-data', rows: 3, spellcheck: false,
        'aria-describedby': errorId, placeholder: '{"answer": "..."}' });
      const error = el('p', { id: errorId, class: 'error', role: 'alert' });
      const send = el('button', { type: 'button', class: 'resume', text: 'Send data', 'aria-label': 'Send data to ' + title });
      box.append(el('label', { for: dataId, text: 'Resume data (JSON)' }), data, error, el('div', { class: 'row' }, send));
      const doSend = () => {
        let value;
        try {
          if (!data.value.trim()) throw new Error('enter a JSON value, for example {"answer": "yes"}');
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
        act(item, 'resume', { toolCallId: call.toolCallId, resumeData: value }, 'Send data to ' + call.toolName, run);
      };
      send.addEventListener('click', doSend);
      data.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); doSend(); }
      });
    }
    return box;
  }

  // ---- actions, streamed live ----------------------------------------------------------------

  async function act(item, action, body, label, run) {
    for (const b of item.querySelectorAll('button')) b.disabled = true;
    const log = startLog(label + ' · ' + (run.resourceId || '') + ' · run ' + run.runId.substring(0, 8));
    try {
      const res = await fetch(agentPath() + '/runs/' + seg(run.runId) + '/' + action, {
        method: 'POST',
        credentials: 'omit',
        headers: headers({ 'Content-Type': 'application/json', Accept: 'text/event-stream' }),
        body: JSON.stringify(body),
      });
      if (!res.ok) {
        const p = await problemOf(res);
        logLine(log, 'problem', res.status + ' ' + (p ? p.title + ': ' + p.detail : res.statusText), 'problem');
        if (res.status === 401) showLogin('Your token is no longer accepted; sign in again.');
      } else {
        await readEvents(res, (event, data) => logEvent(log, event, data));
      }
    } catch (e) {
      logLine(log, 'problem', e.message || String(e), 'problem');
    } finally {
      log.item.classList.add('done');
      log.item.dataset.done = 'true';
      await loadRuns();
    }
  }

  /** Discards a run (DELETE): no events, 204 when done. */
  async function discard(item, run) {
    for (const b of item.querySelectorAll('button')) b.disabled = true;
    const log = startLog('Discard · ' + (run.resourceId || '') + ' · run ' + run.runId.substring(0, 8));
    try {
      const res = await fetch(agentPath() + '/runs/' + seg(run.runId), { method: 'DELETE', credentials: 'omit', headers: headers() });
      if (res.status === 204) {
        logLine(log, '⇒ DISCARDED', 'run ' + run.runId + ' removed', 'outcome DISCARDED').dataset.outcome = 'DISCARDED';
      } else {
        const p = await problemOf(res);
        logLine(log, 'problem', res.status + ' ' + (p ? p.title + ': ' + p.detail : res.statusText), 'problem');
        if (res.status === 401) showLogin('Your token is no longer accepted; sign in again.');
      }
    } catch (e) {
      logLine(log, 'problem', e.message || String(e), 'problem');
    } finally {
      log.item.classList.add('done');
      log.item.dataset.done = 'true';
      await loadRuns();
    }
  }

  /** Reads a text/event-stream body as it arrives, calling onEvent(name, parsedData) per event. */
  async function readEvents(res, onEvent) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const dispatch = (block) => {
      let event = 'message';
      const data = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.substring(0, colon);
        let value = colon < 0 ? '' : line.substring(colon + 1);
        if (value.startsWith(' ')) value = value.substring(1);
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length) onEvent(event, JSON.parse(data.join('\n')));
    };
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.substring(0, cut);
        buffer = buffer.substring(cut).replace(/^\r?\n\r?\n/, '');
        dispatch(block);
      }
    }
    if (buffer.trim()) dispatch(buffer);
  }

  function startLog(title) {
    const n = ++state.actionCount;
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

  // ---- filters and loading more -------------------------------------------------------------

  $('filters').addEventListener('submit', (ev) => {
    ev.preventDefault();
    state.agent = $('agent').value;
    state.perPage = Number($('per-page').value);
    state.filters = {
      threadId: $('thread').value.trim(),
      resourceId: $('resource').value.trim(),
      fromDate: $('from').value,
      toDate: $('to').value,
    };
    state.loads = 1;
    state.nextCursor = null;
    loadRuns();
  });
  $('agent').addEventListener('change', () => $('filters').requestSubmit());
  $('per-page').addEventListener('change', () => $('filters').requestSubmit());
  $('clear').addEventListener('click', () => {
    for (const id of ['thread', 'resource', 'from', 'to']) $(id).value = '';
    $('filters').requestSubmit();
  });
  $('refresh').addEventListener('click', () => loadRuns());
  $('load-more').addEventListener('click', () => {
    // keep the keyboard where the reader is: on the first of the new runs
    const before = state.runs.length;
    loadRuns(true).then(() => {
      const first = $('run-list').children[before];
      const heading = first && first.querySelector('h3');
      if (heading) { heading.tabIndex = -1; heading.focus(); }
    });
  });

  // ---- start --------------------------------------------------------------------------------

  if (state.token) signIn().catch(showError);
  else showLogin();
})();
