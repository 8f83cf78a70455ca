// msgpackr's unpack-only bundle has no types of its own; it exports the Unpackr of the full package.
declare module 'msgpackr/unpack-no-eval' {
  export { Unpackr } from 'msgpackr';
}
