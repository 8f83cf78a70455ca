/**
 * Every entry of the name tables (src/core/name-forms.ts), read as people write it, with no
 * catalog: each state form gives its state's key, each title is set aside, each shortened
 * word is its full word, each ordinal its number, each settlement type form its type.
 */
import { describe, expect, it } from 'vitest';
import {
  MUNICIPALITY_TITLES,
  ORDINAL_ENDINGS,
  CARDINAL_WORDS,
  ORDINAL_WORDS,
  SETTLEMENT_TYPE_FORMS,
  STATE_FORMS,
  STATE_PREFIXES,
  STATE_SUFFIXES,
  WORD_FORMS,
} from '../../src/core/name-forms.js';
import { foldForMatch, municipalityKeys, nameKey, nameWords, sameMunicipality, SettlementMatcher, settlementKey, splitSettlementType, stateKeyOf } from '../../src/core/names.js';
import { looseSectionless } from '../../src/core/settlement-other-keys.js';

/** The ways one written form is typed: as listed, upper, lower, without dots, without dots and spaces. */
function variants(form: string): string[] {
  const undotted = form.replaceAll('.', ' ').replace(/\s+/g, ' ').trim();
  return [...wordVariants(form), undotted.replaceAll(' ', '')];
}

/** The ways a form is typed before other words: as listed, upper, lower, without dots, padded. */
function wordVariants(form: string): string[] {
  const undotted = form.replaceAll('.', ' ').replace(/\s+/g, ' ').trim();
  return [form, form.toUpperCase(), form.toLowerCase(), undotted, ` ${form} `];
}

