/**
 * Where a record-system endpoint may point. A Super User's endpoint URL makes this server send
 * requests, so it must not reach what only this server can: its own loopback, private and
 * shared networks, link-local (the clouds' metadata service, 169.254.169.254), unique-local
 * IPv6, or the metadata names. Those are refused unless RMS_ALLOW_PRIVATE_HOSTS lists them (an
 * on-premise record system). Checked when the URL is saved (a clear 422) and again on every
 * connection, on the very address the socket connects to (the lookup below), so a name that
 * resolves elsewhere later (DNS rebinding) is refused all the same.
 */
import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** The hosts RMS_ALLOW_PRIVATE_HOSTS lets through: host names, addresses and address ranges (CIDR). */
export interface PrivateHostAllowance {
  names: ReadonlySet<string>;
  addresses: BlockList;
}

export const PRIVATE_HOST_REFUSED = 'This address is on a private, loopback, link-local or metadata network; list it in RMS_ALLOW_PRIVATE_HOSTS to use it.';

/** Refused whatever they resolve to: names that mean this machine or a cloud's metadata service. */
const REFUSED_NAME = /(^|\.)(localhost|internal|local)$|^metadata$|^metadata\.google\.internal$/;

const PRIVATE_RANGES: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

const privateRanges = new BlockList();
for (const [network, prefix, family] of PRIVATE_RANGES) privateRanges.addSubnet(network, prefix, family);

/** An address as compared: an IPv4-mapped or -compatible IPv6 address as its IPv4 form. */
function plainAddress(address: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  const text = address.toLowerCase().replace(/^\[|\]$/g, '');
  const mapped = /^::(?:ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(text);
  if (hexMapped) {
    const [hi, lo] = [parseInt(hexMapped[1]!, 16), parseInt(hexMapped[2]!, 16)];
    return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: 'ipv4' };
  }
  const version = isIP(text);
  return version === 4 ? { address: text, family: 'ipv4' } : version === 6 ? { address: text, family: 'ipv6' } : null;
}

/** Whether an IP address is one only this machine or its own networks can reach. */
export function isPrivateAddress(address: string): boolean {
  const plain = plainAddress(address);
  return plain === null || privateRanges.check(plain.address, plain.family);
}

/**
 * RMS_ALLOW_PRIVATE_HOSTS's entries (comma-separated host names, IP addresses or CIDR ranges)
 * as an allowance; throws naming the first entry that is none of these.
 */
export function privateHostAllowance(entries: readonly string[]): PrivateHostAllowance {
  const names = new Set<string>();
  const addresses = new BlockList();
  for (const entry of entries) {
    const [network, prefix, extra] = entry.split('/');
    const plain = plainAddress(network ?? '');
    if (plain && prefix === undefined) addresses.addAddress(plain.address, plain.family);
    else if (plain && extra === undefined && /^\d{1,3}$/.test(prefix ?? '') && Number(prefix) <= (plain.family === 'ipv4' ? 32 : 128)) {
      addresses.addSubnet(plain.address, Number(prefix), plain.family);
    } else if (prefix === undefined && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(entry)) names.add(entry.toLowerCase());
    else throw new Error(`"${entry}" is not a host name, an IP address or a CIDR range`);
  }
  return { names, addresses };
}

const isAllowedAddress = (allowance: PrivateHostAllowance, address: string) => {
  const plain = plainAddress(address);
  return plain !== null && allowance.addresses.check(plain.address, plain.family);
};

const hostName = (host: string) => host.toLowerCase().replace(/^\[|\]$/g, '');

/** Whether a host name is refused by its name alone (unless listed). */
const isRefusedName = (allowance: PrivateHostAllowance, host: string) =>
  !allowance.names.has(hostName(host)) && isIP(hostName(host)) === 0 && REFUSED_NAME.test(hostName(host).replace(/\.$/, ''));

/** Whether connecting to `address` (which host name `host` resolved to) is allowed. */
export function mayConnect(allowance: PrivateHostAllowance, host: string, address: string): boolean {
  if (allowance.names.has(hostName(host)) || isAllowedAddress(allowance, address)) return true;
  return !isPrivateAddress(address) && !isRefusedName(allowance, host);
}

/**
 * Whether an endpoint URL may be saved: null when it may, else why not. A name that does not
 * resolve now is kept (its record system may be down); every connection checks again.
 */
export async function endpointHostProblem(allowance: PrivateHostAllowance, endpoint: string): Promise<string | null> {
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return mayConnect(allowance, host, host) ? null : PRIVATE_HOST_REFUSED;
  if (isRefusedName(allowance, host)) return PRIVATE_HOST_REFUSED;
  const resolved = await dns.promises.lookup(host, { all: true, verbatim: true }).catch(() => []);
  return resolved.every((r) => mayConnect(allowance, host, r.address)) ? null : PRIVATE_HOST_REFUSED;
}

/** The error a connection refused by guardedLookup fails with. */
export const PRIVATE_ADDRESS_CODE = 'ERR_RMS_PRIVATE_ADDRESS';

/**
 * A socket lookup that resolves as usual and refuses (PRIVATE_ADDRESS_CODE) when an address the
 * name resolved to may not be connected to: the check is made on the address connected to.
 */
export function guardedLookup(allowance: PrivateHostAllowance): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const refused = addresses.length === 0 || addresses.some((a) => !mayConnect(allowance, hostname, a.address));
      if (refused) return callback(Object.assign(new Error('the record system resolves to a private address'), { code: PRIVATE_ADDRESS_CODE }), '', 4);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
