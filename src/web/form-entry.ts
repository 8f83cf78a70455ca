/**
 * cpmx/web/form: the address form's selects and code field bound to a `cpmx/web` client
 * (src/web/form.ts), an entry of its own so that an app that only looks codes up does not load it.
 */
export { bindAddressForm, type AddressForm, type AddressFormElements, type InputLike, type OptionLike, type SelectLike } from './form.js';