describe('state forms', () => {
  it('has the 32 states, keys 1 to 32, each ISO code once', () => {
    expect(STATE_FORMS.map((state) => state.key)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect(new Set(STATE_FORMS.map((state) => state.iso)).size).toBe(32);
  });

  for (const state of STATE_FORMS) {
    it(`reads every form of ${state.name} as key ${state.key}`, () => {
      for (const form of [state.name, state.iso, `MX-${state.iso}`, ...state.forms]) {
        for (const written of variants(form)) expect(stateKeyOf(written), written).toBe(state.key);
      }
      expect(stateKeyOf(String(state.key).padStart(2, '0'))).toBe(state.key);
      expect(stateKeyOf(String(state.key))).toBe(state.key);
      for (const prefix of STATE_PREFIXES) expect(stateKeyOf(`${prefix} ${state.forms[0]}`), prefix).toBe(state.key);
      for (const suffix of STATE_SUFFIXES) expect(stateKeyOf(`${state.forms[0]}, ${suffix}`), suffix).toBe(state.key);
    });
  }

  it('reads the forms the issue lists, and no state from other text', () => {
    const listed: Record<string, number> = {
      'Ags.': 1, 'B.C.': 2, 'B.C.S.': 3, 'Camp.': 4, 'Chis.': 7, 'Chih.': 8, CDMX: 9, 'D.F.': 9, 'Coah.': 5, 'Col.': 6, 'Dgo.': 10,
      'Gto.': 11, 'Gro.': 12, 'Hgo.': 13, 'Jal.': 14, 'Edo. Méx.': 15, EDOMEX: 15, 'Mich.': 16, 'Mor.': 17, 'Nay.': 18, 'N.L.': 19,
      'Oax.': 20, 'Pue.': 21, 'Qro.': 22, 'Q. Roo': 23, 'S.L.P.': 24, 'Sin.': 25, 'Son.': 26, 'Tab.': 27, 'Tamps.': 28, 'Tlax.': 29,
      'Ver.': 30, 'Yuc.': 31, 'Zac.': 32, NLE: 19, 'MX-NLE': 19, '19': 19, '09': 9,
    };
    for (const [form, key] of Object.entries(listed)) expect(stateKeyOf(form), form).toBe(key);
    for (const other of ['', '  ', 'Texas', '0', '00', '33', '99', 'N', 'L', 'Nuevo', 'Colonia', 'Roma Norte', 'Edo.', 'México D.F. Jalisco']) {
      expect(stateKeyOf(other), other).toBe(-1);
    }
  });
});

describe('municipality titles', () => {
  for (const title of MUNICIPALITY_TITLES) {
    it(`sets aside "${title}"`, () => {
      for (const written of wordVariants(`${title} Iztapalapa`)) {
        expect(municipalityKeys(written), written).toContain('iztapalapa');
      }
      expect(sameMunicipality(`${title} Gral. Escobedo`, 'General Escobedo')).toBe(true);
      expect(sameMunicipality(`${title} Iztapalapa`, 'Coyoacán')).toBe(false);
    });
  }

  it('reads a name that starts like a title as the name first (Del Nayar), and Cd. in front', () => {
    expect(municipalityKeys('Del Nayar')[0]).toBe(nameKey('Del Nayar'));
    expect(sameMunicipality('Cd. Victoria', 'Victoria')).toBe(true);
    expect(sameMunicipality('Cd. Madero', 'Ciudad Madero')).toBe(true);
    expect(sameMunicipality('Sn. Pedro Garza García', 'San Pedro Garza García')).toBe(true);
    expect(sameMunicipality('Sta. Catarina', 'Santa Catarina')).toBe(true);
    expect(sameMunicipality('Sta. Catarina', 'Santa Catarina Juquila')).toBe(false);
  });
});

describe('shortened words', () => {
  for (const [short, full] of Object.entries(WORD_FORMS)) {
    it(`reads ${short} as ${full}`, () => {
      // Letters run together are written with dots between them (U.H.); others with one after.
      const written = short.length === 2 && full.includes(' ') ? `${short[0]}.${short[1]}.` : `${short}.`;
      for (const form of wordVariants(`${written} Juárez`)) expect(settlementKey(form), form).toBe(settlementKey(`${full} Juárez`));
      expect(settlementKey(`${full.toUpperCase()} JUÁREZ`)).toBe(`${full} juarez`);
    });
  }
});

describe('ordinals and roman numerals', () => {
  for (const [word, value] of Object.entries(ORDINAL_WORDS)) {
    it(`reads ${word} as ${value}`, () => {
      // A section's number is read after its word, whichever comes first.
      expect(settlementKey(`${word} Sección`)).toBe(`seccion ${value}`);
      expect(settlementKey(`${word.toUpperCase()} SECC.`)).toBe(`seccion ${value}`);
    });
  }

  it('reads every written ending as the number alone', () => {
    for (const ending of ORDINAL_ENDINGS) {
      expect(settlementKey(`3${ending}. Sección`), ending).toBe('seccion 3');
      expect(settlementKey(`12${ending} Sección`), ending).toBe('seccion 12');
    }
    expect(settlementKey('1º de Mayo')).toBe(settlementKey('Primero de Mayo'));
    expect(settlementKey('2ª Sección')).toBe(settlementKey('Segunda Sección'));
    // Either order of a section's number and word (`Las Puentes 8vo. Sector`, a real record, is the catalog's *Las Puentes Sector 8*).
    expect(settlementKey('Las Puentes 8vo. Sector')).toBe(settlementKey('Las Puentes Sector 8'));
    expect(settlementKey('2a. Etapa Villas')).toBe('etapa 2 villas');
    // A key read again is the same key: a word with its number after it already stays.
    expect(settlementKey('Chihuahua 2000 I Etapa')).toBe('chihuahua 2000 etapa 1');
    expect(settlementKey(settlementKey('Chihuahua 2000 I Etapa'))).toBe('chihuahua 2000 etapa 1');
    // A number alone before another word stays where it is.
    expect(settlementKey('5 de Mayo')).toBe('5 de mayo');
  });

  it('reads numbers written as words as numbers, and no article', () => {
    const words = CARDINAL_WORDS.split(' ');
    for (const [i, word] of words.entries()) expect(settlementKey(`${word} de Mayo`), word).toBe(`${i + 1} de mayo`);
    expect(words.length).toBe(30);
    expect(words[15]).toBe('dieciseis');
    // State and municipality names are read without them (`nameKey`): only settlements need them.
    expect(nameKey('Tres Valles')).toBe('tres valles');
    expect(settlementKey('Tres Caminos')).toBe(settlementKey('3 Caminos'));
    expect(settlementKey('Dieciséis de Septiembre')).toBe(settlementKey('16 de Septiembre'));
    expect(settlementKey('La Una')).toBe('la una');
  });

  it('reads roman numerals as numbers, and other letters as letters', () => {
    const romans: Record<string, number> = { I: 1, II: 2, III: 3, IV: 4, V: 5, VI: 6, IX: 9, X: 10, XIV: 14, XX: 20, XL: 40 };
    for (const [roman, value] of Object.entries(romans)) expect(settlementKey(`Infonavit ${roman}`), roman).toBe(`infonavit ${value}`);
    for (const letters of ['IIII', 'VV', 'IL', 'C', 'D', 'M', 'Z']) expect(settlementKey(`Sección ${letters}`)).toBe(`seccion ${letters.toLowerCase()}`);
  });
});

describe('settlement types', () => {
  for (const [type, forms] of Object.entries(SETTLEMENT_TYPE_FORMS)) {
    it(`reads every form of ${type}`, () => {
      for (const form of [type, ...forms]) {
        for (const written of wordVariants(form)) {
          expect(splitSettlementType(`${written} Las Palmas`), written).toEqual({ type, name: 'Las Palmas' });
        }
      }
    });
  }

  it('reads every form the README lists, through the words written out', () => {
    const listed: Record<string, string[]> = {
      Colonia: ['Col.', 'Cols.', 'Colonia'],
      Fraccionamiento: ['Fracc.', 'Frac.', 'Fracto.'],
      'Unidad habitacional': ['U.H.', 'UH', 'Unidad Hab.', 'Unid. Hab.', 'U. Hab.'],
      'Conjunto habitacional': ['Conj. Hab.', 'C.H.', 'Conj. Habitacional', 'Conjunto Hab.'],
      Barrio: ['Bo.', 'Bno.'],
      Pueblo: ['Pblo.', 'Pbo.'],
      'Poblado comunal': ['Poblado', 'Pob.'],
      Ejido: ['Ej.', 'Ejd.'],
      Residencial: ['Res.', 'Resid.'],
      Rancho: ['Rcho.'],
      Ranchería: ['Ranch.', 'Rancheria'],
      Hacienda: ['Hda.'],
      Exhacienda: ['Ex-Hacienda', 'Ex Hacienda', 'Ex Hda.', 'Exhda.'],
      Condominio: ['Cond.', 'Condom.'],
      Ampliación: ['Amp.', 'Ampl.'],
      Supermanzana: ['Sm.', 'SMZA', 'Super Manzana'],
      'Parque industrial': ['Parq. Ind.', 'P.I.', 'Parque Ind.'],
      'Zona industrial': ['Zona Ind.'],
      Aeropuerto: ['Aerop.'],
      Campamento: ['Camp.'],
      Congregación: ['Congr.', 'Cong.'],
      Equipamiento: ['Equip.'],
      Estación: ['Est.'],
      Puerto: ['Pto.'],
    };
    for (const [type, forms] of Object.entries(listed)) {
      for (const form of forms) for (const written of wordVariants(form)) expect(splitSettlementType(`${written} Las Palmas`), written).toEqual({ type, name: 'Las Palmas' });
    }
  });

  it('keeps a type with nothing after it as the name, and a name with no type whole', () => {
    expect(splitSettlementType('Colonia')).toEqual({ type: null, name: 'Colonia' });
    expect(splitSettlementType('  Granjas Esmeralda ')).toEqual({ type: null, name: 'Granjas Esmeralda' });
    expect(splitSettlementType('COL. GRANJAS ESMERALDA')).toEqual({ type: 'Colonia', name: 'GRANJAS ESMERALDA' });
    expect(splitSettlementType('Colonial Iztapalapa')).toEqual({ type: null, name: 'Colonial Iztapalapa' });
  });
});

describe('SettlementMatcher', () => {
  const matcher = new SettlementMatcher(
    ['Granjas Esmeralda', 'Santa María 1a. Sección', 'Granada', 'Ampliación Granada', 'Colonia México', 'Centinela', 'Unidad Habitacional Vicente Guerrero', 'A.S.A.'],
    ['Colonia', 'Colonia', 'Colonia', 'Colonia', 'Colonia', 'Ampliación', 'Unidad habitacional', 'Unidad habitacional'],
  );

  it('gives the catalog spelling of every usual form', () => {
    const forms: Record<string, string> = {
      'COL. GRANJAS ESMERALDA': 'Granjas Esmeralda',
      'Fracc. Granjas Esmeralda': 'Granjas Esmeralda',
      'granjas  esmeralda': 'Granjas Esmeralda',
      'Sta. Ma. Primera Secc.': 'Santa María 1a. Sección',
      'COLONIA SANTA MARIA 1RA SECCION': 'Santa María 1a. Sección',
      'Amp. Granada': 'Ampliación Granada',
      'Granada': 'Granada',
      'Col. Granada': 'Granada',
      'Col. México': 'Colonia México',
      México: 'Colonia México',
      'Amp. Centinela': 'Centinela',
      'U.H. Vicente Guerrero': 'Unidad Habitacional Vicente Guerrero',
      'Vicente Guerrero': 'Unidad Habitacional Vicente Guerrero',
      'Col. Vicente Guerrero': 'Unidad Habitacional Vicente Guerrero',
      // A type's letters end their run at a space: the name after it is letters of its own.
      'U.H. A.S.A.': 'A.S.A.',
      'U. H. A.S.A.': 'A.S.A.',
    };
    for (const [written, spelling] of Object.entries(forms)) expect(matcher.match(written), written).toBe(spelling);
  });

  it('never takes a different place: a distinguishing type, another number, another name', () => {
    const m = new SettlementMatcher(['Granada', 'Santa María 2a. Sección'], ['Colonia', 'Colonia']);
    for (const wrong of ['Amp. Granada', 'Ampliación Granada', 'Santa María 1a. Sección', 'Col. Santa María', 'Granjas', 'Col.', '', '...']) {
      expect(m.match(wrong), wrong).toBeUndefined();
    }
    expect(new SettlementMatcher(['Ampliación Granada'], ['Colonia']).match('Granada')).toBeUndefined();
  });
});

describe('words that are names of Object’s own properties', () => {
  it('reads them as words, never as table entries', () => {
    for (const word of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'prototype']) {
      expect(settlementKey(`Crédito ${word}`)).toBe(`credito ${word.toLowerCase().replaceAll('_', ' ').trim()}`);
      expect(splitSettlementType(`Col. ${word}`)).toEqual({ type: 'Colonia', name: word });
      expect(stateKeyOf(word)).toBe(-1);
      expect(municipalityKeys(`Mpio. ${word}`)).toContain(nameKey(word));
    }
  });
});

