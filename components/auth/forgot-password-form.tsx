"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { ApiClientError, apiFetch } from "@/lib/query/api-client";

/** "Forgot password": the email; the answer is the same whether or not it has an account. */
export function ForgotPasswordForm() {
  const [email, setEmail] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [sent, setSent] = useState<string | null>(null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setFieldError(undefined);
    setPending(true);
    try {
      const answer = await apiFetch<{ message: string }>("/auth/password-reset", {
        method: "POST",
        body: { email },
      });
      setSent(answer.message);
    } catch (err) {
      if (err instanceof ApiClientError) {
        setFieldError(err.fieldErrors().email);
        setError(err.details.length > 0 ? null : err.message);
      } else {
        setError("Something went wrong. Please try again.");
      }
    } finally {
      setPending(false);
    }
  }

  if (sent) return <Sent message={sent} email={email} />;

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label="Ask for a password reset link">
      {error ? <Notice tone="danger">{error}</Notice> : null}
      <Field label="Email" error={fieldError}>
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
      <Button type="submit" className="w-full" loading={pending}>
        {pending ? "Sending…" : "Email me a reset link"}
      </Button>
      <p className="text-center text-sm">
        <Link href="/sign-in" className="font-medium text-brand-700 hover:underline">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}

function Sent({ message, email }: { message: string; email: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  // The form was replaced: move focus to the answer so keyboard and screen reader users follow.
  useEffect(() => ref.current?.focus(), []);
  return (
    <section aria-labelledby="sent-heading" className="space-y-4">
      <h2
        id="sent-heading"
        ref={ref}
        tabIndex={-1}
        className="text-lg font-semibold text-slate-900 focus:outline-none"
      >
        Check your email
      </h2>
      <p className="text-sm text-slate-600">
        <span className="font-medium break-all text-slate-800">{email}</span>: {message}
      </p>
      <p className="text-sm text-slate-600">
        No email after a few minutes? Check your spam folder, or ask your administrator for a reset link.
      </p>
      <p className="text-center text-sm">
        <Link href="/sign-in" className="font-medium text-brand-700 hover:underline">
          Back to sign in
        </Link>
      </p>
    </section>
  );
}
