"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { Button, buttonClasses } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { ApiClientError, apiFetch } from "@/lib/query/api-client";
import { PASSWORD_MIN_LENGTH } from "@/lib/schemas/settings";

/** The reset link's form: a new password, twice; then a way to sign in with it. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    if (password !== confirm) {
      setFieldErrors({ confirm: "The passwords do not match" });
      return;
    }
    setFieldErrors({});
    setPending(true);
    try {
      await apiFetch("/auth/password-reset/confirm", { method: "POST", body: { token, password } });
      setDone(true);
    } catch (err) {
      if (err instanceof ApiClientError) {
        const fields = err.fieldErrors();
        setError(fields.token ?? (err.details.length > 0 ? null : err.message));
        delete fields.token;
        setFieldErrors(fields);
      } else {
        setError("Something went wrong. Please try again.");
      }
    } finally {
      setPending(false);
    }
  }

  if (done) return <Done />;

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label="Choose a new password">
      {error ? (
        <Notice tone="danger">
          {error}{" "}
          <Link href="/forgot-password" className="font-medium underline">
            Ask for a new link
          </Link>
        </Notice>
      ) : null}
      <Field
        label="New password"
        error={fieldErrors.password}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      >
        <Input
          name="password"
          type="password"
          autoComplete="new-password"
          required
          autoFocus
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <Field label="Repeat the new password" error={fieldErrors.confirm}>
        <Input
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
      </Field>
      <Button type="submit" className="w-full" loading={pending}>
        {pending ? "Saving…" : "Set the new password"}
      </Button>
    </form>
  );
}

function Done() {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <section aria-labelledby="done-heading" className="space-y-4">
      <h2
        id="done-heading"
        ref={ref}
        tabIndex={-1}
        className="text-lg font-semibold text-slate-900 focus:outline-none"
      >
        Your password is set
      </h2>
      <p className="text-sm text-slate-600">
        For your safety this account was signed out everywhere. Sign in with the new password.
      </p>
      <Link href="/sign-in" className={buttonClasses("primary", "md", "w-full")}>
        Sign in
      </Link>
    </section>
  );
}
