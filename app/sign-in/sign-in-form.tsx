"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { ApiClientError, apiFetch } from "@/lib/query/api-client";
import type { SignInChoice } from "@/lib/schemas/session";
import type { TwoFactorSetup } from "@/lib/schemas/two-factor";
import { TwoFactorStep, type SecondStep } from "./two-factor-step";
import { ROLE_LABELS } from "@/lib/values/roles";

type SignInAnswer =
  | { status: "success" }
  | SignInChoice
  | { status: "two_factor_required"; challenge: string }
  | { status: "two_factor_setup_required"; challenge: string; setup: TwoFactorSetup };

/**
 * The sign-in form: POST /api/auth/sign-in, then on to `next` (server-rendered with the new cookie).
 * When the password is right in several companies, the answer lists them and the user picks one: the
 * same credentials go again with its company_id (they stay in this component's state only).
 */
export function SignInForm({ next }: { next: string }) {
  const router = useRouter();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  /** What is being sent: "form" (the first step) or the chosen company's id. */
  const [pending, setPending] = useState<string | null>(null);
  const [choice, setChoice] = useState<SignInChoice | null>(null);
  const [secondStep, setSecondStep] = useState<SecondStep | null>(null);

  async function submit(companyId?: string) {
    setPending(companyId ?? "form");
    setError(null);
    setFieldErrors({});
    try {
      const answer = await apiFetch<SignInAnswer>("/auth/sign-in", {
        method: "POST",
        body: { email, password, ...(companyId ? { company_id: companyId } : {}) },
      });
      if (answer.status === "choose_company") {
        setChoice(answer);
        setPending(null);
        return;
      }
      if (answer.status === "two_factor_required" || answer.status === "two_factor_setup_required") {
        setSecondStep(
          answer.status === "two_factor_required"
            ? { kind: "code", challenge: answer.challenge }
            : { kind: "setup", challenge: answer.challenge, setup: answer.setup },
        );
        // The password is no longer needed in this page's memory.
        setPassword("");
        setPending(null);
        return;
      }
      router.replace(next);
      router.refresh();
    } catch (err) {
      setPending(null);
      if (err instanceof ApiClientError) {
        setFieldErrors(err.fieldErrors());
        setError(err.details.length > 0 ? null : err.message);
      } else {
        setError("Something went wrong. Please try again.");
      }
    }
  }

  function startOver() {
    setChoice(null);
    setSecondStep(null);
    setPassword("");
    setError(null);
  }

  if (secondStep) {
    return <TwoFactorStep step={secondStep} next={next} onStartOver={startOver} />;
  }

  if (choice) {
    return (
      <CompanyChooser
        choice={choice}
        email={email}
        error={error}
        pending={pending}
        onChoose={(id) => void submit(id)}
        onStartOver={startOver}
      />
    );
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      noValidate
      className="space-y-5"
      aria-label="Sign in"
    >
      {error ? <Notice tone="danger">{error}</Notice> : null}
      <Field label="Email" error={fieldErrors.email}>
        <Input
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </Field>
      <Field label="Password" error={fieldErrors.password}>
        <Input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <Button type="submit" className="w-full" loading={pending === "form"}>
        {pending === "form" ? "Signing in…" : "Sign in"}
      </Button>
      <p className="text-center text-sm">
        <Link href="/forgot-password" className="font-medium text-brand-700 hover:underline">
          Forgot password?
        </Link>
      </p>
    </form>
  );
}

/** The second step: one button per company whose account matched; nothing is chosen for the user. */
function CompanyChooser({
  choice,
  email,
  error,
  pending,
  onChoose,
  onStartOver,
}: {
  choice: SignInChoice;
  email: string;
  error: string | null;
  pending: string | null;
  onChoose: (companyId: string) => void;
  onStartOver: () => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form was replaced: move focus to the new step so keyboard and screen reader users follow.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <section aria-labelledby="choose-company-heading" className="space-y-5">
      <div>
        <h2
          id="choose-company-heading"
          ref={headingRef}
          tabIndex={-1}
          className="text-lg font-semibold text-slate-900 focus:outline-none"
        >
          Choose a company
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          <span className="font-medium break-all text-slate-800">{email}</span> has an account in{" "}
          {choice.companies.length > 1 ? "each of these companies" : "this company"}. Which one do you want to
          sign in to?
        </p>
      </div>
      {error ? <Notice tone="danger">{error}</Notice> : null}
      {choice.others_locked ? (
        <Notice tone="warning">
          Other accounts with this email are locked after failed sign-ins and are not listed. If your company
          is missing, try again later.
        </Notice>
      ) : null}
      <ul className="space-y-2" aria-label="Companies">
        {choice.companies.map((company) => (
          <li key={company.id}>
            <button
              type="button"
              disabled={pending !== null}
              onClick={() => onChoose(company.id)}
              className="flex w-full items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3 text-left shadow-sm transition-colors hover:border-brand-300 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60"
            >
              <span className="min-w-0">
                <span className="block truncate font-medium text-slate-900">{company.name}</span>
                <span className="block text-sm text-slate-500">{ROLE_LABELS[company.role]}</span>
              </span>
              <span className="shrink-0 text-sm font-medium text-brand-700" aria-hidden="true">
                {pending === company.id ? "Signing in…" : "Sign in →"}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <p className="text-xs text-slate-500">
        Do not choose a company you do not know: tell your administrator that it added your email.
      </p>
      <Button variant="ghost" className="w-full" onClick={onStartOver} disabled={pending !== null}>
        Use a different account
      </Button>
    </section>
  );
}
