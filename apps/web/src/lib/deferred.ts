/**
 * A promise a route loader hands over without waiting (shown through `<Deferred>`). Its
 * failure is shown by the screen; if the screen is left before it settles, nobody is
 * there to see it, so it is marked handled here rather than reported as unhandled.
 */
export function deferred<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
