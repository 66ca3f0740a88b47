#!/usr/bin/env node
/**
 * `npm run sandbox`: the sandbox alone on PORT (default 4010), key from SANDBOX_SECRET_KEY.
 */
import { createSandbox } from './create-sandbox';
import { SANDBOX_TEST_KEY } from './test-data';

const port = Number(process.env.PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number from 0 to 65535, not "${process.env.PORT}".`);
  process.exit(1);
}
const secretKey = process.env.SANDBOX_SECRET_KEY || SANDBOX_TEST_KEY;

try {
  const sandbox = await createSandbox({
    port,
    host: process.env.HOST ?? '127.0.0.1',
    secretKey,
    webhookUrl: process.env.SANDBOX_WEBHOOK_URL || null,
    webhookSecret: process.env.SANDBOX_WEBHOOK_SECRET || null,
  });
  // The sandbox key is a test key by design; printing it is how a developer learns it.
  console.log(`paydrop sandbox listening on ${sandbox.url}`);
  console.log(`secret key (X-Api): ${secretKey}`);
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  console.error(
    `paydrop sandbox could not start: ${error instanceof Error ? error.message : error}`,
  );
  process.exit(1);
}
