// The live inbox: the list follows the store without Refresh. Every 750 ms, while this tab is
// visible and signed in, the listing is read again with If-None-Match; the server answers 304 (no
// body) while nothing changed, and a new page when runs started waiting, were decided elsewhere or
// expired. A hidden tab does not poll; it reads once as soon as it is shown again. Why polling and
// not an event stream, and what it costs per open page: docs/notifications.md.

import { $ } from './dom.js';
import { pollRuns } from './runs.js';
import { showError } from './status.js';

export const POLL_MILLIS = 750;

let timer = null;
let busy = false;

async function tick() {
  if (busy || document.hidden || $('app').hidden) return;
  busy = true;
  try {
    await pollRuns();
  } catch (e) {
    showError(e);   // a rejected token signs out, which stops the poll (the page is hidden)
  } finally {
    busy = false;
  }
}

/** Starts polling (once; calling it again does nothing). */
export function startLive() {
  if (timer !== null) return;
  timer = setInterval(tick, POLL_MILLIS);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) tick();
  });
}
