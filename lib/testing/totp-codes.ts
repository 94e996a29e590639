import { Secret, TOTP } from "otpauth";

const PERIOD_MS = 30_000;

/**
 * Codes for tests, made from the secret with the same library as the server. The server accepts the
 * steps before and after now, each at most once, so each code here takes the next unused step in
 * that range, and waits out the last seconds of a step so a code cannot age out on its way.
 */
export class TotpCodes {
  private last = -Infinity;

  constructor(readonly secret: string) {}

  async next(): Promise<string> {
    for (;;) {
      const intoStep = Date.now() % PERIOD_MS;
      if (intoStep > PERIOD_MS - 4000) await sleep(PERIOD_MS - intoStep + 50);
      const current = Math.floor(Date.now() / PERIOD_MS);
      const step = Math.max(current - 1, this.last + 1);
      if (step <= current + 1) {
        this.last = step;
        return TOTP.generate({ secret: parseSecret(this.secret), timestamp: step * PERIOD_MS + 1000 });
      }
      await sleep(PERIOD_MS - (Date.now() % PERIOD_MS) + 50);
    }
  }

  /** A code of a step that was already used (a replay). */
  replay(): string {
    return TOTP.generate({ secret: parseSecret(this.secret), timestamp: this.last * PERIOD_MS + 1000 });
  }

  /** A well-formed code that is none of the accepted steps' (for wrong-code tests). */
  wrong(): string {
    const now = Date.now();
    const near = new Set(
      [-1, 0, 1].map((d) =>
        TOTP.generate({ secret: parseSecret(this.secret), timestamp: now + d * PERIOD_MS }),
      ),
    );
    for (let n = 0; ; n++) {
      const code = String((123456 + n * 7919) % 1_000_000).padStart(6, "0");
      if (!near.has(code)) return code;
    }
  }
}

const parseSecret = (base32: string) => Secret.fromBase32(base32);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
