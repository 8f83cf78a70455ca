/**
 * Answers made as JSON text, for adapters that write bytes (the HTTP responder hands
 * `answerAsText` to the router): the code is looked up now, its text (the same as the body
 * serialised) made only when the bytes are not already held, and the body object only if
 * read. Apart from the method table and the router, so that the browser module (cpmx/web),
 * which never writes bytes, carries none of it.
 */
import { failure, type Body } from '../contract.js';
import { errorAnswer, type Answer, type AnswerMaker, type Credit } from '../router.js';
import { answerInfoCp, infoCpText } from './info-cp.js';

/** A success whose body is made only when read: an adapter that writes bytes sends `text()`. */
class TextAnswer implements Answer {
  readonly status = 200;
  #body: Body | undefined;
  constructor(
    readonly text: () => string,
    readonly credit: Credit,
    readonly token: string,
    readonly make: () => Body,
  ) {}

  get body(): Body {
    return (this.#body ??= this.make());
  }
}

export const answerAsText: AnswerMaker = (request, token, { catalog }) => {
  if (request.method !== 'info_cp') return undefined;
  const { cp, simplified } = request;
  const text = infoCpText(catalog(), cp, simplified);
  if (text === 105) return errorAnswer(105, token, 'check');
  return new TextAnswer(text, 'spend', token, () => {
    const body = answerInfoCp(catalog(), cp, simplified);
    return body === 105 ? failure(105) : body;
  });
};
