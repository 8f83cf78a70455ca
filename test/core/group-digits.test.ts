import { describe, expect, it } from 'vitest';
import { groupDigits } from '../../src/core/format.js';

// Texts built at import use groupDigits instead of toLocaleString (which loads ICU's locale data
// and cost the library's cold start ~15 ms): it must write what toLocaleString('en-US') writes.
describe('groupDigits', () => {
  it('groups thousands as en-US does, for every size', () => {
    for (const value of [0, 7, 999, 1000, 2500, 12345, 999999, 1000000, 32166, 145092, 1234567890]) {
      expect(groupDigits(value)).toBe(value.toLocaleString('en-US'));
    }
  });
});
