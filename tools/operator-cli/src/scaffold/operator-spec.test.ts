import { describe, expect, it } from 'vitest';
import { OperatorCliError } from '../errors/operator-cli-error.js';
import {
  camelCase,
  kebabCase,
  maxOperatorNameLength,
  type OperatorSpecInput,
  operatorSpec,
  pluralize,
} from './operator-spec.js';

const valid = { name: 'myjob-operator', group: 'batch.example.com', version: 'v1', kind: 'MyJob' };

/** The message operatorSpec refuses `input` with. */
function refusal(input: OperatorSpecInput): string {
  try {
    operatorSpec(input);
  } catch (error) {
    if (OperatorCliError.isInstance(error)) return error.message;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe('operatorSpec', () => {
  it('derives every name from a valid request, namespaced by default', () => {
    expect(operatorSpec(valid)).toEqual({
      name: 'myjob-operator',
      group: 'batch.example.com',
      version: 'v1',
      kind: 'MyJob',
      plural: 'myjobs',
      singular: 'myjob',
      scope: 'Namespaced',
      kindFile: 'my-job',
      kindCamel: 'myJob',
      kindPlural: 'MyJobs',
      operatorCamel: 'myjobOperator',
      webhooks: false,
      layout: 'workspace',
      packageManager: 'pnpm',
    });
  });

  it('takes --cluster, --namespaced and --plural', () => {
    expect(operatorSpec({ ...valid, cluster: true }).scope).toBe('Cluster');
    expect(operatorSpec({ ...valid, namespaced: true }).scope).toBe('Namespaced');
    expect(operatorSpec({ ...valid, plural: 'jobbies' }).plural).toBe('jobbies');
  });

  it('accepts the forms of each rule', () => {
    for (const version of ['v1', 'v2', 'v1alpha1', 'v2beta3', 'v10']) {
      expect(operatorSpec({ ...valid, version }).version).toBe(version);
    }
    for (const group of ['example.com', 'a-b.c1.io', 'x.y.z.example.org']) {
      expect(operatorSpec({ ...valid, group }).group).toBe(group);
    }
    for (const name of ['a-operator', 'my-job2-operator', 'x1-operator']) {
      expect(operatorSpec({ ...valid, name }).name).toBe(name);
    }
    expect(operatorSpec({ ...valid, kind: 'HTTPRoute2' }).kindFile).toBe('http-route2');
  });

  it('refuses a missing or malformed name, saying the rule and an example', () => {
    expect(refusal({ ...valid, name: undefined })).toMatch(
      /^the operator name is missing: ops-operator new <name> --group/,
    );
    for (const name of [
      'myjob',
      'MyJob-operator',
      '1job-operator',
      'my--job-operator',
      'my_job-operator',
      '-operator',
    ]) {
      expect(refusal({ ...valid, name })).toBe(
        `the operator name "${name}" must be lower-case letters, digits and single hyphens, start with a letter and end in "-operator" (it is the package, directory, image and namespace name), e.g. myjob-operator`,
      );
    }
  });

  it('refuses a name whose Service names would pass 63 characters', () => {
    const longest = `${'a'.repeat(maxOperatorNameLength - '-operator'.length)}-operator`;
    expect(maxOperatorNameLength).toBe(28);
    expect(operatorSpec({ ...valid, name: longest }).name).toBe(longest);
    expect(refusal({ ...valid, name: `a${longest}` })).toMatch(
      /is 29 characters; at most 28 fit \(kustomize prefixes .* to its Service names, which Kubernetes limits to 63\): choose a shorter name$/,
    );
  });

  it('refuses a missing or malformed --group', () => {
    expect(refusal({ ...valid, group: undefined })).toBe(
      '--group is missing: the API group, a DNS domain you own, e.g. --group batch.example.com',
    );
    for (const group of [
      'batch',
      'Batch.example.com',
      'batch..example.com',
      '-a.example.com',
      'a_b.example.com',
      `${'a'.repeat(250)}.com`,
    ]) {
      expect(refusal({ ...valid, group })).toMatch(
        new RegExp(
          `^--group "${group}" must be a DNS subdomain with at least one dot: .* e\\.g\\. --group batch\\.example\\.com$`,
        ),
      );
    }
  });

  it('refuses a missing or malformed --version', () => {
    expect(refusal({ ...valid, version: undefined })).toBe(
      '--version is missing: the API version, e.g. --version v1 or --version v1alpha1',
    );
    for (const version of ['1', 'v0', 'V1', 'v1.0', 'v1gamma1', 'v1alpha', 'v1beta0']) {
      expect(refusal({ ...valid, version })).toBe(
        `--version "${version}" must be a Kubernetes API version: "v", a number from 1, optionally "alpha" or "beta" and a number from 1, e.g. --version v1, v2beta1 or v1alpha1`,
      );
    }
  });

  it('refuses a missing or malformed --kind', () => {
    expect(refusal({ ...valid, kind: '' })).toBe(
      '--kind is missing: the kind in PascalCase, e.g. --kind MyJob',
    );
    for (const kind of ['myJob', 'My-Job', 'My_Job', '1Job', `J${'a'.repeat(63)}`]) {
      expect(refusal({ ...valid, kind })).toBe(
        `--kind "${kind}" must be PascalCase: an upper-case letter, then letters and digits, at most 63 characters, e.g. --kind MyJob`,
      );
    }
  });

  it('refuses --namespaced with --cluster, and a bad --plural', () => {
    expect(refusal({ ...valid, namespaced: true, cluster: true })).toBe(
      '--namespaced and --cluster exclude each other: pass one (the default is --namespaced)',
    );
    expect(refusal({ ...valid, plural: 'My_Jobs' })).toMatch(
      /^--plural "My_Jobs" must be a DNS label/,
    );
    expect(refusal({ ...valid, plural: 'myjob' })).toBe(
      '--plural "myjob" equals the singular name "myjob" (the kind in lower case); Kubernetes needs them to differ: pass another --plural',
    );
  });

  it('refuses a CRD name longer than 253 characters', () => {
    const group = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.io`;
    expect(refusal({ ...valid, group, kind: `K${'a'.repeat(20)}` })).toMatch(
      /^the CRD name ".*" is longer than Kubernetes's 253 characters: shorten --group or --kind/,
    );
  });
});

describe('names', () => {
  it('makes plurals as kubebuilder does', () => {
    expect(['job', 'policy', 'box', 'class', 'batch', 'mesh', 'gateway'].map(pluralize)).toEqual([
      'jobs',
      'policies',
      'boxes',
      'classes',
      'batches',
      'meshes',
      'gateways',
    ]);
  });

  it('turns kinds into file names and identifiers', () => {
    expect(['MyJob', 'HTTPRoute', 'Job', 'S3Bucket', 'ABC'].map(kebabCase)).toEqual([
      'my-job',
      'http-route',
      'job',
      's3-bucket',
      'abc',
    ]);
    expect(['my-job', 'http-route', 'myjob-operator', 's3-bucket'].map(camelCase)).toEqual([
      'myJob',
      'httpRoute',
      'myjobOperator',
      's3Bucket',
    ]);
  });
});
