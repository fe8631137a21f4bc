/**
 * JUnit XML, one writer for the suite, explore and replay: each maps its report to test cases,
 * and the run as a whole adds its own (`runCases`), so that what CI reads (failures and errors)
 * says the same of every command: data left behind is a failure, a run that judged nothing an
 * error, never a suite of passes or skips that CI shows green.
 */

/** One test case: passed unless it failed, erred or was skipped. */
export interface JUnitCase {
  classname: string;
  name: string;
  timeMs?: number | undefined;
  failure?: { message: string; type?: string | undefined; text?: string | undefined } | undefined;
  error?: { message: string; type?: string | undefined } | undefined;
  skipped?: string | undefined;
  /** Text kept with a passing case (`<system-out>`). */
  out?: string | undefined;
}

export interface JUnitSuite {
  name: string;
  cases: JUnitCase[];
  timestamp?: string | undefined;
  timeMs?: number | undefined;
  properties?: ReadonlyArray<readonly [string, string | number]> | undefined;
}

/**
 * Text for an XML attribute (or element text): markup characters escaped, and the characters
 * XML 1.0 forbids (control characters other than tab, newline and return, lone surrogates,
 * U+FFFE and U+FFFF) replaced by U+FFFD, so every CI parser reads the report.
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/[<>&"'\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const time = (ms: number | undefined) =>
  ms === undefined ? '' : ` time="${(ms / 1000).toFixed(3)}"`;

/** The counts a suite (or all of them) carries: tests, failures, errors, skipped. */
function totals(cases: readonly JUnitCase[]): string {
  const count = (key: 'failure' | 'error' | 'skipped') =>
    cases.filter((each) => each[key] !== undefined).length;
  return `tests="${cases.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}"`;
}

function caseXml(each: JUnitCase): string {
  const open = `    <testcase classname="${escapeXml(each.classname)}" name="${escapeXml(each.name)}"${time(each.timeMs)}`;
  const type = (value: string | undefined) => (value ? ` type="${escapeXml(value)}"` : '');
  if (each.failure) {
    const { message, text } = each.failure;
    const head = `<failure message="${escapeXml(message)}"${type(each.failure.type)}`;
    return `${open}>${text === undefined ? `${head}/>` : `${head}>${escapeXml(text)}</failure>`}</testcase>`;
  }
  if (each.error)
    return `${open}><error${type(each.error.type)} message="${escapeXml(each.error.message)}"/></testcase>`;
  if (each.skipped !== undefined)
    return `${open}><skipped message="${escapeXml(each.skipped)}"/></testcase>`;
  if (each.out !== undefined)
    return `${open}><system-out>${escapeXml(each.out)}</system-out></testcase>`;
  return `${open}/>`;
}

/** The report: `<testsuites name>` holding each suite with a case. */
export function junitXml(name: string, suites: readonly JUnitSuite[], timeMs?: number): string {
  const shown = suites.filter((suite) => suite.cases.length > 0);
  const all = shown.flatMap((suite) => suite.cases);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(name)}" ${totals(all)}${time(timeMs)}>`,
    ...shown.flatMap((suite) => [
      `  <testsuite name="${escapeXml(suite.name)}" ${totals(suite.cases)}${suite.timestamp ? ` timestamp="${suite.timestamp}"` : ''}${time(suite.timeMs)}>`,
      ...(suite.properties?.length
        ? [
            '    <properties>',
            ...suite.properties.map(
              ([key, value]) =>
                `      <property name="${escapeXml(key)}" value="${escapeXml(String(value))}"/>`,
            ),
            '    </properties>',
          ]
        : []),
      ...suite.cases.map(caseXml),
      '  </testsuite>',
    ]),
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * The cases of the run as a whole, the same for every command: what it left behind fails, and a
 * run that judged nothing is an error that names what stopped it.
 */
export function runCases(
  classname: string,
  run: { leftBehind: readonly string[]; nothingJudged?: string | undefined },
): JUnitCase[] {
  return [
    ...(run.leftBehind.length > 0
      ? [
          {
            classname,
            name: 'clean-up',
            failure: { message: `left behind: ${run.leftBehind.join(', ')}` },
          },
        ]
      : []),
    ...(run.nothingJudged !== undefined
      ? [
          {
            classname,
            name: 'the run judged something',
            error: { type: 'nothing judged', message: run.nothingJudged },
          },
        ]
      : []),
  ];
}
