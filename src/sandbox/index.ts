// paydrop/sandbox: a local, stateful simulator of the provider, for tests and development.
export { createSandbox, type Sandbox, type SandboxOptions } from './create-sandbox';
export {
  createSandboxHandler,
  isDroppedResponse,
  type SandboxHandler,
  type SandboxHandlerOptions,
} from './handler';
export {
  type CardBehaviour,
  CHALLENGE_PASS_CODE,
  FAILING_ACCOUNT_NUMBER,
  SANDBOX_TEST_KEY,
  STARTING_WALLETS,
  TEST_CARDS,
} from './test-data';
