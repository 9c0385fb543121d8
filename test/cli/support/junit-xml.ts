/**
 * A small XML reader for the JUnit reports of `verify` and `check`: elements with attributes and text, nesting
 * checked, so a test reads the report as a tree and a report that is not well formed fails.
 *
 * @module
 */

/** One element of the report. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}
/** Parses `text` (an XML declaration, then one root element); throws when it is not well formed. */
export function parseXml(text: string): XmlElement {
  const decode = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const body = text.replace(/^<\?xml[^>]*\?>\s*/, '');
  const document: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [document];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.-]+="[^"]*")*)\s*(\/?)>|([^<]+)/gy;
  let consumed = 0;
  for (const match of body.matchAll(token)) {
    consumed = match.index + match[0].length;
    const [, closing, name, attrs, selfClosing, chars] = match;
    const top = stack[stack.length - 1]!;
    if (chars !== undefined) {
      top.text += decode(chars);
      continue;
    }
    if (closing) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, key, value] of (attrs ?? '').matchAll(/([\w.-]+)="([^"]*)"/g)) attributes[key!] = decode(value!);
    const element: XmlElement = { name: name!, attributes, children: [], text: '' };
    top.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (consumed !== body.length || stack.length !== 1) throw new Error('the XML is not well formed');
  return document.children[0]!;
}
