/** The oldest Node.js release line the service supports (package.json `engines`: >=22.12). */
const SUPPORTED_NODE = { major: 22, minor: 12 } as const;

/** A warning for a Node.js older than the supported line, or null. Not fatal: it may still work, untested. */
export function unsupportedNodeWarning(version: string = process.versions.node): string | null {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > SUPPORTED_NODE.major || (major === SUPPORTED_NODE.major && minor >= SUPPORTED_NODE.minor)) return null;
  return `Node.js ${version} is not supported (end of life or untested): use Node.js ${SUPPORTED_NODE.major}.${SUPPORTED_NODE.minor} or newer (see README, Running it)`;
}
