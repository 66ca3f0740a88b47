/** A move the state machine does not allow, or a thing that does not exist. */
export class SandboxRefusal extends Error {
  override readonly name = 'SandboxRefusal' as const;
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}
