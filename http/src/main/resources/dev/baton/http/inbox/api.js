// Talking to the API next to the page: relative URLs only, the token sent as
// "Authorization: Bearer" (never a cookie), failures read as RFC 9457 problems.

const TOKEN_KEY = 'baton.inbox.token';

let token = sessionStorage.getItem(TOKEN_KEY);

// A token handed over in the address (#token=...) is taken and removed from the address bar.
if (location.hash.startsWith('#token=')) {
  token = decodeURIComponent(location.hash.substring('#token='.length));
  sessionStorage.setItem(TOKEN_KEY, token);
  history.replaceState(null, '', location.pathname + location.search);
}

export const hasToken = () => !!token;

/** Keeps the token for this tab only (sessionStorage). */
export function setToken(value) {
  token = value;
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function clearToken() {
  sessionStorage.removeItem(TOKEN_KEY);
  token = null;
}

/** A failed request: its status and its problem document (null if the body was not one). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem && problem.detail ? problem.title + ': ' + problem.detail : 'HTTP ' + status);
    this.status = status;
    this.problem = problem;
  }
}

function headers(extra) {
  return Object.assign({ Authorization: 'Bearer ' + token }, extra || {});
}

/** The response's problem document, or null. */
export async function problemOf(res) {
  try {
    return await res.json();
  } catch (e) {
    return null;
  }
}

/** "409 Run not suspended: ..." for a failed response and its problem. */
export const problemText = (res, p) => res.status + ' ' + (p ? p.title + ': ' + p.detail : res.statusText);

/** GET, as JSON; a failure throws an ApiError. */
export async function getJson(path) {
  const res = await fetch(path, { headers: headers({ Accept: 'application/json' }), credentials: 'omit' });
  if (!res.ok) throw new ApiError(res.status, await problemOf(res));
  return res.json();
}

/**
 * A conditional GET (the live inbox's poll): null when the server answers 304 Not Modified (its
 * ETag still names `etag`), else the JSON body and its new ETag; a failure throws an ApiError.
 */
export async function getJsonIfChanged(path, etag) {
  const extra = { Accept: 'application/json' };
  if (etag) extra['If-None-Match'] = etag;
  const res = await fetch(path, { headers: headers(extra), credentials: 'omit', cache: 'no-store' });
  if (res.status === 304) return null;
  if (!res.ok) throw new ApiError(res.status, await problemOf(res));
  return { body: await res.json(), etag: res.headers.get('ETag') };
}

/**
 * POST a JSON body, asking for the run's events as they happen (text/event-stream). A decision
 * (approve, decline) carries an Idempotency-Key: sent again, the server answers its first outcome.
 */
export function postForEvents(path, body, idempotencyKey) {
  const extra = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
  if (idempotencyKey) extra['Idempotency-Key'] = idempotencyKey;
  return fetch(path, { method: 'POST', credentials: 'omit', headers: headers(extra), body: JSON.stringify(body) });
}

/** A fresh random key (crypto.getRandomValues works without a secure context, unlike randomUUID). */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** DELETE. */
export function del(path) {
  return fetch(path, { method: 'DELETE', credentials: 'omit', headers: headers() });
}

/** One path segment, percent-encoded (ids may hold "/", "%", spaces). */
export const seg = (s) => encodeURIComponent(s);

export const agentPath = (agentId) => 'agents/' + seg(agentId);

export const runPath = (agentId, runId) => agentPath(agentId) + '/runs/' + seg(runId);

/** Reads a text/event-stream body as it arrives, calling onEvent(name, parsedData) per event. */
export async function readEvents(res, onEvent) {
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
