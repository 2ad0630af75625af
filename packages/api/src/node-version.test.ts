import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UnsupportedNodeError } from './errors/unsupported-node-error.js';
import { supportedNodeRange, unsupportedNodeMessage } from './node-version.js';

const range = '^22.19.0 || >=24.0.0';
const fix = `: install a supported release (package.json "engines": "${range}", https://nodejs.org/en/download) and run this again`;

describe('unsupportedNodeMessage', () => {
  it('accepts every release the range does', () => {
    for (const version of ['22.19.0', '22.20.1', '24.0.0', 'v24.21.0', '26.3.0']) {
      expect(unsupportedNodeMessage(version, range)).toBeUndefined();
    }
  });

  it('names the oldest supported release and this one for an older release', () => {
    expect(unsupportedNodeMessage('20.20.2', range)).toBe(
      `Node.js >= 22.19 is required, this is 20.20.2${fix}`,
    );
    expect(unsupportedNodeMessage('v22.18.9', range)).toBe(
      `Node.js >= 22.19 is required, this is 22.18.9${fix}`,
    );
    expect(unsupportedNodeMessage('18.0.0', '>=22.19.3')).toMatch(
      /^Node\.js >= 22\.19\.3 is required, this is 18\.0\.0:/,
    );
  });

  it('names the whole range for a release between the supported lines', () => {
    expect(unsupportedNodeMessage('23.11.0', range)).toBe(
      `Node.js ${range} is required, this is 23.11.0${fix}`,
    );
  });

  it('refuses a range or a version it cannot read, saying what it takes', () => {
    expect(() => unsupportedNodeMessage('24.0.0', '>=22 <25')).toThrow(
      'cannot read the Node.js range ">=22 <25": write comparators ^x.y.z or >=x.y.z joined by ||',
    );
    expect(() => unsupportedNodeMessage('latest', range)).toThrow(
      '"latest" is not a Node.js version (x.y.z)',
    );
  });

  it('checks the running Node.js against package.json "engines" by default', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(supportedNodeRange).toBe(manifest.engines.node);
    // The test command runs this on supported releases only.
    expect(unsupportedNodeMessage()).toBeUndefined();
  });

  it('enforces the engines every published package and the workspace declare', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const declared = new Map<string, string | undefined>();
    const workspace = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    declared.set('the workspace', workspace.engines?.node);
    for (const group of ['packages', 'tools']) {
      for (const entry of readdirSync(`${root}${group}`)) {
        let manifest: { name: string; private?: boolean; engines?: { node?: string } };
        try {
          manifest = JSON.parse(readFileSync(`${root}${group}/${entry}/package.json`, 'utf8'));
        } catch {
          continue;
        }
        if (manifest.private !== true) declared.set(manifest.name, manifest.engines?.node);
      }
    }
    expect(declared.size).toBeGreaterThan(5);
    for (const [name, engines] of declared)
      expect({ name, engines }).toEqual({ name, engines: supportedNodeRange });
  });
});

describe('require-supported-node', () => {
  it('loads without a word on a supported Node.js', async () => {
    await expect(import('./require-supported-node.js')).resolves.toBeDefined();
  });
});

describe('UnsupportedNodeError', () => {
  it('is recognised by isInstance, and prints as its message alone', () => {
    const error = new UnsupportedNodeError('Node.js >= 22.19 is required, this is 20.20.2');
    expect(UnsupportedNodeError.isInstance(error)).toBe(true);
    expect(UnsupportedNodeError.isInstance(new Error('other'))).toBe(false);
    // The marker is not an own property, which Node.js would print after the message.
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
  });
});
