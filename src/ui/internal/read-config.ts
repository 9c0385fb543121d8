/**
 * Reads the page's configuration from the JSON data block the mock writes into every page (never executed, so it
 * needs no inline script and no escaping beyond what JSON in HTML needs, which the server does).
 *
 * @module
 */
import { kitMessage } from '../../internal/messages.ts';
import type { PageConfig } from '../page-config.ts';

/** The configuration of this page; throws when the page was not served by the mock. */
export function readPageConfig(): PageConfig {
  const block = document.getElementById('pck-config');
  if (!block?.textContent) throw new Error(kitMessage('This page needs the mock: open it from the mock.'));
  return JSON.parse(block.textContent) as PageConfig;
}
