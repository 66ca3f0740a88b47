/**
 * The provider's envelopes, as the sandbox writes them. Shapes follow provider-api.md where it
 * shows them and DESIGN.md's defaults where it does not.
 */
import * as v from 'valibot';

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
};

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

function traceId(): string {
  return `00-${crypto.randomUUID().replaceAll('-', '')}-${crypto.randomUUID().slice(0, 16).replaceAll('-', '')}-01`;
}

/** A success envelope; the fund transfer answers 202. */
export function success(value: unknown, message: string, status = 200): Response {
  return json(status, { value, isSuccess: true, error: null, message, responseCode: '00', status });
}

/** 400 ValidationException with one text per violated rule (provider-api.md, Errors). */
export function validationFailure(failures: readonly string[]): Response {
  return json(400, {
    isSuccess: false,
    type: 'ValidationException',
    title: 'One or more validation errors occurred.',
    detail: failures.join(' '),
    status: 400,
    failures,
    extensions: { traceId: traceId() },
  });
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Any other refusal: DESIGN.md's envelope with `isSuccess: false`, a status and a message. */
export function refusal(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return json(
    status,
    {
      value: null,
      isSuccess: false,
      error: message,
      message,
      responseCode: String(status),
      title: TITLES[status] ?? 'Error',
      status,
      extensions: { traceId: traceId() },
    },
    headers,
  );
}

/** The insufficient-balance answer exactly as provider-api.md shows it: extensions is empty. */
export function insufficientBalance(message: string): Response {
  return json(400, { isSuccess: false, error: message, message, status: 400, extensions: {} });
}

/** Turns valibot issues into the provider's `failures`: one "field: rule" text per issue. */
export function failuresOf(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return issues.map((issue) => {
    const path = v.getDotPath(issue);
    // A strict object reports both a missing key and an unknown one with the key as its path.
    if (issue.type === 'strict_object') {
      if (!path) return 'The request body must be a JSON object.';
      return issue.received === 'undefined'
        ? `${path} is required.`
        : `${path} is not a field of this request.`;
    }
    return path ? `${path} ${issue.message}.` : `${issue.message}.`;
  });
}

const MAX_BODY_BYTES = 64 * 1024;

export type BodyResult = { ok: true; body: unknown } | { ok: false; response: Response };

/** Reads a JSON request body: JSON only, at most 64 KB, and it must parse. */
export async function readJsonBody(request: Request): Promise<BodyResult> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return {
      ok: false,
      response: validationFailure([
        `Content-Type must be application/json (got ${type ? `"${type.slice(0, 60)}"` : 'none'}).`,
      ]),
    };
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) return { ok: false, response: tooLarge() };
  const text = await request.text();
  if (new TextEncoder().encode(text).length > MAX_BODY_BYTES)
    return { ok: false, response: tooLarge() };
  if (text.trim() === '')
    return {
      ok: false,
      response: validationFailure(['The request body is empty; a JSON object is expected.']),
    };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unreadable';
    return {
      ok: false,
      response: validationFailure([`The request body is not valid JSON: ${reason}`]),
    };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, response: validationFailure(['The request body must be a JSON object.']) };
  }
  return { ok: true, body };
}

function tooLarge(): Response {
  return refusal(413, `The request body is larger than ${MAX_BODY_BYTES / 1024} KB.`);
}
