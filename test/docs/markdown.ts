/**
 * What the documentation tests read of the Markdown: the pages (README.md and docs/), their
 * headings as GitHub anchors them, their relative links, and their fenced code blocks with the
 * `<!-- not run: REASON -->` marker that may stand right before a fence.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from '../helpers.js';

/** README.md and every Markdown file under docs/, as paths relative to the repository root. */
export function documentationPages(): string[] {
  const docs = readdirSync(join(root, 'docs'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
  return ['README.md', ...docs.sort()];
}

export interface Line {
  text: string;
  /** 1-based. */
  number: number;
}

/** The page's lines outside fenced code blocks (fences included in neither). */
function proseLines(markdown: string): Line[] {
  const prose: Line[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((text, index) => {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(text);
    if (fence === undefined && opening) fence = opening[1];
    else if (fence !== undefined && opening && opening[1]!.startsWith(fence[0]!) && opening[1]!.length >= fence.length && text.trim() === opening[1]) fence = undefined;
    else if (fence === undefined) prose.push({ text, number: index + 1 });
  });
  return prose;
}

/** A heading's text as GitHub renders it: inline code, links, emphasis and images reduced to their words. */
function headingText(source: string): string {
  return source
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__|\*)/g, '')
    .trim();
}

/**
 * GitHub's anchor for a heading (as github-slugger makes it): lower case, every character that
 * is not a letter, a mark, a number, a connector (`_`), a space or a hyphen dropped (accents
 * stay: `contraseña`), spaces made hyphens; a repeated slug gets `-1`, `-2`, ... in order.
 */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!heading) continue;
    const base = headingText(heading[1]!)
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

export interface Link {
  target: string;
  line: number;
}

/** Every inline link and image target of the page's prose, inline code spans left out. */
export function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  for (const { text, number } of proseLines(markdown)) {
    const withoutCode = text.replace(/`+[^`]*`+/g, '');
    for (const match of withoutCode.matchAll(/!?\[(?:[^\]]|\][^(])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: match[1]!, line: number });
  }
  return links;
}

export interface CodeBlock {
  page: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  /** The info string's first word (`sh`, `ts`, `json`, ...), empty when there is none. */
  language: string;
  code: string;
  /** The marker's text after `not run:` when the line right before the fence is one; '' for a marker with no reason. */
  notRun: string | undefined;
}

const MARKER = /^<!--\s*not run:?(.*?)-->\s*$/;

/** The page's fenced code blocks, in order. */
export function codeBlocksOf(page: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[index]!);
    if (!opening) continue;
    const fence = opening[1]!;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !(lines[end]!.trim().startsWith(fence) && lines[end]!.trim().replace(/[`~]/g, '') === '')) body.push(lines[end++]!);
    const marker = index > 0 ? MARKER.exec(lines[index - 1]!.trim()) : null;
    blocks.push({ page, line: index + 1, language: opening[2]!.toLowerCase(), code: body.join('\n'), notRun: marker ? marker[1]!.trim() : undefined });
    index = end;
  }
  return blocks;
}

/** Lines holding a not-run marker that no fence follows right after. */
export function strayMarkers(markdown: string): number[] {
  const lines = markdown.split('\n');
  return lines.flatMap((line, index) => (MARKER.test(line.trim()) && !/^ {0,3}(`{3,}|~{3,})/.test(lines[index + 1] ?? '') ? [index + 1] : []));
}

export function readPage(page: string): string {
  return readFileSync(join(root, page), 'utf8');
}
