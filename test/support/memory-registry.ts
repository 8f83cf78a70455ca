/** A token registry held in a Map, synchronous as the library client needs: credits per token. */
import type { TokenRegistry } from '../../src/index.js';

export function memoryRegistry(credits: Map<string, number>): TokenRegistry {
  return {
    credits: (token) => credits.get(token),
    consume: (token) => {
      const left = credits.get(token);
      if (left === undefined) return 'unknown';
      if (left <= 0) return 'none-left';
      credits.set(token, left - 1);
      return 'spent';
    },
  };
}
