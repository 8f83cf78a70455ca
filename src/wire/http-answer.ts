/** An HTTP answer as the API's answer path and the panel make it, before a transport writes it. */
export interface HttpAnswer {
  status: number;
  /** Flat [name, value, ...]: cheaper for Node than an object built per response. */
  headers: string[];
  /** The body a GET gets; a HEAD gets the same headers and none of it. */
  body: string | Uint8Array;
  /** Set when a credit was spent for this answer: the transport calls it if the answer is never written. */
  refund?: (() => void) | undefined;
  /** Set with `refund`: the transport calls it once the answer is written whole (the credit is then kept for good). */
  delivered?: (() => void) | undefined;
  /** Set on an answer kept whole (body-cache.ts): its headers already end with Content-Length, and it is shared. */
  readonly prepared?: true | undefined;
}
