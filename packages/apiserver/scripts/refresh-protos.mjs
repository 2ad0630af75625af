#!/usr/bin/env node
// Refreshes the vendored Kubernetes protobuf definitions the local API server decodes with:
//
// 1. reads the pinned Kubernetes version from packages/envtest/go/kubernetes/go.mod (the
//    kube-apiserver the real plane builds), i.e. the k8s.io/api and k8s.io/apimachinery
//    module versions it replaces its staging modules with;
// 2. finds those modules in the project's Go module cache ($OPS_CONTROL_PLANE_CACHE/go/mod,
//    default ~/.cache/ops/go/mod), downloading them with `go mod download -json` through the
//    Go module proxy into that same cache when they are missing;
// 3. copies the `generated.proto` of every group version in `groupVersions` below, and of every
//    file they import, into packages/apiserver/proto/ (same layout as the import paths), and
//    records the versions in proto/VERSIONS.json;
// 4. parses them with protobufjs and writes src/protobuf/generated/kubernetes-protos.json: the
//    protobufjs JSON descriptor the server loads at run time, with the Go struct tags that decide
//    the JSON form added as options: on a field, `json` (its JSON name), `keep` (a pointer or a
//    json tag without omitempty: a zero value present on the wire is kept) and `inline` (an
//    embedded struct whose fields Go's encoding/json merges into the parent); on a message,
//    `stringList` (the Go type is `[]string`, e.g. authorization/v1 ExtraValue).
//
// Usage: `pnpm --filter @ops/apiserver refresh-protos` (or `node scripts/refresh-protos.mjs`
// inside packages/apiserver). Exits non-zero with a message naming what is missing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(packageDir, '..', '..');
const protoDir = join(packageDir, 'proto');
const descriptorFile = join(packageDir, 'src', 'protobuf', 'generated', 'kubernetes-protos.json');

/** The k8s.io/api group versions whose kinds the server decodes (see kind-registry.ts). */
const groupVersions = [
  'core/v1',
  'apps/v1',
  'batch/v1',
  'rbac/v1',
  'authorization/v1',
  'authentication/v1',
  'autoscaling/v1',
  'policy/v1',
  'networking/v1',
  'scheduling/v1',
  'coordination/v1',
];
/** apimachinery packages always vendored (DeleteOptions, runtime.Unknown's neighbours). */
const apimachineryPackages = ['pkg/apis/meta/v1', 'pkg/runtime'];

const fail = (message) => {
  console.error(`refresh-protos: ${message}`);
  process.exit(1);
};

const pinnedVersion = (module) => {
  const goMod = join(repoRoot, 'packages', 'envtest', 'go', 'kubernetes', 'go.mod');
  const text = readFileSync(goMod, 'utf8');
  const match = new RegExp(`^\\s*${module.replaceAll('.', '\\.')} => \\S+ (v\\S+)`, 'm').exec(text);
  if (!match) fail(`${goMod} has no "replace ${module} => ... vX.Y.Z" line`);
  return match[1];
};

const cacheRoot = process.env.OPS_CONTROL_PLANE_CACHE
  ? resolve(process.env.OPS_CONTROL_PLANE_CACHE)
  : join(homedir(), '.cache', 'ops');
const goEnv = {
  ...process.env,
  GOMODCACHE: join(cacheRoot, 'go', 'mod'),
  GOCACHE: join(cacheRoot, 'go', 'build'),
  GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local',
  GOFLAGS: '-mod=readonly -buildvcs=false',
};

/** The directory of a module in the Go module cache, downloaded first when missing. */
const moduleDir = (module, version) => {
  const cached = join(goEnv.GOMODCACHE, `${module}@${version}`);
  if (existsSync(cached)) return cached;
  let output;
  try {
    output = execFileSync('go', ['mod', 'download', '-json', `${module}@${version}`], {
      env: goEnv,
      cwd: tmpdir(), // outside any Go module: `go mod download` then fetches the path@version
      encoding: 'utf8',
    });
  } catch (error) {
    fail(
      `${module}@${version} is not in ${goEnv.GOMODCACHE} and \`go mod download\` failed ` +
        `(${error.code === 'ENOENT' ? 'go is not on PATH' : error.message}); install Go or ` +
        'build the control plane once (`control-plane build`) to fill the cache',
    );
  }
  const { Dir: dir, Error: problem } = JSON.parse(output);
  if (problem || !dir) fail(`go mod download ${module}@${version}: ${problem ?? 'no Dir'}`);
  return dir;
};

const versions = {
  'k8s.io/api': pinnedVersion('k8s.io/api'),
  'k8s.io/apimachinery': pinnedVersion('k8s.io/apimachinery'),
};
const moduleDirs = Object.fromEntries(
  Object.entries(versions).map(([module, version]) => [module, moduleDir(module, version)]),
);

