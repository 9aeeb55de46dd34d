import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * The address a client's failed authentications are counted against. Fastify's `request.ip` is
 * the rightmost address that no trusted proxy vouches for (TRUST_PROXY); should it not be an IP
 * address at all (a trusted hop that forwarded garbage), the socket's peer answers instead.
 * IPv6 clients are counted by their /64, the block a single host or site is given: counting
 * single addresses would hand each of them 2^64 budgets.
 */
export function clientAddressOf(request: FastifyRequest): string {
  const reported = isIP(request.ip) ? request.ip : (request.socket.remoteAddress ?? 'unknown');
  return countedAddress(reported);
}

/** An IPv4 address as is (also when IPv4-mapped), an IPv6 address as its /64 prefix. */
export function countedAddress(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${ipaddr.IPv6.parse(`${prefix.map((part) => part.toString(16)).join(':')}::`).toString()}/64`;
}
