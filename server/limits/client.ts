import type { IncomingMessage } from 'node:http';
import { isIP, isIPv4 } from 'node:net';

/**
 * The address of the client a request comes from. Without trusted proxies it is the connection's
 * peer. Behind `trustedHops` proxies it is the address the nearest of them saw: each proxy appends
 * the address of its own peer to `X-Forwarded-For`, so the entry `trustedHops` from the right was
 * written by a trusted proxy, and everything left of it by whoever sent the request. An entry that
 * is missing or is not an address means the request did not come through the whole chain; the peer
 * is used then, which is never a value the caller chooses.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | undefined, trustedHops: number): string | undefined {
  if (trustedHops === 0 || !forwardedFor) return peer;
  const entries = forwardedFor.split(',');
  if (entries.length < trustedHops) return peer;
  const entry = unbracketed(entries[entries.length - trustedHops]!.trim());
  return isIP(entry) === 0 ? peer : entry;
}

/**
 * The key a client's limits are counted under: an IPv4 address as it is (an IPv4-mapped IPv6
 * address counts as its IPv4 address), an IPv6 address by its /64 prefix, since one subscriber is
 * usually given a whole /64 and could otherwise use a fresh address for every request.
 */
export function clientKey(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (groups === undefined) return 'unknown';
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

/** The key a request's client is counted under: its address (see clientAddress) as clientKey writes it. */
export function requestClientKey(request: IncomingMessage, trustedHops: number): string {
  const forwardedFor = request.headers['x-forwarded-for'];
  return clientKey(clientAddress(request.socket.remoteAddress, typeof forwardedFor === 'string' ? forwardedFor : undefined, trustedHops));
}

/** `[2001:db8::1]` as some proxies write it, without the brackets. */
function unbracketed(entry: string): string {
  return entry.startsWith('[') && entry.endsWith(']') ? entry.slice(1, -1) : entry;
}

/** The eight 16-bit groups of an IPv6 address (zone dropped, `::` expanded, a dotted IPv4 tail split), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  const address = text.split('%')[0]!;
  if (isIP(address) !== 6) return undefined;
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const parse = (part: string | undefined): number[] =>
    !part
      ? []
      : part.split(':').flatMap((piece) => {
          if (!piece.includes('.')) return [Number.parseInt(piece, 16)];
          const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const left = parse(head);
  const right = parse(tail);
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => 0);
  return [...left, ...zeros, ...right];
}