/** Import path (`k8s.io/api/core/v1/generated.proto`) → its file in the module cache. */
const sourceOf = (importPath) => {
  for (const [module, dir] of Object.entries(moduleDirs)) {
    if (importPath.startsWith(`${module}/`)) return join(dir, importPath.slice(module.length + 1));
  }
  fail(`cannot vendor ${importPath}: it is in neither ${Object.keys(moduleDirs).join(' nor ')}`);
};

// Copy the roots and everything they import.
rmSync(protoDir, { recursive: true, force: true });
const pending = [
  ...groupVersions.map((gv) => `k8s.io/api/${gv}/generated.proto`),
  ...apimachineryPackages.map((p) => `k8s.io/apimachinery/${p}/generated.proto`),
];
const vendored = new Set();
while (pending.length > 0) {
  const importPath = pending.pop();
  if (vendored.has(importPath)) continue;
  vendored.add(importPath);
  const text = readFileSync(sourceOf(importPath), 'utf8');
  mkdirSync(dirname(join(protoDir, importPath)), { recursive: true });
  writeFileSync(join(protoDir, importPath), text);
  for (const match of text.matchAll(/^import "([^"]+)";/gm)) pending.push(match[1]);
}
writeFileSync(
  join(protoDir, 'VERSIONS.json'),
  `${JSON.stringify({ ...versions, files: [...vendored].sort() }, null, 2)}\n`,
);

// Parse them.
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => join(protoDir, target);
root.loadSync([...vendored].sort(), { keepCase: true });
root.resolveAll();

/**
 * The Go structs of a package directory: name → fields by protobuf field number, from the struct
 * tags (`json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`), and the `[]string` types.
 */
const goTypes = (dir) => {
  const structs = new Map();
  const stringLists = new Set();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.go') || file.endsWith('_test.go') || file.startsWith('zz_generated'))
      continue;
    if (file === 'generated.pb.go') continue;
    let current;
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const start = /^type (\w+) struct \{/.exec(line);
      if (start) {
        // A struct declared in two files behind build tags (meta/v1 FieldsV1) merges its tags.
        current = structs.get(start[1]) ?? new Map();
        structs.set(start[1], current);
        continue;
      }
      const list = /^type (\w+) \[\]string\b/.exec(line);
      if (list) stringLists.add(list[1]);
      if (current === undefined) continue;
      if (/^\}/.test(line)) {
        current = undefined;
        continue;
      }
      const field = /^\s+([^`/]+?)\s+`([^`]*)`/.exec(line);
      if (!field) continue;
      const protobufTag = /protobuf:"[^",]*,(\d+),[^"]*"/.exec(field[2]);
      if (!protobufTag) continue;
      const [jsonName = '', ...jsonOptions] = (/json:"([^"]*)"/.exec(field[2])?.[1] ?? '').split(
        ',',
      );
      const parts = field[1].split(/\s+/);
      const embedded = parts.length === 1;
      const goType = embedded ? parts[0] : parts.slice(1).join(' ');
      current.set(Number(protobufTag[1]), {
        json: jsonName,
        keep:
          goType.startsWith('*') ||
          !(jsonOptions.includes('omitempty') || jsonOptions.includes('omitzero')),
        inline: embedded && (jsonName === '' || jsonOptions.includes('inline')),
      });
    }
  }
  return { structs, stringLists };
};

/** Adds the Go JSON options to every message of the package at `path` (`k8s.io/api/core/v1`). */
const annotate = (namespace, goDir, where) => {
  const { structs, stringLists } = goTypes(goDir);
  for (const type of namespace.nestedArray) {
    if (!(type instanceof protobuf.Type)) continue;
    if (stringLists.has(type.name)) {
      type.setOption('stringList', true);
      continue;
    }
    const fields = structs.get(type.name);
    // No tagged Go fields: a type with hand-written marshalers (Time, MicroTime, Quantity...).
    if (fields === undefined || fields.size === 0) continue;
    for (const field of type.fieldsArray) {
      const go = fields.get(field.id);
      if (go === undefined) fail(`${where}.${type.name} field ${field.id} has no Go struct tag`);
      // `json:"-"`: the type marshals itself (RawExtension, FieldsV1); keep the proto name.
      field.setOption('json', go.inline || go.json === '-' ? field.name : go.json || field.name);
      if (go.keep) field.setOption('keep', true);
      if (go.inline) field.setOption('inline', true);
    }
  }
};
for (const importPath of vendored) {
  const goPackage = dirname(importPath);
  const namespace = root.lookup(goPackage.replaceAll('/', '.'));
  if (!(namespace instanceof protobuf.Namespace)) fail(`${importPath} declares no package`);
  annotate(namespace, dirname(sourceOf(importPath)), namespace.fullName.slice(1));
}

mkdirSync(dirname(descriptorFile), { recursive: true });
writeFileSync(
  descriptorFile,
  `${JSON.stringify({ versions, descriptor: root.toJSON({ keepComments: false }) })}\n`,
);
console.log(
  `refresh-protos: vendored ${vendored.size} files of k8s.io/api ${versions['k8s.io/api']} and ` +
    `k8s.io/apimachinery ${versions['k8s.io/apimachinery']}; wrote ${descriptorFile}`,
);
