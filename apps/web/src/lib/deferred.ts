/** Values of deferred promises that have arrived, so a screen can draw them without a loading frame. */
const arrived = new WeakMap<Promise<unknown>, { value: unknown }>();

/**
 * A promise a route loader hands over without waiting (shown through `<Deferred>`). Its
 * failure is shown by the screen; if the screen is left before it settles, nobody is
 * there to see it, so it is marked handled here rather than reported as unhandled. Its
 * value, once it arrives, is remembered for `arrivedValue`.
 */
export function deferred<T>(promise: Promise<T>): Promise<T> {
  promise.then(
    (value) => arrived.set(promise, { value }),
    () => undefined,
  );
  return promise;
}

/**
 * The value of a `deferred` promise that has already arrived (as the parts a loader waited for
 * have), else undefined: drawn at once, such a part takes its place in the first frame instead
 * of replacing a loading text a moment later and moving what is below it (issue 39).
 */
export function arrivedValue<T>(promise: Promise<T>): { value: T } | undefined {
  return arrived.get(promise) as { value: T } | undefined;
}
