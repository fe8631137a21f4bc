/**
 * A last line of a state file cut short: the mock stopped (a crash, a `kill -9`, a power loss)
 * while it was being written. Its change was never acknowledged (the mock answers a write only
 * once its whole line is synced, journal.ts), so it is left out and the file is cut back to the
 * last whole line. What it was is said at start, so that a change undone this way is not undone
 * silently: a delete cut short brings its record back.
 *
 * @note The mock starts all the same: the file holds every write a client was told succeeded,
 * and the client of the cut change got no answer, so it cannot take it as done (it retries, or
 * reports an error). Refusing to start would turn every crash during a write into a hand edit of
 * the file, for a change nobody was told was made. Applying it instead would keep a change the
 * mock never confirmed, and a line cut short may not even be whole.
 */
import type { Snapshot } from '../../core/snapshot/snapshot.ts';

/** The last line of a state file, cut short: how long it was, and its start. */
export interface CutLine {
  readonly bytes: number;
  /** Its first bytes (at most 512), as UTF-8. */
  readonly start: string;
}

/** What a cut line was about to delete, when its start says so. */
function deletion(
  start: string,
): { kind: 'collection' | 'object'; id: string; whole: boolean } | undefined {
  const match = /^\s*\{\s*"(collection|object)_deleted"\s*:\s*"([^"\\]*)(")?/.exec(start);
  if (!match) return undefined;
  return { kind: match[1] as 'collection' | 'object', id: match[2]!, whole: match[3] === '"' };
}

/** The line said at start about a cut last line of `file`, which replays to `state`. */
export function cutLineNotice(file: string, cut: CutLine, state: Snapshot): string {
  const left = `the last line of the state file ${file} (${cut.bytes} bytes) was cut short when the mock stopped while writing it; its change was never acknowledged, so it is left out`;
  const deleted = deletion(cut.start);
  if (!deleted) return `${left}.`;
  const records = deleted.kind === 'collection' ? state.collections : state.objects;
  const ids = records
    .map((record) => record.id)
    .filter((id) => (deleted.whole ? id === deleted.id : id.startsWith(deleted.id)));
  if (ids.length === 0) return `${left}: it deleted a ${deleted.kind} the file does not hold.`;
  const which =
    ids.length === 1
      ? `${deleted.kind} ${ids[0]}, which is`
      : `one of the ${deleted.kind}s ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}, which are`;
  const objects = deleted.kind === 'collection' ? ' with its objects' : '';
  return `${left}: it deleted ${which} therefore kept${objects}; delete it again if it should be gone.`;
}
