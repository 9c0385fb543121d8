/**
 * The report: its exact JSON shape, merging by adding counts (associative, commutative, the identity an empty list
 * of reports), reading a file back with a reason for each way it can be wrong, and the text and JUnit forms.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../../src/assumptions.ts';
import { behaviourCatalogue } from '../../../src/contract/coverage/catalogue.ts';
import {
  coveragePercent,
  coverageReport,
  mergeCoverageReports,
  readCoverageReport,
} from '../../../src/contract/coverage/report.ts';
import { coverageJunit, coverageText } from '../../../src/contract/coverage/report-formats.ts';

const catalogue = behaviourCatalogue(defaultAssumptions);
const ids = catalogue.map((b) => b.id);
const report = (counts: Record<string, number>) => coverageReport(catalogue, new Map(Object.entries(counts)));
const countsArb = fc.dictionary(fc.constantFrom(...ids), fc.integer({ min: 0, max: 5 }));

describe('the coverage report', () => {
  it('has exactly the documented shape', () => {
    const r = report({ 'token.generate': 2 });
    expect(Object.keys(r).sort()).toEqual(['behaviours', 'covered', 'total']);
    expect(r.behaviours[0]).toEqual({
      id: 'token.generate',
      title: 'generate-token answered a token pair',
      spec: '4.1',
      guides: ['current', 'legacy'],
      covered: true,
      count: 2,
    });
    expect(r).toMatchObject({ covered: 1, total: catalogue.length });
    expect(coveragePercent(r)).toBeCloseTo(100 / catalogue.length);
  });

  it('merges by adding counts, in any grouping and order', () => {
    fc.assert(
      fc.property(fc.array(countsArb, { maxLength: 10 }), (parts) => {
        const total: Record<string, number> = {};
        for (const part of parts) for (const [id, n] of Object.entries(part)) total[id] = (total[id] ?? 0) + n;
        const merged = mergeCoverageReports([report({}), ...parts.map(report)]);
        expect(merged).toEqual(report(total));
        expect(mergeCoverageReports([report({}), ...parts.map(report).reverse()])).toEqual(merged);
        const half = Math.floor(parts.length / 2);
        const nested = mergeCoverageReports([
          mergeCoverageReports([report({}), ...parts.slice(0, half).map(report)]),
          mergeCoverageReports(parts.slice(half).map(report)),
        ]);
        expect(nested).toEqual(merged);
      }),
    );
  });

  it('keeps behaviours only one report lists (an older kit, a team catalogue)', () => {
    const extra = {
      behaviours: [
        { id: 'team.own', title: 'a team behaviour', spec: '6', guides: ['current'], covered: true, count: 1 },
      ],
      covered: 1,
      total: 1,
    } as const;
    const merged = mergeCoverageReports([report({ 'token.generate': 1 }), extra]);
    expect(merged.total).toBe(catalogue.length + 1);
    expect(merged.covered).toBe(2);
  });

  it('reads a written report back, and says why something else is not one', () => {
    const r = report({ 'card.refused': 3 });
    expect(readCoverageReport(JSON.parse(JSON.stringify(r)))).toEqual(r);
    expect(readCoverageReport([])).toBe('it is not a JSON object');
    expect(readCoverageReport({ results: [] })).toBe('it has no "behaviours" list');
    const first = r.behaviours[0]!;
    expect(readCoverageReport({ behaviours: [{ ...first, count: -1 }] })).toBe(
      'behaviours[0].count is not a whole number',
    );
    expect(readCoverageReport({ behaviours: [{ ...first, covered: false, count: 2 }] })).toBe(
      'behaviours[0].covered does not agree with its count',
    );
    expect(readCoverageReport({ behaviours: [first, first] })).toBe('behaviour "token.generate" is listed twice');
    expect(readCoverageReport({ behaviours: [{ ...first, guides: ['old'] }] })).toMatch(/guides/);
  });

  it('says in text, by section, what was covered and what would cover each gap', () => {
    const text = coverageText(report({ 'token.generate': 2 }));
    expect(text.split('\n')[0]).toBe(
      `Service behaviours exercised: 1 of ${catalogue.length} (${(100 / catalogue.length).toFixed(1)}%).`,
    );
    expect(text).toContain('Tokens (4.1 to 4.3, 5, 7.1): 1 of 10');
    expect(text).toContain('  ok    token.generate (2x): generate-token answered a token pair');
    expect(text).toContain(
      '  never card.refused: a card refused before processing (7.3 on the card number) [spec 4.6]',
    );
    expect(text).toContain('        to cover it: pay with test card 4000000000000069.');
  });

  it('writes one JUnit case per behaviour, each gap a failure', () => {
    const xml = coverageJunit(report({ 'token.generate': 1 }));
    expect(xml.match(/<testcase /g)).toHaveLength(catalogue.length);
    expect(xml.match(/<failure /g)).toHaveLength(catalogue.length - 1);
    expect(xml).toContain(`<testsuites name="payment-contract-kit coverage" tests="${catalogue.length}"`);
  });
});
