import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/** What failures count against: `request.ip` (TRUST_PROXY), else the peer; IPv6 by its /64, or a site would get 2^64 budgets. */
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
