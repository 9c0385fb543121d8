/**
 * A coverage report for people and for CI: text (covered and uncovered by section of the interface document, each
 * gap with the request or test card that would cover it) and JUnit XML (one test case per behaviour, a gap as a
 * failure, so CI dashboards list what a suite never exercised).
 *
 * @module
 */
import { defaultAssumptions } from '../../assumptions.ts';
import { junitXml } from '../../internal/junit-xml.ts';
import { behaviourCatalogue, sectionOf } from './catalogue.ts';
import { type CoverageReport, type CoveredBehaviour, coveragePercent } from './report.ts';

const kitHints: ReadonlyMap<string, string> = new Map(
  behaviourCatalogue(defaultAssumptions).map((b) => [b.id, b.hint]),
);

/**
 * What would cover a behaviour (from the kit's catalogue), or undefined for an id it does not know.
 *
 * @example
 * coverageHint('card.refused'); // 'pay with test card 4000000000000069.'
 */
export function coverageHint(id: string): string | undefined {
  return kitHints.get(id);
}

function bySection(report: CoverageReport): Map<string, CoveredBehaviour[]> {
  const sections = new Map<string, CoveredBehaviour[]>();
  for (const b of report.behaviours) {
    const section = sectionOf(b.id);
    sections.set(section, [...(sections.get(section) ?? []), b]);
  }
  return sections;
}

/**
 * The report as text: a headline, then each section with its covered behaviours (and counts) and its gaps (and
 * what would cover each).
 *
 * @example
 * process.stdout.write(coverageText(report));
 */
export function coverageText(report: CoverageReport): string {
  const percent = coveragePercent(report);
  const lines = [`Service behaviours exercised: ${report.covered} of ${report.total} (${percent.toFixed(1)}%).`, ''];
  for (const [section, behaviours] of bySection(report)) {
    const covered = behaviours.filter((b) => b.covered).length;
    lines.push(`${section}: ${covered} of ${behaviours.length}`);
    for (const b of behaviours) {
      if (b.covered) {
        lines.push(`  ok    ${b.id} (${b.count}x): ${b.title}`);
        continue;
      }
      const hint = coverageHint(b.id);
      lines.push(`  never ${b.id}: ${b.title} [spec ${b.spec}]`);
      if (hint !== undefined) lines.push(`        to cover it: ${hint}`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * The report as JUnit XML: one suite per section, one case per behaviour; a behaviour never exercised is a failure
 * whose text says what would cover it.
 *
 * @example
 * writeFileSync('coverage.xml', coverageJunit(report));
 */
export function coverageJunit(report: CoverageReport): string {
  return junitXml(
    'payment-contract-kit coverage',
    [...bySection(report)].map(([section, behaviours]) => ({
      name: section,
      cases: behaviours.map((b) => ({
        classname: `coverage.${b.id.slice(0, b.id.indexOf('.'))}`,
        name: `${b.id}: ${b.title}`,
        ...(b.covered
          ? { systemOut: `exercised ${b.count} time${b.count === 1 ? '' : 's'}` }
          : {
              failure: {
                message: `never exercised: ${b.title}`,
                type: 'uncovered',
                text: `Spec ${b.spec}. ${coverageHint(b.id) === undefined ? '' : `To cover it: ${coverageHint(b.id)}`}`.trim(),
              },
            }),
      })),
    })),
  );
}
