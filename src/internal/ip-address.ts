/**
 * Which IP version a string is written in (`4`, `6`, or `0` for neither): the same answer as Node's `net.isIP`,
 * without `node:net`, so the mock's validation and host checks run in browsers and workers too (decision 0014).
 *
 * IPv4 is four dotted decimals 0-255 without leading zeros. IPv6 is read by the WHATWG URL parser (present in every
 * runtime), after an optional `%zone` suffix, which Node accepts and the URL parser does not, is set aside.
 *
 * @module
 */

const octet = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)';
const ipv4 = new RegExp(`^${octet}(?:\\.${octet}){3}$`);
/** Characters of an IPv6 address (hex digits, colons, and dots of an embedded IPv4 tail). */
const ipv6Text = /^[\da-fA-F:.]+$/;
/** A zone id (`fe80::1%eth0`): Node allows letters, digits, `-`, `.` and `:` after the `%`. */
const zone = /^[\da-zA-Z.:-]+$/;

/**
 * The IP version `text` is written in: 4, 6, or 0 when it is not an IP address.
 *
 * @example
 * ipVersion('203.0.113.7'); // 4
 * ipVersion('2001:db8::1'); // 6
 * ipVersion('example.com'); // 0
 */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (ipv4.test(text)) return 4;
  const percent = text.indexOf('%');
  const address = percent === -1 ? text : text.slice(0, percent);
  if (percent !== -1 && !zone.test(text.slice(percent + 1))) return 0;
  if (!address.includes(':') || !ipv6Text.test(address)) return 0;
  // An embedded IPv4 tail must itself be strict dotted decimal (the URL parser would read "1.2.3" too).
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  if (tail.includes('.') && !ipv4.test(tail)) return 0;
  try {
    new URL(`http://[${address}]/`);
    return 6;
  } catch {
    return 0;
  }
}
