/**
 * A Balancer's nginx.conf run by a real nginx on this machine, for the operator's tests and the
 * demo (`dist/local-nginx.js`; not part of the operator's image): find an nginx with the stream
 * module, move the configuration onto local ports and echo servers, check it (`nginx -t`), run
 * it, and measure how it splits traffic.
 */
export { type EchoServer, startEchoServer } from './echo-server.js';
export { NginxNotFoundError, nginxInstallAdvice } from './errors/nginx-not-found-error.js';
export { findNginx, type Nginx } from './find-nginx.js';
export { type LocalNginxMapping, localNginxConfig } from './local-nginx-config.js';
export { measureSplit, type Split, type SplitOptions, splitShares } from './measure-split.js';
export { checkNginxConfig, type RunningNginx, startNginx } from './run-nginx.js';
