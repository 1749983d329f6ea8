import OpenAI from 'openai';
import type { Logger } from 'pino';
import { checkScriptAnswer } from '../../domain/check-script.js';
import { feedbackPrompt, systemPrompt, userPrompt, type ChatMessage } from '../../domain/prompt.js';
import { GenerationError, type GenerateInput, type GenerateResult, type ScriptGenerator } from './types.js';

export interface OpenAiOptions {
  apiKey: string;
  /** Any OpenAI-compatible server (a local one too); default https://api.openai.com/v1. */
  baseUrl?: string;
  model?: string;
  /** One request's time limit. */
  timeoutMs?: number;
  /** Tries per request on timeouts, 429 and 5xx (so 3 = two retries). */
  maxAttempts?: number;
  /** First backoff step; doubles each retry (a 429's Retry-After wins when it says more). */
  retryBaseMs?: number;
  /** A Retry-After longer than this fails at once with the wait in the message, rather than holding the job. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

type Attempt = { retry: true; waitMs: number; reason: string } | { retry: false; message: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Chat Completions with a JSON answer in the scene shape. Transport trouble (timeouts, 429, 5xx,
 * unreachable) is retried here with backoff, honouring Retry-After; the SDK's own retries are off so
 * the waits are bounded and each failure gets a clear message. An answer that is not usable JSON, or
 * does not fit the length, is regenerated once with feedback.
 */
export class OpenAiScriptGenerator implements ScriptGenerator {
  readonly kind = 'openai' as const;
  readonly model: string;
  private readonly client: OpenAI;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly retryBaseMs: number;
  private readonly maxRetryAfterMs: number;

  constructor(
    o: OpenAiOptions,
    private readonly logger: Logger,
  ) {
    this.model = o.model || DEFAULT_OPENAI_MODEL;
    this.timeoutMs = o.timeoutMs ?? 60_000;
    this.maxAttempts = Math.max(1, o.maxAttempts ?? 3);
    this.retryBaseMs = o.retryBaseMs ?? 1000;
    this.maxRetryAfterMs = o.maxRetryAfterMs ?? 30_000;
    this.client = new OpenAI({ apiKey: o.apiKey, baseURL: o.baseUrl || undefined, timeout: this.timeoutMs, maxRetries: 0 });
  }

  async generate(input: GenerateInput, progress: (pct: number) => Promise<void>): Promise<GenerateResult> {
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(input.facts, input.type) },
      { role: 'user', content: userPrompt(input.type, input.prompt) },
    ];
    let firstProblem = '';
    for (let round = 1; round <= 2; round++) {
      await progress(round === 1 ? 15 : 60);
      const completion = await this.complete(messages);
      // A server that answers 200 with something else (an HTML error page, a bare string) is a bad answer too.
      const isCompletion = typeof completion === 'object' && completion !== null && Array.isArray(completion.choices);
      const choice = isCompletion ? completion.choices[0] : undefined;
      const content = choice?.message?.content ?? null;
      const checked: ReturnType<typeof checkScriptAnswer> = isCompletion
        ? checkScriptAnswer(content, input.type)
        : { ok: false, kind: 'malformed', problem: 'the reply was not a chat completion' };
      if (checked.ok) return { script: checked.script, model: completion.model || this.model };
      const problem =
        choice?.finish_reason === 'length' ? `${checked.problem} (the answer was cut off at the length limit)` : checked.problem;
      this.logger.warn({ round, problem, type: input.type }, 'media: unusable script from the AI provider');
      if (round === 1) {
        firstProblem = problem;
        await progress(50);
        messages.push({ role: 'assistant', content: content ?? '' }, { role: 'user', content: feedbackPrompt(problem, input.type) });
      } else {
        const lengthBoth = checked.kind === 'length';
        throw new GenerationError(
          lengthBoth
            ? `The AI provider's script did not fit the video length after two tries: ${problem}.`
            : `The AI provider's answer could not be used after two tries: ${problem}${firstProblem && firstProblem !== problem ? ` (first try: ${firstProblem})` : ''}.`,
        );
      }
    }
    throw new GenerationError('The AI provider did not produce a script.');
  }

  private async complete(messages: ChatMessage[]) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.client.chat.completions.create({
          model: this.model,
          messages,
          response_format: { type: 'json_object' },
          temperature: 0.7,
        });
      } catch (err) {
        const verdict = this.classify(err, attempt);
        if (!verdict.retry) throw new GenerationError(verdict.message);
        if (attempt >= this.maxAttempts) {
          throw new GenerationError(`The AI provider ${verdict.reason}, ${this.maxAttempts} times in a row. Please try again later.`);
        }
        this.logger.warn({ attempt, reason: verdict.reason, waitMs: verdict.waitMs }, 'media: AI provider call failed, retrying');
        await sleep(verdict.waitMs);
      }
    }
  }

  private classify(err: unknown, attempt: number): Attempt {
    const backoff = this.retryBaseMs * 2 ** (attempt - 1);
    if (err instanceof OpenAI.APIConnectionTimeoutError) {
      return { retry: true, waitMs: backoff, reason: `did not answer within ${formatMs(this.timeoutMs)}` };
    }
    if (err instanceof OpenAI.APIConnectionError) {
      return { retry: true, waitMs: backoff, reason: 'could not be reached' };
    }
    if (err instanceof OpenAI.APIError) {
      const status = err.status ?? 0;
      const detail = providerDetail(err);
      if (status === 429) {
        const asked = retryAfterMs(err.headers);
        if (asked !== null && asked > this.maxRetryAfterMs) {
          return {
            retry: false,
            message: `The AI provider is rate limiting requests and asked us to wait ${formatMs(asked)}. Please try again later.`,
          };
        }
        return { retry: true, waitMs: Math.max(asked ?? 0, backoff), reason: 'is rate limiting requests (HTTP 429)' };
      }
      if (status === 408 || status === 409 || status >= 500) {
        return { retry: true, waitMs: backoff, reason: `answered with an error (HTTP ${status})` };
      }
      if (status === 401 || status === 403) {
        return { retry: false, message: `The AI provider refused the API key (HTTP ${status}). Check OPENAI_API_KEY.` };
      }
      if (status === 404) {
        return { retry: false, message: `The AI provider does not know the model "${this.model}" (HTTP 404). Check OPENAI_MODEL.` };
      }
      return { retry: false, message: `The AI provider refused the request (HTTP ${status})${detail ? `: ${detail}` : ''}.` };
    }
    // Not an HTTP error from the provider: most likely an answer the SDK could not read.
    this.logger.warn({ err }, 'media: unexpected error from the OpenAI client');
    return { retry: true, waitMs: backoff, reason: 'sent an answer that could not be read' };
  }
}

function providerDetail(err: InstanceType<typeof OpenAI.APIError>): string {
  const e: unknown = err.error;
  const message = typeof e === 'object' && e !== null ? Reflect.get(e, 'message') : undefined;
  const m = typeof message === 'string' ? message : '';
  return m.slice(0, 200);
}

/** Retry-After (seconds or an HTTP date) or the non-standard retry-after-ms, in milliseconds. */
export function retryAfterMs(headers: Headers | undefined): number | null {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const v = headers?.get('retry-after');
  if (!v) return null;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.max(0, Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function formatMs(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return s === 1 ? '1 second' : `${s} seconds`;
}
