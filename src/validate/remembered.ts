/**
 * Answers about names, remembered: the pieces of addresses (states, municipalities, cities,
 * settlements) repeat far more than they vary. Bounded: forgotten all at once when full, so
 * memory stays the same whatever the input.
 */
/** Answers kept at most, per kind. */
const REMEMBERED = 50_000;

export class Remembered<T> {
  private readonly answers = new Map<string, T>();

  constructor(private readonly compute: (key: string) => T) {}

  get(key: string): T {
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = this.compute(key);
      if (this.answers.size >= REMEMBERED) this.answers.clear();
      this.answers.set(key, answer);
    }
    return answer;
  }
}

