import { readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import type { ServerEndpoint } from './bench-server.js';

/**
 * The bench server as a forked child process reaches it, from the URL and kubeconfig path its
 * parent passed: the kubeconfig is read once, here, and each `kubeConfig()` call parses a
 * fresh copy of it.
 *
 * @throws {Error} when the kubeconfig file cannot be read.
 */
export function childEndpoint(url: string, kubeconfigPath: string): ServerEndpoint {
  const kubeconfig = readFileSync(kubeconfigPath, 'utf8');
  return {
    url,
    kubeconfigPath,
    kubeConfig: () => {
      const config = new KubeConfig();
      config.loadFromString(kubeconfig);
      return config;
    },
  };
}
