// docs/coverage.md's figure for the consumer example, held to the catalogue in the fast loop: a behaviour added to
// the catalogue, renamed or removed changes the figure, so the page fails here before the package tier runs the
// example (test/examples/consumer.test.ts checks the figure itself against the example's run).
import { describe, expect, it } from 'vitest';
import { defaultAssumptions } from '../../src/assumptions.ts';
import { behaviourCatalogue } from '../../src/contract/coverage/catalogue.ts';
import { coverageFigure, documentedFigure, documentedNeverTried } from '../examples/support/coverage-figure.ts';

describe("docs/coverage.md's figure for the consumer example", () => {
  it('names only behaviours of the catalogue, in its order, and counts the rest as covered', () => {
    const figure = documentedFigure();
    expect(figure, 'docs/coverage.md has no consumer-example-coverage paragraph').toBeDefined();
    const never = new Set(documentedNeverTried(figure!));
    const catalogue = behaviourCatalogue(defaultAssumptions);
    const known = new Set(catalogue.map((b) => b.id));
    expect([...never].filter((id) => !known.has(id))).toEqual([]);
    expect(figure).toBe(
      coverageFigure({ behaviours: catalogue.map((b) => ({ id: b.id, covered: !never.has(b.id) })) }),
    );
  });

  it('reads back the ids it writes', () => {
    const figure = coverageFigure({
      behaviours: [
        { id: 'token.generate', covered: true },
        { id: 'token.expired', covered: false },
        { id: 'webhook.given-up', covered: false },
      ],
    });
    expect(figure).toContain('covers 1 of 3 behaviours');
    expect(documentedNeverTried(figure)).toEqual(['token.expired', 'webhook.given-up']);
    expect(documentedFigure(`# page\n\n${figure}\n\nmore`)).toBe(figure);
    expect(documentedFigure('# a page without it')).toBeUndefined();
  });
});
