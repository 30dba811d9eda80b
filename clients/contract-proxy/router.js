// Sends each request either to Prism, which checks it and its answer against openapi.yaml and forwards it to
// Allot, or, for the OAuth2 endpoints that are not part of the REST contract (/oauth2/*, /.well-known/*), straight
// to Allot. Used by .ci/contract-proxy.sh: ROUTER_PORT, PRISM_URL, APP_URL.
const http = require('node:http');

const prism = new URL(process.env.PRISM_URL);
const app = new URL(process.env.APP_URL);

http.createServer((request, response) => {
  const direct = request.url.startsWith('/oauth2/') || request.url.startsWith('/.well-known/');
  const target = direct ? app : prism;
  const forwarded = http.request({
    host: target.hostname, port: target.port, method: request.method, path: request.url,
    headers: { ...request.headers, host: `${target.hostname}:${target.port}` },
  }, (answer) => {
    response.writeHead(answer.statusCode, answer.headers);
    answer.pipe(response);
  });
  forwarded.on('error', (error) => {
    response.writeHead(502, { 'content-type': 'text/plain' });
    response.end(`router: ${error.message}\n`);
  });
  request.pipe(forwarded);
}).listen(Number(process.env.ROUTER_PORT), '127.0.0.1');
