// Times by the server's clock: its time at the last listing, plus what passed here since (no trust
// in this machine's clock).

let clock = null;   // { asOf, at }: the server's time of the last listing, and when it arrived

export function setServerTime(asOf) {
  clock = { asOf: Date.parse(asOf), at: Date.now() };
}

export function serverNow() {
  return clock ? clock.asOf + (Date.now() - clock.at) : Date.now();
}

/** "expires in 2 h", "expires in 25 min", "expired". */
export function expiry(expiresAt) {
  const ms = Date.parse(expiresAt) - serverNow();
  if (ms <= 0) return 'expired';
  const minutes = Math.floor(ms / 60000);
  if (minutes < 1) return 'expires in less than a minute';
  if (minutes < 60) return 'expires in ' + minutes + ' min';
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return 'expires in ' + hours + ' h';
  return 'expires in ' + Math.floor(hours / 24) + ' days';
}

/** A time in this browser's locale. */
export const when = (iso) => new Date(iso).toLocaleString();
