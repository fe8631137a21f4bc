/**
 * `diff`'s evidence handed to the judges, and their diverged verdicts as findings, each of one
 * class:
 * - **spec**: the deployment's own answers break a rule the spec states (the judges of its
 *   clauses, on the deployment's reading alone: the mock is no oracle of the spec here);
 * - **profile**: on the same data, the deployment decides an open point unlike our document, as
 *   it answers (`judges/drift.ts`) or as its description declares;
 * - **description**: the description does not fit what the deployment answers.
 * What is neither (data changed since the snapshot) is a note, not a difference.
 */
import type { ClauseId } from '../../generated/clauses.ts';
import type { Difference } from '../judges/difference.ts';
import { withinScope } from '../judges/document.ts';
import {
  declaredDecisions,
  foundAlike,
  listedAlike,
  notYoursAlike,
  pageHeldAlike,
  rankedAlike,
} from '../judges/drift.ts';
import { sameJson, short } from '../judges/json.ts';
import {
  foundByItsWords,
  hitShowsContent,
  listedForOneAccount,
  otherAccountRefused,
  sameItems,
  searchAnswered,
  shownYetAbsent,
} from '../judges/reads.ts';
import { ok } from '../judges/status.ts';
import { objectCount } from '../judges/values.ts';
import type { Verdict } from '../judges/verdict.ts';
import {
  eachShownOnce,
  listBroken,
  noneSkipped,
  sortedByCreation,
  walkBroken,
} from '../judges/walks.ts';
import { DEFAULT_DESCRIPTION, type TargetDescription } from '../target-api/description.ts';
import type { Target } from '../target-api/target.ts';
import { contentOf } from '../snapshot/crawl.ts';
import type { Plan } from './plan.ts';
import type { ListSeen, Reading } from './read.ts';

export type DiffClass = 'spec' | 'profile' | 'description';

/** One difference, with its evidence. */
export interface Finding {
  class: DiffClass;
  /** The spec's clause, or the decision of docs/spec-gaps.md; for a description, the field that does not fit. */
  clause: ClauseId | `description ${string}`;
  /** What was compared, the same from run to run (a baseline matches on it with the clause). */
  what: string;
  message: string;
  /** The request, as sent to the deployment; none for what a description declares. */
  request?: string | undefined;
  /** What each side answered, short. */
  deployment?: string | undefined;
  mock?: string | undefined;
  difference?: Difference | undefined;
  /** `declared`: read from the description, not from an answer. */
  seen: 'answered' | 'declared';
}

export interface Judged {
  findings: Finding[];
  /** Verdicts that agreed: what the diff proved alike, or held to the spec. */
  agreed: number;
  notes: string[];
}

