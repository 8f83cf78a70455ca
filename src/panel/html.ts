/**
 * HTML escaped by construction: every page is written with the `html` tag, which escapes each
 * value put into it unless that value is itself made by `html`. There is no other way to make
 * an `Html`, so a name typed by a user (an account's, a project's) can only ever reach a page
 * as text. Attributes are always written quoted in the templates; the escape covers `"` and
 * `'` so a value cannot leave its attribute either.
 */

const SAFE = Symbol('html');

export class Html {
  /** Only `html` can make one: the symbol is not exported. */
  constructor(
    key: typeof SAFE,
    readonly text: string,
  ) {
    if (key !== SAFE) throw new Error('Html is made by the html tag only');
  }

  toString(): string {
    return this.text;
  }
}

/** What may go into a template: text (escaped), numbers, fragments, lists, or nothing. */
export type Content = string | number | Html | null | undefined | false | readonly Content[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: Content): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return escapeText(value);
  let out = '';
  for (const item of value) out += render(item);
  return out;
}

export function html(strings: TemplateStringsArray, ...values: Content[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(SAFE, out);
}
