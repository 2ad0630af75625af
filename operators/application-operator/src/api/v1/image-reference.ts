// The grammar of image references (github.com/distribution/reference): an optional registry
// host[:port], path components of lower-case alphanumerics joined by . _ __ or -, then an
// optional :tag and/or @digest.
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domain = `(?:${domainComponent}(?:\\.${domainComponent})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const pathComponent = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const name = `(?:${domain}/)?${pathComponent}(?:/${pathComponent})*`;
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const reference = new RegExp(`^(${name})(?::${tag})?(?:@${digest})?$`);

/**
 * Whether `image` is a valid container image reference (`nginx`, `nginx:1.22`,
 * `ghcr.io/a/b@sha256:...`): what the validating webhook admits and the reconciler runs. The
 * empty string is not one.
 */
export function isValidImageReference(image: string): boolean {
  const match = reference.exec(image);
  return match !== null && (match[1]?.length ?? 0) <= 255;
}
