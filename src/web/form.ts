/**
 * The address form most COPOMEX clients build, without a framework: a state select, its
 * municipalities, their settlements, and a postal-code field that fills all three. Plain
 * `<select>` and `<input>` elements stay keyboard accessible as they are; while a list loads
 * its select is disabled and `aria-busy`, and an answer that arrives after a newer choice is
 * dropped (its fetch aborted). Elements are typed by what is used of them, so this file needs
 * no DOM types and the rest of cpmx/web none either.
 */
import { isSuccess } from '../core/contract.js';
import type { WebClient } from './client.js';

export interface OptionLike {
  value: string;
  textContent: string | null;
}

/** A `<select>`. */
export interface SelectLike {
  value: string;
  disabled: boolean;
  options: { length: number };
  ownerDocument: { createElement(tag: 'option'): OptionLike };
  /** Given what `createElement('option')` made. */
  // biome-ignore lint/suspicious/noExplicitAny: a DOM select's add takes its own option type, which OptionLike cannot name without the DOM's types
  add(option: any): void;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  addEventListener(type: 'change', listener: () => void): void;
}

export interface InputLike {
  value: string;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  addEventListener(type: 'input', listener: () => void): void;
}

export interface AddressFormElements {
  client: WebClient;
  estado: SelectLike;
  municipio: SelectLike;
  colonia: SelectLike;
  /** The postal-code field: five digits typed fill the three selects. */
  cp?: InputLike | undefined;
  /** The first, empty option of each select (default `—`). */
  placeholder?: string | undefined;
  /** Told of a code the catalog does not have (the field also gets `aria-invalid`) and of a tree that cannot answer. */
  onError?: ((error: unknown) => void) | undefined;
}

export interface AddressForm {
  /** Settles once the state list is in. */
  ready: Promise<void>;
}

export function bindAddressForm(elements: AddressFormElements): AddressForm {
  const { client, estado, municipio, colonia, cp, placeholder = '—', onError = () => {} } = elements;
  const loads = new Map<SelectLike, AbortController>();

  /** Empties a select down to its placeholder; `enabled` says whether it may be chosen from. */
  const clear = (select: SelectLike, enabled = false) => {
    loads.get(select)?.abort();
    loads.delete(select);
    select.options.length = 0;
    const option = select.ownerDocument.createElement('option');
    option.value = '';
    option.textContent = placeholder;
    select.add(option);
    select.disabled = !enabled;
    select.removeAttribute('aria-busy');
  };

  /** Fills a select with what `list` answers (names, or an error: empty), the newest call winning. */
  const fill = async (select: SelectLike, list: (call: { signal: AbortSignal }) => Promise<string[] | undefined>, chosen = '') => {
    clear(select);
    const controller = new AbortController();
    loads.set(select, controller);
    select.setAttribute('aria-busy', 'true');
    let names: string[] | undefined;
    try {
      names = await list({ signal: controller.signal });
    } catch (error) {
      if (!controller.signal.aborted) onError(error);
    }
    if (controller.signal.aborted) return;
    loads.delete(select);
    select.removeAttribute('aria-busy');
    for (const name of names ?? []) {
      const option = select.ownerDocument.createElement('option');
      option.value = name;
      option.textContent = name;
      select.add(option);
    }
    select.value = chosen;
    select.disabled = !names?.length;
  };

  const fillMunicipios = (chosen?: string) =>
    fill(municipio, async (call) => {
      const body = await client.getMunicipioPorEstado(estado.value, call);
      return isSuccess(body) ? body.response.municipios : undefined;
    }, chosen);

  estado.addEventListener('change', () => {
    clear(colonia);
    if (estado.value) void fillMunicipios();
    else clear(municipio);
  });
  municipio.addEventListener('change', () => {
    if (!municipio.value) return clear(colonia);
    void fill(colonia, async (call) => {
      const body = await client.getColoniaPorEstadoMunicipio(estado.value, municipio.value, call);
      return isSuccess(body) ? body.response.colonia : undefined;
    });
  });
  let typed: AbortController | undefined;
  cp?.addEventListener('input', async () => {
    typed?.abort();
    cp.removeAttribute('aria-invalid');
    if (!/^[0-9]{5}$/.test(cp.value)) return;
    const controller = (typed = new AbortController());
    try {
      const body = await client.infoCp(cp.value, { type: 'simplified' }, { signal: controller.signal });
      if (controller.signal.aborted) return;
      if (!isSuccess(body)) {
        cp.setAttribute('aria-invalid', 'true');
        return onError(body);
      }
      const found = body.response;
      estado.value = found.estado;
      void fill(colonia, async () => found.asentamiento, found.asentamiento.length === 1 ? found.asentamiento[0] : '');
      await fillMunicipios(found.municipio);
    } catch (error) {
      if (!controller.signal.aborted) onError(error);
    }
  });

  clear(municipio);
  clear(colonia);
  const ready = fill(estado, async (call) => {
    const body = await client.getEstados(call);
    return isSuccess(body) ? body.response.estado : undefined;
  });
  return { ready };
}
