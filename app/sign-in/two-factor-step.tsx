"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { AuthenticatorSetup, CodeInput, RecoveryCodes } from "@/components/auth/two-factor";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { ApiClientError, apiFetch } from "@/lib/query/api-client";
import type { TwoFactorSetup } from "@/lib/schemas/two-factor";

export type SecondStep =
  { kind: "code"; challenge: string } | { kind: "setup"; challenge: string; setup: TwoFactorSetup };

/**
 * After the password: a code from the authenticator app (or a recovery code), or, when the company
 * requires two-factor and the user has none, setting up the app first. The session starts only here.
 */
export function TwoFactorStep({
  step,
  next,
  onStartOver,
}: {
  step: SecondStep;
  next: string;
  onStartOver: () => void;
}) {
  const router = useRouter();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  // The form was replaced: move focus to the new step so keyboard and screen reader users follow.
  useEffect(() => headingRef.current?.focus(), [codes]);

  async function submit() {
    setPending(true);
    setError(null);
    try {
      const answer = await apiFetch<{ status: "success"; recovery_codes?: string[] }>(
        "/auth/sign-in/two-factor",
        {
          method: "POST",
          body: {
            challenge: step.challenge,
            ...(useRecovery ? { recovery_code: value } : { code: value.trim() }),
          },
        },
      );
      if (answer.recovery_codes) {
        setCodes(answer.recovery_codes);
        setPending(false);
        return;
      }
      router.replace(next);
      router.refresh();
    } catch (err) {
      setPending(false);
      if (err instanceof ApiClientError) setError(Object.values(err.fieldErrors())[0] ?? err.message);
      else setError("Something went wrong. Please try again.");
    }
  }

  const heading = (text: string) => (
    <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
      {text}
    </h2>
  );

  if (codes) {
    return (
      <section className="space-y-5" aria-label="Recovery codes">
        {heading("Save your recovery codes")}
        <RecoveryCodes codes={codes} />
        <Button
          className="w-full"
          onClick={() => {
            router.replace(next);
            router.refresh();
          }}
        >
          Continue
        </Button>
      </section>
    );
  }

  return (
    <form
      className="space-y-5"
      noValidate
      aria-label={step.kind === "setup" ? "Set up two-factor sign-in" : "Two-factor sign-in"}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div>
        {heading(step.kind === "setup" ? "Set up two-factor sign-in" : "Enter your code")}
        <p className="mt-1 text-sm text-slate-600">
          {step.kind === "setup"
            ? "Your company requires a code from an authenticator app at sign-in. Set it up now to continue."
            : useRecovery
              ? "Enter one of the recovery codes you saved when you set up two-factor sign-in."
              : "Open your authenticator app and enter the 6-digit code for FieldCRM."}
        </p>
      </div>
      {step.kind === "setup" ? <AuthenticatorSetup setup={step.setup} /> : null}
      {error && !useRecovery && /expired|Too many/.test(error) ? (
        <Notice tone="danger">{error}</Notice>
      ) : null}
      {useRecovery ? (
        <Field label="Recovery code" error={error ?? undefined}>
          <Input
            name="recovery_code"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            value={value}
            onChange={(e) => setValue(e.target.value)}
            className="font-mono"
          />
        </Field>
      ) : (
        <CodeInput
          value={value}
          onChange={setValue}
          error={error && !/expired|Too many/.test(error) ? error : undefined}
          autoFocus
        />
      )}
      <Button type="submit" className="w-full" loading={pending}>
        {pending ? "Checking…" : step.kind === "setup" ? "Turn on and sign in" : "Sign in"}
      </Button>
      {step.kind === "code" ? (
        <Button
          variant="ghost"
          className="w-full"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setValue("");
            setError(null);
          }}
        >
          {useRecovery ? "Use a code from your app" : "Use a recovery code"}
        </Button>
      ) : null}
      <Button variant="ghost" className="w-full" onClick={onStartOver} disabled={pending}>
        Start over
      </Button>
    </form>
  );
}
