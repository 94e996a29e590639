"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { ApiClientError, apiFetch } from "@/lib/query/api-client";
import { PASSWORD_MIN_LENGTH } from "@/lib/schemas/settings";

/** The invite link's form: name and password; on success the new user is signed in and lands on the start page. */
export function AcceptInviteForm({ token }: { token: string }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

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
      await apiFetch("/auth/invites/accept", { method: "POST", body: { token, name, password } });
      router.replace("/");
      router.refresh();
    } catch (err) {
      setPending(false);
      if (err instanceof ApiClientError) {
        const fields = err.fieldErrors();
        // The token is not a field the user can fix: its problem is the page's message.
        setError(fields.token ?? (err.details.length > 0 ? null : err.message));
        delete fields.token;
        setFieldErrors(fields);
      } else {
        setError("Something went wrong. Please try again.");
      }
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label="Accept the invite">
      {error ? <Notice tone="danger">{error}</Notice> : null}
      <Field label="Your name" error={fieldErrors.name} required>
        <Input
          name="name"
          autoComplete="name"
          required
          autoFocus
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </Field>
      <Field
        label="Password"
        error={fieldErrors.password}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        required
      >
        <Input
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <Field label="Repeat the password" error={fieldErrors.confirm} required>
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
        {pending ? "Joining…" : "Join and sign in"}
      </Button>
    </form>
  );
}
