"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { TwoFactorSetup } from "@/lib/schemas/two-factor";

/** The secret in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

/** A 6-digit code field (numeric keyboard on phones; browsers offer codes from SMS or the app). */
export function CodeInput({
  value,
  onChange,
  error,
  label = "6-digit code",
  autoFocus,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  label?: string;
  autoFocus?: boolean;
}) {
  return (
    <Field label={label} error={error}>
      <Input
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9 ]*"
        maxLength={7}
        required
        autoFocus={autoFocus}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="font-mono tracking-widest"
      />
    </Field>
  );
}

/** What to scan into an authenticator app: the QR code, and the secret to type instead. */
export function AuthenticatorSetup({ setup }: { setup: TwoFactorSetup }) {
  const [showSecret, setShowSecret] = useState(false);
  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
      {/* A data: URL made by the server; next/image adds nothing for it. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img
        src={setup.qr_code}
        alt="QR code to scan with your authenticator app"
        width={176}
        height={176}
        className="size-44 shrink-0 rounded-lg border border-slate-200 bg-white p-1"
      />
      <div className="min-w-0 space-y-2 text-sm text-slate-600">
        <p>
          Scan the code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password,
          Authy…), then enter the 6-digit code it shows.
        </p>
        {showSecret ? (
          <div className="space-y-2">
            <p>Or type this key into the app (time-based):</p>
            <p className="font-mono text-base break-words text-slate-900" aria-label="Setup key">
              {grouped(setup.secret)}
            </p>
            <CopyButton value={setup.secret} label="Copy key" />
          </div>
        ) : (
          <Button variant="ghost" size="sm" onClick={() => setShowSecret(true)} className="-ml-3">
            Can&apos;t scan it? Show the key
          </Button>
        )}
      </div>
    </div>
  );
}

/** The ten recovery codes, shown once after setup. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        Each code signs you in once if you lose your phone. Keep them somewhere safe, such as a password
        manager: they are not shown again.
      </p>
      <ol
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-x-6 gap-y-1 rounded-lg border border-slate-200 bg-slate-50 p-4 font-mono text-sm text-slate-900"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <CopyButton value={codes.join("\n")} label="Copy codes" />
    </div>
  );
}
