// The CommonJS entries on each Node tested (the CommonJS build: require of an ES module needs 20.19).
const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { createClient, createMiddleware } = require('cpmx');
const { validateAddress } = require('cpmx/validate');

describe("require('cpmx')", () => {
  it('answers lookups from the artifact', () => {
    const client = createClient({ token: 'demo' });
    assert.equal(client.infoCp('09810', { type: 'simplified' }).response.municipio, 'Iztapalapa');
    assert.equal(typeof createMiddleware, 'function');
  });

  it("require('cpmx/validate') validates with that client", () => {
    const result = validateAddress(createClient({ token: 'demo' }), { cp: '1000' });
    assert.equal(result.valid, false);
    assert.deepEqual(result.suggestions, { cp: '01000' });
  });
});
