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
    page: 0,
    perPage: 10,
    filters: {},
    total: 0,
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
    if (state.principal.resourceIds && state.principal.resourceIds.length > 1) {
      $('resource').value = state.principal.resourceIds[0];
      state.filters.resourceId = state.principal.resourceIds[0];
    }
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

  async function loadRuns() {
    if (!state.agent) {
      setStatus('No agents are served here.', true);
      return;
    }
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(state.filters)) if (v) q.set(k, v);
    q.set('perPage', String(state.perPage));
    q.set('page', String(state.page));
    state.loading++;
    document.body.setAttribute('aria-busy', 'true');
    try {
      const page = await getJson(agentPath() + '/suspended-runs?' + q.toString());
      if (page.runs.length === 0 && page.total > 0 && state.page > 0) {
        // the page emptied (runs were resumed): show the last page that has runs
        state.page = Math.max(0, Math.ceil(page.total / state.perPage) - 1);
        return loadRuns();
      }
      render(page);
      setStatus('Updated ' + new Date().toLocaleTimeString() + '.', false);
    } catch (e) {
      showError(e);
    } finally {
      state.loading--;
      if (state.loading === 0) document.body.removeAttribute('aria-busy');
    }
  }

  function render(page) {
    state.total = page.total;
    const list = $('run-list');
    list.replaceChildren(...page.runs.map(runItem));
    const first = page.page * page.perPage + 1;
    const last = page.page * page.perPage + page.runs.length;
    $('summary').textContent = page.total === 0 ? 'No suspended runs match.'
      : (page.runs.length === 0 ? 'No runs on this page; ' : 'Runs ' + first + '–' + last + ' of ')
        + page.total + (page.total === 1 ? ' waiting run' : ' waiting runs') + '.';
    const pages = Math.max(1, Math.ceil(page.total / page.perPage));
    $('page-info').textContent = 'Page ' + (page.page + 1) + ' of ' + pages;
    $('prev').disabled = page.page === 0;
    $('next').disabled = page.page + 1 >= pages;
    list.dataset.total = String(page.total);
  }

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
    const meta = el('dl', { class: 'meta' },
      pair('Run', run.runId, 'mono'),
      pair('Resource', run.resourceId || '–'),
      pair('Thread', run.threadId || '–'),
      pair('Suspended', new Date(run.suspendedAt).toLocaleString()));
    const item = el('li', { class: 'run' },
      el('article', { 'aria-labelledby': 'run-' + n + '-title' },
        el('header', {}, el('h3', { id: 'run-' + n + '-title', text: who })),
        meta,
        ...run.toolCalls.map((call, i) => callBlock(run, call, n + '-' + i, who))));
    item.dataset.runId = run.runId;
    item.dataset.resourceId = run.resourceId || '';
    item.dataset.threadId = run.threadId || '';
    return item;
  }

  function pair(term, value, cls) {
    return el('div', {}, el('dt', { text: term }), el('dd', { text: value, class: cls || '' }));
  }

  function callBlock(run, call, key, who) {
    const box = el('div', { class: 'call' });
    box.dataset.toolCallId = call.toolCallId;
    const title = call.toolName + ' for ' + who;
    if (call.requiresApproval) {
      box.append(el('h4', {}, call.toolName + ' ', el('span', { class: 'kind approval', text: '— needs approval' })));
      box.append(el('pre', { class: 'args', text: JSON.stringify(call.args, null, 2) }));
      const approve = el('button', { type: 'button', class: 'approve', text: 'Approve', 'aria-label': 'Approve ' + title });
      const reasonId = 'reason-' + key;
      const reason = el('input', { id: reasonId, class: 'reason', type: 'text', placeholder: 'optional' });
      const decline = el('button', { type: 'button', class: 'decline', text: 'Decline', 'aria-label': 'Decline ' + title });
      box.append(el('div', { class: 'row' }, approve));
      box.append(el('div', { class: 'row' }, el('label', { for: reasonId, text: 'Reason for declining' }), reason, decline));
      approve.addEventListener('click', () => act(box, 'approve', { toolCallId: call.toolCallId },
        'Approve ' + call.toolName, run));
      const doDecline = () => {
        const body = { toolCallId: call.toolCallId };
        if (reason.value.trim()) body.reason = reason.value.trim();
        act(box, 'decline', body, 'Decline ' + call.toolName + (body.reason ? ' ("' + body.reason + '")' : ''), run);
      };
      decline.addEventListener('click', doDecline);
      reason.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter') { ev.preventDefault(); doDecline(); }
      });
    } else {
      box.append(el('h4', {}, call.toolName + ' ', el('span', { class: 'kind', text: '— waits for data' })));
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
        act(box, 'resume', { toolCallId: call.toolCallId, resumeData: value }, 'Send data to ' + call.toolName, run);
      };
      send.addEventListener('click', doSend);
      data.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); doSend(); }
      });
    }
    return box;
  }

  // ---- actions, streamed live ----------------------------------------------------------------

  async function act(box, action, body, label, run) {
    for (const b of box.querySelectorAll('button')) b.disabled = true;
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
      case 'error': logLine(log, type, e.message, 'problem'); break;
      case 'outcome': {
        const waits = e.waitingCalls.map((c) => (c.requiresApproval ? 'approval of ' : 'data for ') + c.toolName);
        const li = logLine(log, '⇒ ' + e.outcome,
          e.outcome === 'SUSPENDED' ? 'waits for ' + waits.join(', ') : (e.error || 'run ' + e.runId), 'outcome ' + e.outcome);
        li.dataset.outcome = e.outcome;
        break;
      }
      case 'problem': logLine(log, type, e.title + ': ' + e.detail, 'problem'); break;
      default: logLine(log, type, JSON.stringify(e));
    }
  }

  // ---- filters and paging -------------------------------------------------------------------

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
    state.page = 0;
    loadRuns();
  });
  $('agent').addEventListener('change', () => $('filters').requestSubmit());
  $('per-page').addEventListener('change', () => $('filters').requestSubmit());
  $('clear').addEventListener('click', () => {
    for (const id of ['thread', 'resource', 'from', 'to']) $(id).value = '';
    if (state.principal && state.principal.resourceIds && state.principal.resourceIds.length > 1) {
      $('resource').value = state.principal.resourceIds[0];
    }
    $('filters').requestSubmit();
  });
  $('refresh').addEventListener('click', () => loadRuns());
  $('prev').addEventListener('click', () => {
    if (state.page > 0) { state.page--; loadRuns(); }
  });
  $('next').addEventListener('click', () => {
    state.page++;
    loadRuns();
  });

  // ---- start --------------------------------------------------------------------------------

  if (state.token) signIn().catch(showError);
  else showLogin();
})();