/** Judges the two readings of one plan; `toDeployment` maps the mock's ids to the deployment's. */
export function judgeDiff(
  plan: Plan,
  deployment: { target: Target; reading: Reading },
  mock: { target: Target; reading: Reading },
  toDeployment: (id: string) => string,
): Judged {
  const findings: Finding[] = [];
  const notes: string[] = [];
  let agreedCount = 0;
  const keep = (
    verdict: Verdict,
    what: string,
    kind: DiffClass,
    evidence: Partial<Pick<Finding, 'request' | 'deployment' | 'mock'>> = {},
  ): void => {
    if (verdict.outcome === 'agreed') agreedCount += 1;
    if (verdict.outcome !== 'diverged') return;
    findings.push({
      class: kind,
      clause: verdict.clause,
      what,
      message: verdict.message,
      ...evidence,
      ...(verdict.difference ? { difference: verdict.difference } : {}),
      seen: 'answered',
    });
  };
  const describedWrong = (field: string, what: string, message: string, request?: string) =>
    findings.push({
      class: 'description',
      clause: `description ${field}`,
      what,
      message,
      request,
      seen: 'answered',
    });
  const d = deployment.reading;
  const m = mock.reading;
  const target = deployment.target;
  const mapped = (ids: readonly string[]) => ids.map(toDeployment);

  // ---- the list of collections ----------------------------------------------------------------
  const others = new Set(plan.others.map((each) => each.deployment));
  d.collections.forEach((walk, i) => {
    const what = `the list of collections, ${walk.pageSize} a page`;
    if (walk.broken) {
      if (/has no array at/.test(walk.broken))
        describedWrong('list.items', what, walk.broken, walk.request);
      else keep(walkBroken(walk.broken), what, 'spec', { request: walk.request });
      return;
    }
    keep(eachShownOnce(what, walk.ids), what, 'spec', { request: walk.request });
    if (walk.reach.whole)
      keep(
        sortedByCreation(
          what,
          walk.dates.filter((date): date is number => date !== undefined),
        ),
        what,
        'spec',
      );
    keep(listedForOneAccount(walk.ids.filter((id) => others.has(id))), what, 'spec', {
      request: walk.request,
    });
    const theirs = m.collections[i];
    if (!theirs || theirs.broken) return;
    keep(pageHeldAlike(what, walk.pageSize, walk.first, theirs.first), what, 'profile', {
      request: walk.request,
    });
    if (walk.reach.whole && theirs.reach.whole)
      keep(
        listedAlike(what, inPlan(walk.ids, plan), inPlan(mapped(theirs.ids), plan)),
        what,
        'profile',
        {
          request: walk.request,
        },
      );
  });
  const [large, small] = d.collections;
  if (large && small && large.reach.whole && small.reach.whole && !large.broken && !small.broken) {
    const skipped = symmetricDifference(large.ids, small.ids);
    const lacks = (walk: ListSeen, other: ListSeen) => {
      const missing = other.ids.filter((id) => !walk.ids.includes(id));
      return missing.length
        ? [`the walk at ${walk.pageSize} a page (${walk.ids.length} items) lacks ${short(missing)}`]
        : [];
    };
    keep(
      noneSkipped(
        `walks of the list at ${large.pageSize} and ${small.pageSize} a page show different collections: ${[...lacks(large, small), ...lacks(small, large)].join('; ')}`,
        skipped.length,
      ),
      'the list of collections at two page sizes',
      'spec',
    );
  }

  // ---- each collection: its objects, its get ------------------------------------------------
  const listedObjects = new Set<string>();
  for (const collection of plan.collections) {
    const walks = d.objects.get(collection.deployment) ?? [];
    const what = 'the objects of a collection';
    for (const [i, walk] of walks.entries()) {
      if (walk.broken) {
        if (/has no array at/.test(walk.broken))
          describedWrong('list.items', what, walk.broken, walk.request);
        else keep(listBroken(walk.broken), what, 'spec', { request: walk.request });
        continue;
      }
      for (const id of walk.ids) listedObjects.add(id);
      const theirs = m.objects.get(collection.mock)?.[i];
      if (theirs && !theirs.broken && walk.reach.whole && theirs.reach.whole)
        keep(
          listedAlike(
            `${what}, ${walk.pageSize} a page`,
            inPlan(walk.ids, plan),
            inPlan(mapped(theirs.ids), plan),
          ),
          `${what}, ${walk.pageSize} a page`,
          'profile',
          { request: walk.request },
        );
    }
    const [first, second] = walks;
    if (first && second && !first.broken && !second.broken)
      keep(
        sameItems(
          first.reach.whole ? second.reach : first.reach,
          `the objects of ${collection.deployment} at ${first.pageSize} and ${second.pageSize} a page`,
          first.ids,
          second.ids,
        ),
        `${what} at two page sizes`,
        'spec',
      );
    const got = d.collectionGets.get(collection.deployment);
    if (!got) continue;
    if (ok(got.status) && got.id === undefined) {
      describedWrong(
        'collection.id',
        'a collection',
        `${got.request} answered ${got.status} with no id at ${target.description.collection.in}${target.description.collection.id}`,
        got.request,
      );
      continue;
    }
    if (!ok(got.status)) {
      if (first && first.reach.whole && !first.broken)
        notes.push(
          `collection ${collection.deployment}: ${got.request} answered ${got.status} (deleted since the snapshot?)`,
        );
      continue;
    }
    const count = target.objectCountOf(got.value);
    if (first && first.reach.whole && !first.broken && count !== undefined)
      keep(
        objectCount(
          `${got.request}: ${target.description.collection.objectCount}`,
          first.ids.length,
          count,
          'its objects walked whole',
        ),
        "a collection's object count",
        'spec',
        { request: got.request },
      );
  }

  // ---- what the lists and searches show: absent or another account's -----------------------
  {
    const listed = new Set(d.collections.flatMap((walk) => walk.ids));
    const asked = plan.collections.filter((each) => listed.has(each.deployment));
    const gone = asked
      .map((each) => ({
        id: each.deployment,
        status: d.collectionGets.get(each.deployment)?.status ?? 200,
      }))
      .filter(({ status }) => !ok(status) && (target.isGone(status) || status === 404));
    keep(
      shownYetAbsent('the list of collections', 'collection', asked.length, gone, []),
      'collections listed',
      'spec',
    );
  }
  const absent = (ids: Iterable<string>) => {
    const out: Array<{ id: string; status: number }> = [];
    let asked = 0;
    for (const id of ids) {
      const got = d.objectGets.get(id);
      if (!got) continue;
      asked += 1;
      if (!ok(got.status) && (target.isGone(got.status) || got.status === 404))
        out.push({ id, status: got.status });
    }
    return { asked, out };
  };
  {
    const { asked, out } = absent(listedObjects);
    keep(
      shownYetAbsent('the lists of objects', 'object', asked, out, []),
      'objects listed',
      'spec',
    );
  }
  const otherObjects = new Set(plan.otherObjects);
  const contentNow = new Map<string, unknown>();
  for (const [id, got] of d.objectGets)
    if (ok(got.status) && got.value !== undefined)
      contentNow.set(id, contentOf(target, got.value).content);
  if (plan.words.length < plan.searchesAsked)
    notes.push(
      `${plan.words.length} of the ${plan.searchesAsked} words asked for were searched: only ${plan.words.length} words of the snapshot's content are held by ${plan.mostHolders} objects or fewer, so that every hit fits one page of both sides`,
    );
  const limit = target.description.search.limit ?? 10;
  d.searches.forEach((search, i) => {
    const what = `a search for one word${search.scope ? ', scoped' : ''}`;
    if (!ok(search.status)) {
      keep(searchAnswered(search.request, search.status), what, 'spec', {
        request: search.request,
      });
      return;
    }
    if (search.ids === undefined) {
      describedWrong(
        'search.hits',
        what,
        `${search.request} answered ${search.status} with no list of hits at ${target.description.search.hits}`,
        search.request,
      );
      return;
    }
    const ids = search.ids;
    const { asked, out } = absent(ids);
    keep(
      shownYetAbsent(
        search.request,
        'object',
        asked,
        out,
        ids.filter((id) => otherObjects.has(id)),
      ),
      what,
      'spec',
      { request: search.request },
    );
    // An object the deployment itself shows holding the word (in the scope, if scoped), missing
    // from a search that may be whole.
    const inScope = search.scope ? new Set(d.objects.get(search.scope)?.[0]?.ids ?? []) : undefined;
    for (const [id, content] of contentNow)
      if ((!inScope || inScope.has(id)) && holdsWord(content, search.word) && !ids.includes(id))
        keep(
          foundByItsWords(id, [{ word: search.word, hits: ids.length }], 1, limit),
          what,
          'spec',
          { request: search.request },
        );
    ids.forEach((id, n) => {
      const now = contentNow.get(id);
      const shown = search.contents[n];
      if (now === undefined || shown === undefined) return;
      keep(hitShowsContent(n + 1, sameJson(shown.content, now), false, shown, now), what, 'spec', {
        request: search.request,
      });
    });
    if (search.scope) {
      const walk = d.objects.get(search.scope)?.[0];
      if (walk && walk.reach.whole && !walk.broken)
        keep(
          withinScope(
            search.request,
            ids.filter((id) => !walk.ids.includes(id)),
          ),
          what,
          'profile',
          { request: search.request },
        );
    }
    const theirs = m.searches[i];
    if (!theirs || theirs.ids === undefined || !ok(theirs.status)) return;
    const mine = mapped(theirs.ids);
    const whole = ids.length < limit && theirs.ids.length < 10;
    keep(foundAlike(search.request, ids, mine, whole), what, 'profile', {
      request: search.request,
      deployment: short(ids),
      mock: short(mine),
    });
    keep(rankedAlike(`the hits of ${what}`, ids, mine), `the hits of ${what}`, 'profile', {
      request: search.request,
    });
  });

  // ---- another account's collection, asked for with the full key ----------------------------
  if (d.notYours && m.notYours) {
    const what = "another account's collection, asked for";
    // @note A success shows another account's collection: ISO-1. Any refusal keeps it hidden,
    // as the spec asks; one the description does not name is the description's to fit.
    keep(otherAccountRefused(d.notYours.request, d.notYours.status), what, 'spec', {
      request: d.notYours.request,
    });
    if (
      !ok(d.notYours.status) &&
      !target.isNotYours(d.notYours.status) &&
      d.notYours.status !== 404
    )
      describedWrong(
        'statuses.notYours',
        what,
        `${d.notYours.request} answered ${d.notYours.status}, which the description's statuses.notYours (${target.description.statuses.notYours.join(', ')}) does not name`,
        d.notYours.request,
      );
    keep(notYoursAlike(d.notYours.request, d.notYours.status, m.notYours.status), what, 'profile', {
      request: d.notYours.request,
      deployment: String(d.notYours.status),
      mock: String(m.notYours.status),
    });
  }

  // ---- gets of the planned objects: data changed since the snapshot ---------------------------
  let changed = 0;
  let gone = 0;
  for (const collection of plan.collections)
    for (const object of collection.objects) {
      const got = d.objectGets.get(object.deployment);
      const theirs = m.objectGets.get(object.mock);
      if (!got || !theirs) continue;
      if (ok(got.status) && got.id === undefined) {
        describedWrong(
          'object.id',
          'an object',
          `${got.request} answered ${got.status} with no id at ${target.description.object.in}${target.description.object.id}`,
          got.request,
        );
        continue;
      }
      if (!ok(got.status)) gone += 1;
      else if (
        theirs.value !== undefined &&
        !sameJson(contentNow.get(object.deployment), contentOf(mock.target, theirs.value).content)
      )
        changed += 1;
    }
  if (gone)
    notes.push(`${gone} objects of the snapshot are no longer got (deleted since the snapshot?)`);
  if (changed)
    notes.push(
      `${changed} objects hold other content than the snapshot (changed since it was taken)`,
    );

  for (const finding of declared(target.description)) findings.push(finding);
  return { findings: dedupe(findings), agreed: agreedCount, notes };
}

