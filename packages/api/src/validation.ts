/**
 * The name and label rules of Kubernetes (apimachinery's `validation` package). Each
 * function returns the list of problems with its input, empty when the input is valid, worded
 * as kube-apiserver words them so that messages match what users see from a real cluster.
 */

const qualifiedNameMaxLength = 63;
const labelValueMaxLength = 63;
const dns1123LabelMaxLength = 63;
const dns1123SubdomainMaxLength = 253;

const qualifiedNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const labelValuePattern = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * A qualified name: `name` or `prefix/name`, where `name` is at most 63 characters of
 * alphanumerics, `-`, `_` and `.` that start and end alphanumeric, and `prefix` is a DNS
 * subdomain. Label keys, annotation keys and finalizers are qualified names.
 */
export function validateQualifiedName(value: string): string[] {
  const errors: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = value;
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) {
      errors.push('prefix part must be non-empty');
    } else {
      for (const problem of validateDns1123Subdomain(prefix)) errors.push(`prefix part ${problem}`);
    }
  } else {
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) {
    errors.push('name part must be non-empty');
  } else if (name.length > qualifiedNameMaxLength) {
    errors.push(`name part must be no more than ${qualifiedNameMaxLength} characters`);
  }
  if (name.length > 0 && !qualifiedNamePart.test(name)) {
    errors.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
  }
  return errors;
}

/** A label value: empty, or at most 63 alphanumerics, `-`, `_`, `.`, starting and ending alphanumeric. */
export function validateLabelValue(value: string): string[] {
  const errors: string[] = [];
  if (value.length > labelValueMaxLength) {
    errors.push(`must be no more than ${labelValueMaxLength} characters`);
  }
  if (!labelValuePattern.test(value)) {
    errors.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  }
  return errors;
}

/** A DNS-1123 label (RFC 1123): at most 63 lowercase alphanumerics or `-`, alphanumeric at both ends. Namespace and Service names. */
export function validateDns1123Label(value: string): string[] {
  const errors: string[] = [];
  if (value.length > dns1123LabelMaxLength) {
    errors.push(`must be no more than ${dns1123LabelMaxLength} characters`);
  }
  if (!dns1123Label.test(value)) {
    errors.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errors;
}

/** A DNS-1123 subdomain: at most 253 characters of dot-separated DNS-1123 labels. Most object names. */
export function validateDns1123Subdomain(value: string): string[] {
  const errors: string[] = [];
  if (value.length > dns1123SubdomainMaxLength) {
    errors.push(`must be no more than ${dns1123SubdomainMaxLength} characters`);
  }
  if (!dns1123Subdomain.test(value)) {
    errors.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  }
  return errors;
}
