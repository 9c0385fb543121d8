/**
 * The HTML shell of each page: a title, the page's styles and scripts by versioned URL, and the page configuration as
 * a JSON data block. The browser code renders the rest. Every value written into the markup is escaped here.
 *
 * @module
 */
import type { PageConfig } from '../../../ui/page-config.ts';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON that is safe inside `<script type="application/json">`: no `<` can close the element, and the line separators
 * JavaScript once rejected are escaped too.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** What a page shell holds. */
export interface PageShell {
  readonly title: string;
  /** Class of `<body>`, for page-specific layout. */
  readonly bodyClass: string;
  readonly styles: readonly string[];
  readonly scripts: readonly string[];
  /** Id of the element the page's script renders into. */
  readonly mountId: string;
  readonly config: PageConfig;
}

/**
 * Renders a page shell.
 *
 * @example
 * pageHtml({ title: 'Dashboard', bodyClass: 'pck-page-dashboard', styles: [css], scripts: [js], mountId: 'pck-main', config });
 */
export function pageHtml(page: PageShell): string {
  const styles = page.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('\n');
  const scripts = page.scripts.map((src) => `<script src="${escapeHtml(src)}" defer></script>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<link rel="icon" href="data:,">
${styles}
<script type="application/json" id="pck-config">${jsonForScript(page.config)}</script>
${scripts}
</head>
<body class="${escapeHtml(page.bodyClass)}">
<header id="pck-bar"></header>
<main id="${escapeHtml(page.mountId)}"></main>
</body>
</html>
`;
}
