/**
 * The one-line parser at its edges, on the real catalog: the written code survives any word
 * before it. `\b` in a JS regex is ASCII, so the final `n` of `León` read as `N.` (número) and
 * the code after it became a street number (issue 33: `Mazatlán 82110` answered 82100). One
 * test per class of character before a code, and 2,000 generated lines from the catalog.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/core/catalog.js';
import type { CpmxClient } from '../../src/index.js';
import { parseAddress } from '../../src/validate/index.js';
import { buildRealCatalog, tempDir } from '../helpers.js';
import { accentedLines, codesLost } from '../support/pipeline-cases.js';

const dir = tempDir();
let catalog: Catalog;
let client: CpmxClient;

beforeAll(async () => ({ catalog, client } = await buildRealCatalog(dir, 'parse-edges')));

describe('a written code after a word', () => {
  it('is kept after the issue’s lines, and judged against the catalog', () => {
    expect(parseAddress(client, 'Monterrey, Nuevo León 64000')).toMatchObject({ cp: '64000', municipio: 'Monterrey', valid: true });
    expect(parseAddress(client, 'Mazatlán 82110')).toMatchObject({ cp: '82110', valid: true });
    expect(parseAddress(client, 'Col. Las Américas, Hidalgo, Michoacán 61136')).toMatchObject({ cp: '61136', estado: 'Michoacán de Ocampo' });
    expect(parseAddress(client, 'Col. Centro, León 37000')).toMatchObject({ cp: '37000', municipio: 'León', valid: true });
  });

  const classes: [string, string[]][] = [
    ['an accented vowel and n', ['León', 'LEÓN', 'Mazatlán', 'Michoacán', 'Tecún', 'Belén']],
    ['ñ', ['Toñ', 'PEÑ', 'Cañón']],
    ['ü', ['Pingü', 'GÜ']],
    ['other letters past ASCII', ['Zoé', 'Ixtapalucá', 'Ölé', 'Ça']],
    ['a digit', ['Calle 5', 'Mz 3 Lt 4 Calle 7', '2a']],
    ['punctuation', ['León,', 'León.', 'León;', 'León:', '(León)', 'León -', 'León/', '"León"', '«León»']],
  ];
  for (const [what, words] of classes) {
    it(`is kept after a word ending in ${what}`, () => {
      for (const word of words) {
        const parsed = parseAddress(client, `Av. Juárez 100, Col. Centro, ${word} 37000`);
        expect(parsed.cp, word).toBe('37000');
        expect(parsed.inferred, word).not.toContain('cp');
      }
    });
  }

  it('is still a street number after a number word (No., Núm., Int., Lote, Mz.)', () => {
    for (const word of ['No.', 'Núm.', 'Int.', 'Lote', 'Mz.', '#']) {
      const parsed = parseAddress(client, `Calle Hidalgo ${word} 37000, Col. Centro, León, Gto.`);
      expect(parsed.numero_exterior ?? parsed.numero_interior, word).toContain('37000');
    }
  });

  it('survives 2,000 generated lines whose code follows a word ending in an accented vowel and n', () => {
    const lines = accentedLines(catalog, 2000, 33);
    expect(codesLost(client, lines)).toEqual([]);
  });
});

describe('hostile lines', () => {
  it('answer with a code or a reason, never throw: many five-digit groups, only accented words, bidi and zero-width marks, the longest line', () => {
    const many = Array.from({ length: 150 }, (_, i) => String(10000 + i * 7)).join(' ');
    expect(parseAddress(client, many).errors).toBeDefined();
    expect(parseAddress(client, `${'León '.repeat(200)}37000`.slice(-1024)).cp).toBe('37000');
    expect(parseAddress(client, 'Ñuñoa Piñón Güemez Mazatlán').cp).toBeNull();
    expect(parseAddress(client, 'Col. Centro, \u202eLeón\u202c 37000').cp).toBe('37000');
    expect(parseAddress(client, 'Col. Centro, León\u200b 37000').cp).toBe('37000');
    expect(parseAddress(client, `${'x'.repeat(1025)} 37000`).errors[0]).toMatchObject({ code_error: 130 });
    expect(parseAddress(client, 'Col. Centro\u0000 37000').errors[0]).toMatchObject({ code_error: 130, reason: 'binary data, not text' });
  });
});

describe('a line’s first piece and a road’s kilometre', () => {
  // Vehicle inspection centres of Mexico City and the State of Mexico, without codes
  // (https://github.com/Alfull/VerificacionVehicular/blob/06127d8ab322fcf51495d5f5e1351e9a3d033a15/Resources/verificentros.js).
  it('reads a first piece whose name ends with a number as the street, whatever word leads it', () => {
    // `Rancho` is a settlement's type, but `RANCHO SAN LORENZO 153` is the street: GIRASOLES (Coyoacán's *Los Girasoles*) the settlement.
    expect(parseAddress(client, 'RANCHO SAN LORENZO 153, GIRASOLES, COYOACAN, DISTRITO FEDERAL')).toMatchObject({
      calle: 'RANCHO SAN LORENZO',
      numero_exterior: '153',
      asentamiento: 'Los Girasoles',
      cp: '04920',
    });
    // A settlement whose name is a number stays one (`Sm. 51`, Cancún's supermanzanas).
    expect(parseAddress(client, 'Sm. 51, Mz. 23, Lote 10').tipo_asentamiento).toBe('Supermanzana');
  });

  it('leaves a type’s de out of a settlement the catalog does not have, and reads the type as the name’s own where that names one', () => {
    // A vehicle-inspection centre (Alfull/VerificacionVehicular): *Ex-Hacienda Coapa* is a Colonia of 04980.
    expect(parseAddress(client, 'CALZ. DEL HUESO 570, EXHACIENDA DE COAPA, COYOACAN, DISTRITO FEDERAL')).toMatchObject({ asentamiento: 'Ex-Hacienda Coapa', cp: '04980', valid: true });
    expect(parseAddress(client, 'CALZ. DEL HUESO 570, EXHACIENDA DE TLALPIZAHUAC, COYOACAN, DISTRITO FEDERAL')).toMatchObject({ asentamiento: 'TLALPIZAHUAC', tipo_asentamiento: 'Exhacienda', cp: null });
    // `del` is part of the name: *Del Valle*, *Del Carmen*.
    expect(parseAddress(client, 'COL DEL CARMEN 64710 MONTERREY,N.L.')).toMatchObject({ asentamiento: 'Del Carmen', valid: true });
  });

  it('reads a road named by the towns it joins as one street, and a street in parentheses as no settlement', () => {
    // A university's page (cpmx search index file 56691040651): the road's dash is spaced, and Tula is no settlement.
    expect(parseAddress(client, 'Carr. Mixquiahuala - Tula, km 2.5, Mixquiahuala de Juárez, Hidalgo, C.P. 42700')).toMatchObject({
      calle: 'Carr. Mixquiahuala-Tula',
      numero_exterior: 'km 2.5',
      asentamiento: null,
      cp: '42700',
      valid: true,
    });
    // A page's address (cpmx search index file 17862947881): `(calle 40)` names the street, not the settlement.
    expect(parseAddress(client, 'Corregidora No. 500 (calle 40), C.P. 44420, Guadalajara, Jalisco, México.')).toMatchObject({ calle: 'Corregidora', asentamiento: null, valid: true });
    // A kilometre ending the street is its number whole.
    expect(parseAddress(client, 'CARRETERA MEXICO - QUERETARO KM 38, COL. CENTRO, CUAUTITLAN IZCALLI, MEX')).toMatchObject({ calle: 'CARRETERA MEXICO-QUERETARO', numero_exterior: 'KM 38' });
  });

  it('reads a road’s kilometre as its number, never as the settlement', () => {
    expect(parseAddress(client, 'CARR. MEXICO-TEXCOCO, KM. 25.5, CHIMALHUCAN, CHIMALHUACAN, ESTADO DE MEXICO')).toMatchObject({
      calle: 'CARR. MEXICO-TEXCOCO',
      numero_exterior: 'KM. 25.5',
      municipio: 'Chimalhuacán',
    });
    // The number written first is kept; the settlement after the kilometre is read.
    expect(parseAddress(client, 'CARRETERA MEXICO-CUAUTLA, S/N, KM. 38.5, LAS GRANJAS, CHALCO, ESTADO DE MEXICO')).toMatchObject({
      calle: 'CARRETERA MEXICO-CUAUTLA',
      numero_exterior: 'S/N',
      asentamiento: 'LAS GRANJAS',
      municipio: 'Chalco',
    });
  });
});
