import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServingCertificates, type ServingCertificates } from '../../tls/certificates.js';

/** What a server keeps across restarts in a state directory. */
export interface ServerState {
  /** The admin user's bearer token. */
  adminToken: string;
  /** The CA and serving certificate; undefined when the server serves plain HTTP. */
  certificates?: ServingCertificates;
}

/** The files of a state directory, by what they hold. */
export const stateFiles = {
  adminToken: 'admin.token',
  caCert: 'ca.crt',
  caKey: 'ca.key',
  cert: 'apiserver.crt',
  key: 'apiserver.key',
  hosts: 'apiserver.hosts',
} as const;

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function writeSecret(path: string, content: string): Promise<void> {
  await writeFile(path, content, { mode: 0o600 });
  await chmod(path, 0o600);
}

/**
 * The server state kept in `directory` (created, mode 0700, when missing), so a server
 * restarted with the same directory is the same cluster to its clients and a kubeconfig
 * written once keeps working:
 *
 * - `admin.token`: the admin token, made once (48 hex characters);
 * - with `https`, `ca.crt`/`ca.key`: the CA, made once; `apiserver.crt`/`apiserver.key`: the
 *   serving certificate it signed, kept while `apiserver.hosts` lists the same `hosts`, and
 *   signed anew by the same CA when the hosts change (clients trusting the CA still trust it).
 *
 * Secrets are written with mode 0600. Nothing else (objects, service account tokens) is kept:
 * the store of a restarted server starts empty.
 *
 * @throws {Error} naming the file when the directory holds half a key pair (a certificate
 *   without its key, or the reverse), or an admin token that is empty or spans several lines;
 *   the message says to restore the file or remove the directory.
 */
export async function loadServerState(
  directory: string,
  options: { https: boolean; hosts: readonly string[] },
): Promise<ServerState> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const path = (name: string) => join(directory, name);
  const broken = (what: string) =>
    new Error(
      `the state directory ${directory} ${what}; restore the file, or remove the directory to start a new cluster (clients then need the new kubeconfig)`,
    );

  let adminToken = await readOptional(path(stateFiles.adminToken));
  if (adminToken === undefined) {
    adminToken = randomBytes(24).toString('hex');
    await writeSecret(path(stateFiles.adminToken), `${adminToken}\n`);
  } else {
    adminToken = adminToken.trim();
    if (adminToken === '' || /\s/.test(adminToken))
      throw broken(`holds an ${stateFiles.adminToken} that is not one token on one line`);
  }
  if (!options.https) return { adminToken };

  const pair = async (certName: string, keyName: string) => {
    const cert = await readOptional(path(certName));
    const key = await readOptional(path(keyName));
    if ((cert === undefined) !== (key === undefined))
      throw broken(
        `holds ${cert === undefined ? keyName : certName} but not ${cert === undefined ? certName : keyName}`,
      );
    return cert === undefined || key === undefined ? undefined : { cert, key };
  };
  const hostsLine = options.hosts.join(',');
  const ca = await pair(stateFiles.caCert, stateFiles.caKey);
  const serving = await pair(stateFiles.cert, stateFiles.key);
  const storedHosts = (await readOptional(path(stateFiles.hosts)))?.trim();
  if (ca !== undefined && serving !== undefined && storedHosts === hostsLine) {
    return {
      adminToken,
      certificates: { caCert: ca.cert, caKey: ca.key, cert: serving.cert, key: serving.key },
    };
  }
  const certificates = await createServingCertificates(options.hosts, ca);
  if (ca === undefined) {
    await writeFile(path(stateFiles.caCert), certificates.caCert, { mode: 0o644 });
    await writeSecret(path(stateFiles.caKey), certificates.caKey);
  }
  await writeFile(path(stateFiles.cert), certificates.cert, { mode: 0o644 });
  await writeSecret(path(stateFiles.key), certificates.key);
  await writeFile(path(stateFiles.hosts), `${hostsLine}\n`);
  return { adminToken, certificates };
}
