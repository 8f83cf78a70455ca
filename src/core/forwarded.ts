/**
 * A bundle's stand-in for a module it loads at first need: an object whose every member is a
 * function calling the same member of `real()`. The method table reads the members when it is
 * made; the module behind them is reached only when one is called.
 */
export function forwarded<T extends object>(real: () => T): T {
  return new Proxy({} as T, {
    get: (_, key) => (...args: unknown[]) => (real()[key as keyof T] as (...args: unknown[]) => unknown)(...args),
  });
}
