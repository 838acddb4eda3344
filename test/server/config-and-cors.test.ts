import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, DEFAULT_CONFIG, readConfig } from '../../server/process/config.ts';
import { payFacts } from '../helpers/packs.ts';
import { startTestServer } from './helpers.ts';

test('with no environment the contract defaults apply, on 127.0.0.1:4000', () => {
  assert.equal(readConfig({}), DEFAULT_CONFIG);
  assert.is(DEFAULT_CONFIG.host, '127.0.0.1');
  assert.is(DEFAULT_CONFIG.port, 4000);
  assert.is(DEFAULT_CONFIG.bodyLimitBytes, 65536);
  assert.is(DEFAULT_CONFIG.calcTimeoutMs, 5000);
  assert.is(DEFAULT_CONFIG.rateLimitMax, 60);
});

test('every setting is read from its variable', () => {
  const config = readConfig({
    HOST: '0.0.0.0',
    PORT: '4100',
    RATE_LIMIT_MAX: '0',
    RATE_LIMIT_WINDOW_S: '30',
    CALC_CONCURRENCY: '2',
    CALC_TIMEOUT_MS: '2500',
    BODY_LIMIT_BYTES: '1024',
    BODY_TIMEOUT_MS: '1000',
    TRUST_PROXY: '2',
    CORS_ORIGINS: 'https://app.example.com, https://admin.example.com',
    ANSWER_BATCH_MAX: '1',
  });
  assert.is(config.answerBatchMax, 1);
  assert.equal(
    [config.host, config.port, config.rateLimitMax, config.rateLimitWindowSeconds, config.calcConcurrency, config.calcTimeoutMs, config.bodyLimitBytes, config.bodyTimeoutMs, config.trustProxyHops],
    ['0.0.0.0', 4100, 0, 30, 2, 2500, 1024, 1000, 2],
  );
  assert.equal(config.corsOrigins, ['https://app.example.com', 'https://admin.example.com']);
});

test('invalid settings are all reported at once, by name, without their values', () => {
  try {
    readConfig({ PORT: '70000', BODY_LIMIT_BYTES: 'lots', TRUST_PROXY: 'yes', CORS_ORIGINS: 'not an origin', REDIS_URL: 'cache.internal:6379', ANSWER_BATCH_MAX: '0' });
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.instance(error, ConfigError);
    const message = (error as Error).message;
    for (const name of ['PORT', 'BODY_LIMIT_BYTES', 'TRUST_PROXY', 'CORS_ORIGINS', 'REDIS_URL', 'ANSWER_BATCH_MAX']) assert.match(message, name);
    assert.not.match(message, /lots|70000|not an origin|cache\.internal/);
  }
});

test('CORS is off by default and, when enabled, answers only the listed origins', async () => {
  const closed = await startTestServer();
  const open = await startTestServer({ config: { corsOrigins: ['https://app.example.com'] } });
  try {
    const plain = await fetch(`${closed.url}/api/v1/calculators`, { headers: { origin: 'https://app.example.com' } });
    assert.is(plain.headers.get('access-control-allow-origin'), null);
    const allowed = await fetch(`${open.url}/api/v1/calculators/au.pay.take-home/calculate`, {
      method: 'POST',
      headers: { origin: 'https://app.example.com', 'content-type': 'application/json' },
      body: JSON.stringify({ facts: payFacts(165400, 'weekly', true) }),
    });
    assert.is(allowed.status, 200);
    assert.is(allowed.headers.get('access-control-allow-origin'), 'https://app.example.com');
    assert.is(allowed.headers.get('access-control-allow-credentials'), null);
    const preflight = await fetch(`${open.url}/api/v1/calculators/au.pay.take-home/calculate`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    assert.is(preflight.status, 204);
    assert.is(preflight.headers.get('access-control-allow-methods'), 'GET, POST');
    assert.is(preflight.headers.get('access-control-allow-headers'), 'content-type');
    const stranger = await fetch(`${open.url}/api/v1/calculators`, { headers: { origin: 'https://evil.example' } });
    assert.is(stranger.headers.get('access-control-allow-origin'), null);
  } finally {
    await closed.close();
    await open.close();
  }
});

test.run();
