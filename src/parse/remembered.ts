/**
 * Answers about names, remembered: the pieces of addresses (states, municipalities, cities,
 * settlements) repeat far more than they vary. Bounded: forgotten all at once when full, so
 * memory stays the same whatever the input.
 */
import { ownCopy } from '../core/own-copy.js';

/** Answers kept at most, per kind. */
const REMEMBERED = 50_000;
/** Keys longer than this (no catalog name is) are not kept. */
const MAX_KEY_CHARS = 256;

export class Remembered<T> {
  private readonly answers = new Map<string, T>();

  constructor(private readonly compute: (key: string) => T) {}

  get(key: string): T {
    let answer = this.answers.get(key);
    if (answer === undefined) {
      // Longer keys than any name are answered afresh: memory bounded by bytes, not only by count.
      if (key.length > MAX_KEY_CHARS) return this.compute(key);
      // The answer is made from the kept copy, so what it holds of the key holds no input either.
      const kept = ownCopy(key);
      answer = this.compute(kept);
      if (this.answers.size >= REMEMBERED) this.answers.clear();
      this.answers.set(kept, answer);
    }
    return answer;
  }
}

