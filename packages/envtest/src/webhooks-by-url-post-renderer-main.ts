// The program behind webhooksByUrlPostRenderer's Helm plugin (built to
// dist/webhooks-by-url-post-renderer-main.js): Helm 4 pipes a release's rendered manifests
// through it, stdin to stdout, before applying them. Arguments: <port> [host].
import { renderWebhooksByUrl } from './webhooks-by-url-post-renderer.js';

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  input += chunk;
});
process.stdin.on('end', () => {
  try {
    const host = process.argv[3];
    process.stdout.write(
      renderWebhooksByUrl(input, { port: Number(process.argv[2]), ...(host ? { host } : {}) }),
    );
  } catch (error) {
    process.stderr.write(`webhooks-by-url: ${error instanceof Error ? error.message : error}\n`);
    process.exitCode = 1;
  }
});
