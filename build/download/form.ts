/**
 * Reads the export form of CodigoPostal_Exportar.aspx (an ASP.NET WebForms page) and builds the
 * body a browser would post when "Txt" and a state are chosen and the download button pressed.
 *
 * Field names are read from the page, by what each control is: the state list is the <select>
 * offering `00`, the format is the radio (or list) offering `txt`, the button is the image or
 * submit button. The names public scrapers of this page post (cboEdo, rblTipo, btnDescarga, an
 * image button sent as btnDescarga.x/.y) break ties and serve as the fallback. Every hidden
 * field (__VIEWSTATE, __EVENTVALIDATION, ...) is posted back with the value the page gave.
 */
import { DownloadError } from './errors.js';
import { scanHtml, type StartTag } from './html.js';

/** The names the official page has used; see the module comment. */
export const KNOWN_FIELDS = { state: 'cboEdo', format: 'rblTipo', button: 'btnDescarga' } as const;

export const ALL_STATES = '00';
const TXT = 'txt';

interface Option {
  value: string;
  label: string;
  selected: boolean;
}

type Control =
  | { tag: 'input'; type: string; name: string; value: string; checked: boolean; attributes: Map<string, string> }
  | { tag: 'select'; name: string; options: Option[]; multiple: boolean }
  | { tag: 'textarea'; name: string; value: string }
  | { tag: 'button'; type: string; name: string; value: string; attributes: Map<string, string> };

interface Form {
  attributes: Map<string, string>;
  controls: Control[];
}

export interface StateChoice {
  key: string;
  /** As the page shows it, spaces collapsed: `Aguascalientes`, `---------- T o d o s ----------`. */
  label: string;
}

/** The export form as read from the page. */
export interface ExportForm {
  /** Where the form posts: the page's own origin, always. */
  action: URL;
  /** The names found, for messages and for the record. */
  fields: { state: string; format: string; button: string; hidden: string[] };
  /** The state keys the page offers, `00` (all) first as the page lists it. */
  states: StateChoice[];
  /** The body to post for a state key, URL-encoded. */
  body(state: string): string;
}

/** Reads the export form out of the page's HTML; throws DownloadError `page-changed` when it is not there. */
export function readExportForm(html: string, pageUrl: URL): ExportForm {
  const title = pageTitle(html);
  const changed = (what: string) =>
    new DownloadError('page-changed', `the download page ${pageUrl.href}${title ? ` ("${title}")` : ''} ${what}; its form may have changed`);

  const forms = readForms(html);
  if (!forms.length) throw changed('has no form');
  const found = forms.map((form) => ({ form, state: findStateList(form) })).find((candidate) => candidate.state);
  if (!found?.state) throw changed(`has no state list (a <select> offering "${ALL_STATES}", or named ${KNOWN_FIELDS.state})`);
  const { form, state } = found;

  const hidden = form.controls.filter((c): c is Extract<Control, { tag: 'input' }> => c.tag === 'input' && c.type === 'hidden');
  if (!hidden.some((c) => c.name === '__VIEWSTATE')) throw changed('has no __VIEWSTATE hidden field');

  const format = findFormat(form, state);
  if (!format) throw changed(`has no "${TXT}" format choice (a radio or list offering "${TXT}", or named ${KNOWN_FIELDS.format})`);
  if (!format.offersTxt) throw changed(`offers no "${TXT}" format in ${format.name}`);

  const buttons = form.controls.filter(isSubmitButton);
  if (!buttons.length) throw changed('has no download button');
  const button = chooseButton(buttons);
  if (!button) throw changed(`has ${buttons.length} buttons and none is named ${KNOWN_FIELDS.button} or says "descarga"`);

  const method = (form.attributes.get('method') ?? 'get').toLowerCase();
  if (method !== 'post') throw changed(`sends its form by ${method.toUpperCase()}, not POST`);
  const action = resolveAction(form.attributes.get('action'), pageUrl);
  if (!action) throw changed(`has a form action that is not a web address ("${form.attributes.get('action')}")`);
  // The session cookie and the posted state belong to this site: never post them elsewhere.
  if (action.origin !== pageUrl.origin) throw changed(`posts its form to another site (${action.origin})`);

  return {
    action,
    fields: { state: state.name, format: format.name, button: button.name, hidden: hidden.map((c) => c.name) },
    states: state.options.map((o) => ({ key: o.value, label: o.label })),
    body(stateKey) {
      const entries: Array<[string, string]> = [];
      let formatSent = false;
      for (const control of form.controls) {
        if (control === state) {
          entries.push([control.name, stateKey]);
        } else if (control.name === format.name && (control.tag === 'select' || (control.tag === 'input' && control.type === 'radio'))) {
          if (!formatSent) entries.push([format.name, format.value]);
          formatSent = true;
        } else if (control === button) {
          // An image button is sent as the point clicked; WebForms raises the click on `name.x`.
          if (control.tag === 'input' && control.type === 'image') entries.push([`${control.name}.x`, '1'], [`${control.name}.y`, '1']);
          else entries.push([control.name, control.value]);
        } else {
          entries.push(...successfulValues(control));
        }
      }
      return new URLSearchParams(entries).toString();
    },
  };
}

/** The page's <title>, spaces collapsed, for messages; `undefined` when it has none. */
export function pageTitle(html: string): string | undefined {
  let inTitle = false;
  let title = '';
  for (const token of scanHtml(html)) {
    if (token.type === 'start' && token.name === 'title') inTitle = true;
    else if (inTitle && token.type === 'text') title += token.text;
    else if (inTitle) break;
  }
  const clean = collapse(title);
  return clean ? clean.slice(0, 120) : undefined;
}

