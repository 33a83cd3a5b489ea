// The page's status line, and what happens when the server stops accepting the token.

import { ApiError } from './api.js';
import { $ } from './dom.js';

let signInAgain = () => {};

/** What to do when a request answers 401 (the wiring shows the sign-in form). */
export function whenTokenRejected(handler) {
  signInAgain = handler;
}

export function tokenRejected() {
  signInAgain('Your token is no longer accepted; sign in again.');
}

export function setStatus(text, isError) {
  const s = $('status');
  s.textContent = text;
  s.classList.toggle('error', !!isError);
}

/** A failure in the status line; a rejected token asks to sign in again. */
export function showError(e) {
  if (e instanceof ApiError && e.status === 401) {
    tokenRejected();
    return;
  }
  setStatus(e.message || String(e), true);
}
