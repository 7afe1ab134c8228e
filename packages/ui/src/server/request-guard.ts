import { timingSafeEqual } from "node:crypto";
import { hostname } from "node:os";

/** Addresses that only this machine reaches. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
/** Addresses that listen on every interface. */
const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]"]);

/** Whether `--host` keeps the server to this machine: 127.0.0.1 (any 127.x.y.z), localhost or ::1. */
export function isLoopbackHost(host: string): boolean {
  const lower = host.toLowerCase();
  return LOOPBACK_HOSTS.has(lower) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(lower);
}

/** A host as it stands in a URL: an IPv6 address in brackets. */
export function urlHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const IPV6_IN_BRACKETS = /^\[[0-9a-f:.]+\]$/;

/**
 * Which `Host` headers this server answers, against DNS rebinding (a name of the attacker's that
 * resolves to this machine): for a loopback address, 127.0.0.1, localhost and [::1] with the port; for
 * another address, that address with the port; for a wildcard (0.0.0.0, ::), any IP address, localhost
 * or this machine's host name, with the port (an IP address cannot be rebound).
 */
export function hostChecker(boundHost: string, port: number): (header: string | null) => boolean {
  const bound = boundHost.toLowerCase();
  const allowed = new Set<string>();
  if (isLoopbackHost(bound)) {
    for (const name of ["127.0.0.1", "localhost", "[::1]", urlHost(bound)]) allowed.add(`${name}:${port}`);
  } else if (!WILDCARD_HOSTS.has(bound)) {
    allowed.add(`${urlHost(bound)}:${port}`);
  } else {
    for (const name of ["localhost", hostname().toLowerCase()]) allowed.add(`${name}:${port}`);
  }
  const wildcard = WILDCARD_HOSTS.has(bound);
  return (header) => {
    if (header === null) return false;
    // On port 80 a browser leaves the port out.
    const value = port === 80 && !/:\d+$/.test(header) ? `${header.toLowerCase()}:80` : header.toLowerCase();
    if (allowed.has(value)) return true;
    if (!wildcard) return false;
    const separator = value.lastIndexOf(":");
    if (separator === -1 || value.slice(separator + 1) !== String(port)) return false;
    const name = value.slice(0, separator);
    return IPV4.test(name) || IPV6_IN_BRACKETS.test(name);
  };
}

/** The cookie that carries the session token: one per port, so two servers on one machine keep theirs. */
export function tokenCookieName(port: number): string {
  return `uwf-ui-${port}`;
}

/** A value of the `Cookie` header by name, or null. */
export function readCookie(header: string | null, name: string): string | null {
  if (header === null) return null;
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return null;
}

/** `Authorization: Bearer TOKEN`'s token, or null. */
export function readBearer(header: string | null): string | null {
  const match = header === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match === null ? null : (match[1] as string);
}

/** Compares two tokens in a time that does not tell how much of them matched. */
export function sameToken(given: string, token: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(token);
  return left.length === right.length && timingSafeEqual(left, right);
}
