/**
 * The one way the pages build DOM: elements with attributes and children, where every string becomes a text node.
 * No `innerHTML` anywhere, so whatever the journal or a receiver's answer holds is shown as text, never parsed.
 *
 * @module
 */

/** A child: an element, text (shown as is), or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Attribute values; event handlers go through `on`. */
export interface Attrs {
  readonly [name: string]: string | number | boolean | undefined | ((event: Event) => void);
}

/**
 * Creates `<tag>` with `attrs` and `children`. Attributes named `on<event>` that hold functions become listeners;
 * `true` sets a boolean attribute, `false` and `undefined` leave it out.
 *
 * @example
 * el('button', { class: 'small', onclick: () => settle(uuid) }, 'Settle');
 */
export function el(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, '');
    else if (value !== false && value !== undefined) node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

/** Appends children to `parent`, strings and numbers as text nodes. */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(
      typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child,
    );
  }
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, children: readonly Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}