/** Of `ids`, those of the plan: the items the snapshot holds (a list may hold newer ones). */
function inPlan(ids: readonly string[], plan: Plan): string[] {
  const known = plan.known;
  return ids.filter((id) => known.has(id));
}

function symmetricDifference(a: readonly string[], b: readonly string[]): string[] {
  return [...a.filter((id) => !b.includes(id)), ...b.filter((id) => !a.includes(id))];
}

const WORD = /[\p{L}\p{N}]+/gu;
function holdsWord(value: unknown, word: string): boolean {
  if (typeof value === 'string') {
    const words: string[] = value.toLowerCase().match(WORD) ?? [];
    return words.includes(word);
  }
  if (Array.isArray(value)) return value.some((item) => holdsWord(item, word));
  if (value && typeof value === 'object')
    return Object.values(value).some((item) => holdsWord(item, word));
  return false;
}

/** What the deployment's description declares unlike our document, decision by decision. */
function declared(theirs: TargetDescription): Finding[] {
  // @note Our own description declares nothing unlike itself.
  if (theirs.source === DEFAULT_DESCRIPTION.source) return [];
  return declaredDecisions(theirs, DEFAULT_DESCRIPTION).flatMap(({ what, verdict }) =>
    verdict.outcome === 'diverged'
      ? [
          {
            class: 'profile' as const,
            clause: verdict.clause,
            what,
            message: verdict.message,
            difference: verdict.difference,
            seen: 'declared' as const,
          },
        ]
      : [],
  );
}

/** The same finding once: the same clause, on the same thing, with the same message. */
function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = `${finding.class} ${finding.clause} ${finding.what} ${finding.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
