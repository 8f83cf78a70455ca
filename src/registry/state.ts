/** A served registry's state for /health, with one line on stderr each time it changes. */
import type { RegistryHealth } from './types.js';

export class RegistryState {
  private problem: string | null = null;
  private since = new Date().toISOString();

  constructor(
    private readonly store: RegistryHealth['store'],
    private readonly location: string,
  ) {}

  get ok(): boolean {
    return this.problem === null;
  }

  fail(problem: string): void {
    if (this.problem === null) {
      this.since = new Date().toISOString();
      process.stderr.write(`cpmx serve: process ${process.pid}: the registry is unavailable (${problem}); paying requests answer 503 until it is back\n`);
    }
    this.problem = problem;
  }

  recover(): void {
    if (this.problem === null) return;
    this.problem = null;
    this.since = new Date().toISOString();
    process.stderr.write(`cpmx serve: process ${process.pid}: the registry is available again\n`);
  }

  /** The health report; `problem` overrides with a problem seen just now (a deleted file). */
  report(waiting: number, problem?: string): RegistryHealth {
    const now = problem ?? this.problem;
    const since = problem && this.problem === null ? new Date().toISOString() : this.since;
    return { store: this.store, location: this.location, state: now === null ? 'ok' : 'unavailable', problem: now, since, waiting };
  }
}