function readForms(html: string): Form[] {
  const forms: Form[] = [];
  let form: Form | undefined;
  let select: Extract<Control, { tag: 'select' }> | undefined;
  let option: Option | undefined;
  let textarea: Extract<Control, { tag: 'textarea' }> | undefined;
  for (const token of scanHtml(html)) {
    if (token.type === 'text') {
      if (option) option.label += token.text;
      if (textarea) textarea.value += token.text;
      continue;
    }
    if (token.type === 'end') {
      if (token.name === 'form') form = undefined;
      if (token.name === 'select') select = undefined;
      if (token.name === 'option' || token.name === 'select') option = undefined;
      if (token.name === 'textarea') textarea = undefined;
      continue;
    }
    const { name, attributes } = token;
    if (name === 'form') {
      form = { attributes, controls: [] };
      forms.push(form);
      continue;
    }
    option = undefined;
    if (name === 'option' && select) {
      option = { value: attributes.get('value') ?? '', label: '', selected: attributes.has('selected') };
      select.options.push(option);
      continue;
    }
    if (!form || attributes.has('disabled')) continue;
    const control = toControl(token);
    if (!control) continue;
    form.controls.push(control);
    if (control.tag === 'select') select = control;
    if (control.tag === 'textarea') textarea = control;
  }
  for (const each of forms) {
    for (const control of each.controls) {
      if (control.tag !== 'select') continue;
      for (const o of control.options) {
        o.label = collapse(o.label);
        // An option without a value attribute submits its text.
        if (o.value === '' && o.label !== '') o.value = o.label;
      }
    }
  }
  return forms;
}

function toControl({ name, attributes }: StartTag): Control | undefined {
  const controlName = attributes.get('name') ?? '';
  if (name === 'input') {
    const type = (attributes.get('type') ?? 'text').toLowerCase();
    return { tag: 'input', type, name: controlName, value: attributes.get('value') ?? '', checked: attributes.has('checked'), attributes };
  }
  if (name === 'select') return { tag: 'select', name: controlName, options: [], multiple: attributes.has('multiple') };
  if (name === 'textarea') return { tag: 'textarea', name: controlName, value: '' };
  if (name === 'button') {
    return { tag: 'button', type: (attributes.get('type') ?? 'submit').toLowerCase(), name: controlName, value: attributes.get('value') ?? '', attributes };
  }
  return undefined;
}

function findStateList(form: Form): Extract<Control, { tag: 'select' }> | undefined {
  const selects = form.controls.filter((c): c is Extract<Control, { tag: 'select' }> => c.tag === 'select' && c.name !== '');
  const offering = selects.filter((s) => s.options.some((o) => o.value === ALL_STATES));
  return preferKnown(offering, KNOWN_FIELDS.state) ?? selects.find((s) => s.name === KNOWN_FIELDS.state);
}

function findFormat(form: Form, state: Control): { name: string; value: string; offersTxt: boolean } | undefined {
  const offers: Array<{ name: string; value: string }> = [];
  for (const control of form.controls) {
    if (control === state || !control.name) continue;
    if (control.tag === 'input' && control.type === 'radio' && control.value.toLowerCase() === TXT) offers.push(control);
    if (control.tag === 'select') {
      const txt = control.options.find((o) => o.value.toLowerCase() === TXT);
      if (txt) offers.push({ name: control.name, value: txt.value });
    }
  }
  const chosen = preferKnown(offers, KNOWN_FIELDS.format);
  if (chosen) return { ...chosen, offersTxt: true };
  const known = form.controls.some((c) => c.name === KNOWN_FIELDS.format);
  return known ? { name: KNOWN_FIELDS.format, value: TXT, offersTxt: false } : undefined;
}

function isSubmitButton(control: Control): control is Extract<Control, { tag: 'input' | 'button' }> {
  if (!control.name) return false;
  if (control.tag === 'input') return control.type === 'image' || control.type === 'submit';
  return control.tag === 'button' && control.type === 'submit';
}

function chooseButton(buttons: Array<Extract<Control, { tag: 'input' | 'button' }>>) {
  const known = buttons.find((b) => b.name === KNOWN_FIELDS.button);
  if (known) return known;
  if (buttons.length === 1) return buttons[0];
  const says = (b: (typeof buttons)[number]) =>
    [b.name, b.value, b.attributes.get('id'), b.attributes.get('alt'), b.attributes.get('title')].some((s) => s && /descarg/i.test(s));
  const saying = buttons.filter(says);
  return saying.length === 1 ? saying[0] : undefined;
}

function preferKnown<T extends { name: string }>(candidates: T[], known: string): T | undefined {
  return candidates.find((c) => c.name === known) ?? candidates[0];
}

/** What a browser sends for a control it was not asked to change. */
function successfulValues(control: Control): Array<[string, string]> {
  if (!control.name) return [];
  switch (control.tag) {
    case 'input':
      if (control.type === 'radio' || control.type === 'checkbox') return control.checked ? [[control.name, control.value || 'on']] : [];
      if (['image', 'submit', 'button', 'reset', 'file'].includes(control.type)) return [];
      return [[control.name, control.value]];
    case 'select': {
      const selected = control.options.filter((o) => o.selected);
      const sent = selected.length ? (control.multiple ? selected : selected.slice(-1)) : control.multiple ? [] : control.options.slice(0, 1);
      return sent.map((o) => [control.name, o.value]);
    }
    case 'textarea':
      return [[control.name, control.value]];
    case 'button':
      return [];
  }
}

function resolveAction(action: string | undefined, pageUrl: URL): URL | undefined {
  try {
    const url = new URL(action?.trim() || pageUrl.href, pageUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