describe('the Latin-1 scan of words', () => {
  it('reads as the general path does (text with a character past Latin-1 takes it), whatever its runs are made of: as they are, upper case, accented', () => {
    for (const text of ['Sta. María 1a. Secc.', 'COL. GRANJAS ESMERALDA', '1º de Mayo', 'U.H. Ejército de Oriente II', 'Ex-Hacienda «San Juan»', 'Niño µ ß ÿ', 'granjas esmeralda internacionales 2a', 'ÁLVARO obregÓn', '  ', '']) {
      expect(nameWords(`${text} \u2014`), text).toEqual({ words: nameWords(text).words, ends: nameWords(text).ends });
    }
  });
});

describe('a settlement without its section', () => {
  it('sets aside a section or a side, never a side after a joining word, which is the name’s own', () => {
    expect(looseSectionless(settlementKey('Lindavista Norte'))).toBe('lindavista');
    expect(looseSectionless(settlementKey('Escandón II Sección'))).toBe('escandon');
    expect(looseSectionless(settlementKey('Del Valle Centro'))).toBe('valle');
    // *Villa del Sur* is no section of a *Villa*, nor *Ejército de Oriente* of an *Ejército*.
    for (const name of ['Villa del Sur', 'Ejército de Oriente', 'Lomas del Centro', 'Jardines del Sur']) expect(looseSectionless(settlementKey(name)), name).toBe('');
    // A section named as one still is, whatever ends the name before it.
    expect(looseSectionless(settlementKey('Jardines del Sur 2a Sección'))).toBe('jardines sur');
  });
});

describe('the folds’ fast paths agree with their general forms', () => {
  it('folds plain ASCII names by lower-casing exactly as the Unicode fold does', () => {
    const general = (text: string) =>
      text
        .normalize('NFD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .replace(/[\p{P}\p{S}]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    const samples = ['GRANJAS ESMERALDA', 'Roma Norte', 'SECCION 2', 'a', '', ' LEADING', 'TRAILING ', 'TWO  SPACES', 'TAB\tHERE', 'Col. Roma', 'JOSÉ', 'Ñ', 'x\u0010y', '9 DE MAYO', 'Z@Z', 'A_B', 'A[B]'];
    for (const text of samples) expect(foldForMatch(text), JSON.stringify(text)).toBe(general(text));
    // Every ASCII character alone and between letters.
    for (let c = 0; c < 0x80; c++) {
      const char = String.fromCharCode(c);
      for (const text of [char, `A${char}B`, `a${char}${char}b`]) expect(foldForMatch(text), JSON.stringify(text)).toBe(general(text));
    }
  });
});
