/**
 * The code a user copies from the README and the examples' READMEs: every fenced block, with the
 * `<!-- doc-test: id ... -->` marker on the line before it that names how the docs test runs it
 * (and which of its lines it does not run, and why), and every inline command.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The documents a user reads to install and use the kit. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(new URL('../../examples', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `examples/${entry.name}/README.md`),
];

export interface DocBlock {
  document: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  body: string;
  /** From the marker; undefined when the block has none (a test fails on that). */
  id: string | undefined;
  /** The marker's text after the id: how the block is tested, and what it leaves out. */
  note: string;
  /** Commands the marker says are not run: `command` (reason). */
  notRun: Map<string, string>;
}

const MARKER = /^<!-- doc-test: ([a-z0-9-]+)(?:\.\s*([\s\S]*?))? -->$/;

export function readDocument(document: string): string {
  return readFileSync(new URL(`../../${document}`, import.meta.url), 'utf8');
}

/** Every fenced block of the documents, in order. */
export function docBlocks(): DocBlock[] {
  const blocks: DocBlock[] = [];
  for (const document of DOCUMENTS) {
    const lines = readDocument(document).split('\n');
    for (let i = 0; i < lines.length; i++) {
      const open = /^```(\S*)$/.exec(lines[i]!);
      if (!open) continue;
      const end = lines.indexOf('```', i + 1);
      if (end < 0) throw new Error(`${document}:${i + 1}: a fence that never closes`);
      // The marker is the last non-blank line before the fence.
      let before = i - 1;
      while (before >= 0 && lines[before]!.trim() === '') before--;
      const marker = before >= 0 ? MARKER.exec(lines[before]!) : null;
      const note = marker?.[2] ?? '';
      const notRun = new Map<string, string>();
      for (const match of note.matchAll(/`([^`]+)` \(([^)]+)\)/g)) notRun.set(match[1]!, match[2]!);
      blocks.push({
        document,
        line: i + 1,
        lang: open[1]!,
        body: lines.slice(i + 1, end).join('\n') + '\n',
        id: marker?.[1],
        note,
        notRun,
      });
      i = end;
    }
  }
  return blocks;
}

/**
 * The commands of a shell block as typed: one per line, a line ending in `\` joined with the
 * next (bash reads them as one), comment-only lines left out (they run nothing).
 */
export function shellCommands(body: string): string[] {
  const commands: string[] = [];
  let pending = '';
  for (const line of body.split('\n')) {
    if (pending === '' && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    pending += (pending ? '\n' : '') + line;
    if (!line.endsWith('\\')) {
      commands.push(pending);
      pending = '';
    }
  }
  if (pending) commands.push(pending);
  return commands;
}

/** The inline code spans of the documents that are commands a user could copy. */
export function inlineCommands(): Array<{ document: string; command: string }> {
  const found: Array<{ document: string; command: string }> = [];
  for (const document of DOCUMENTS) {
    const text = readDocument(document).replace(/^```[\s\S]*?^```$/gm, '');
    for (const match of text.matchAll(
      /`((?:npx|npm|curl|node|answers-contract|answers-mock) [^`]*)`/g,
    ))
      found.push({ document, command: match[1]!.replace(/\s+/g, ' ') });
  }
  return found;
}
