"use client";

import { useState } from "react";
import { AuthenticatorSetup, CodeInput, RecoveryCodes } from "@/components/auth/two-factor";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { LoadingBlock } from "@/components/ui/spinner";
import { formatDate } from "@/lib/format";
import { ApiClientError } from "@/lib/query/api-client";
import {
  useDisableTwoFactor,
  useEnableTwoFactor,
  useReplaceRecoveryCodes,
  useStartTwoFactorSetup,
  useTwoFactorStatus,
} from "@/lib/query/two-factor";
import type { TwoFactorSetup } from "@/lib/schemas/two-factor";

type Mode =
  | { kind: "idle" }
  | { kind: "setup"; setup: TwoFactorSetup }
  | { kind: "codes"; codes: string[] }
  | { kind: "disable" }
  | { kind: "replace" };

const messageOf = (error: unknown) =>
  error instanceof ApiClientError
    ? (Object.values(error.fieldErrors())[0] ?? error.message)
    : "Something went wrong.";

/** Two-factor sign-in on the profile page: turn it on with an authenticator app, or off. */
export function TwoFactorSection() {
  const status = useTwoFactorStatus();
  const [mode, setMode] = useState<Mode>({ kind: "idle" });
  const start = useStartTwoFactorSetup();

  let body: React.ReactNode;
  if (status.isPending) body = <LoadingBlock label="Loading two-factor sign-in" />;
  else if (status.isError)
    body = (
      <ErrorState
        error={status.error}
        title="Could not load two-factor sign-in"
        onRetry={() => status.refetch()}
      />
    );
  else if (mode.kind === "setup")
    body = (
      <SetupForm
        setup={mode.setup}
        onDone={(codes) => setMode({ kind: "codes", codes })}
        onCancel={() => setMode({ kind: "idle" })}
      />
    );
  else if (mode.kind === "codes")
    body = (
      <CardBody className="space-y-4">
        <Notice tone="success">Two-factor sign-in is on. Save your recovery codes now.</Notice>
        <RecoveryCodes codes={mode.codes} />
        <Button onClick={() => setMode({ kind: "idle" })}>I have saved them</Button>
      </CardBody>
    );
  else if (mode.kind === "disable")
    body = (
      <DisableForm onDone={() => setMode({ kind: "idle" })} onCancel={() => setMode({ kind: "idle" })} />
    );
  else if (mode.kind === "replace")
    body = (
      <ReplaceCodesForm
        onDone={(codes) => setMode({ kind: "codes", codes })}
        onCancel={() => setMode({ kind: "idle" })}
      />
    );
  else if (status.data.enabled)
    body = (
      <CardBody className="space-y-4">
        <p className="text-sm text-slate-600">
          Sign-in asks for a code from your authenticator app
          {status.data.enabled_at ? (
            <>
              {" "}
              (on since <time dateTime={status.data.enabled_at}>{formatDate(status.data.enabled_at)}</time>)
            </>
          ) : null}
          . {status.data.recovery_codes_left} of 10 recovery codes left.
        </p>
        {status.data.recovery_codes_left <= 2 ? (
          <Notice tone="warning">Few recovery codes left: make new ones.</Notice>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setMode({ kind: "replace" })}>
            New recovery codes
          </Button>
          <Button variant="danger-ghost" onClick={() => setMode({ kind: "disable" })}>
            Turn off
          </Button>
        </div>
        {status.data.required_by_company ? (
          <p className="text-sm text-slate-500">
            Your company requires two-factor: turned off, it is set up again at your next sign-in.
          </p>
        ) : null}
      </CardBody>
    );
  else
    body = (
      <CardBody className="space-y-4">
        <p className="text-sm text-slate-600">
          Protect your account with a code from an authenticator app on your phone, asked after your password.
        </p>
        {status.data.required_by_company ? (
          <Notice tone="warning">
            Your company requires two-factor sign-in: it is set up at your next sign-in.
          </Notice>
        ) : null}
        {start.isError ? <Notice tone="danger">{messageOf(start.error)}</Notice> : null}
        <Button
          loading={start.isPending}
          onClick={() => start.mutate(undefined, { onSuccess: (setup) => setMode({ kind: "setup", setup }) })}
        >
          Turn on two-factor
        </Button>
      </CardBody>
    );

  return (
    <Card aria-labelledby="two-factor-heading">
      <CardHeader
        id="two-factor-heading"
        title="Two-factor sign-in"
        description="A second step after your password, with a code from your phone."
        actions={
          status.data ? (
            <Badge tone={status.data.enabled ? "success" : "neutral"}>
              {status.data.enabled ? "On" : "Off"}
            </Badge>
          ) : null
        }
      />
      {body}
    </Card>
  );
}

function SetupForm({
  setup,
  onDone,
  onCancel,
}: {
  setup: TwoFactorSetup;
  onDone: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState("");
  const enable = useEnableTwoFactor();
  return (
    <CardBody>
      <form
        className="space-y-4"
        noValidate
        aria-label="Set up two-factor sign-in"
        onSubmit={(e) => {
          e.preventDefault();
          enable.mutate(code.trim(), { onSuccess: (answer) => onDone(answer.recovery_codes) });
        }}
      >
        <AuthenticatorSetup setup={setup} />
        <div className="max-w-xs">
          <CodeInput
            value={code}
            onChange={setCode}
            error={enable.isError ? messageOf(enable.error) : undefined}
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" loading={enable.isPending}>
            Turn on
          </Button>
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </CardBody>
  );
}

function DisableForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [withPassword, setWithPassword] = useState(false);
  const [value, setValue] = useState("");
  const disable = useDisableTwoFactor();
  const error = disable.isError ? messageOf(disable.error) : undefined;
  return (
    <CardBody>
      <form
        className="max-w-sm space-y-4"
        noValidate
        aria-label="Turn off two-factor sign-in"
        onSubmit={(e) => {
          e.preventDefault();
          disable.mutate(withPassword ? { password: value } : { code: value.trim() }, { onSuccess: onDone });
        }}
      >
        <p className="text-sm text-slate-600">
          Confirm it is you with a code from your authenticator app or your password.
        </p>
        {withPassword ? (
          <Field label="Password" error={error}>
            <Input
              type="password"
              name="password"
              autoComplete="current-password"
              autoFocus
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          </Field>
        ) : (
          <CodeInput value={value} onChange={setValue} error={error} autoFocus />
        )}
        <Button
          variant="ghost"
          size="sm"
          className="-ml-3"
          onClick={() => {
            setWithPassword(!withPassword);
            setValue("");
            disable.reset();
          }}
        >
          {withPassword ? "Use a code instead" : "Use your password instead"}
        </Button>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="danger" loading={disable.isPending}>
            Turn off two-factor
          </Button>
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </CardBody>
  );
}

function ReplaceCodesForm({ onDone, onCancel }: { onDone: (codes: string[]) => void; onCancel: () => void }) {
  const [code, setCode] = useState("");
  const replace = useReplaceRecoveryCodes();
  return (
    <CardBody>
      <form
        className="max-w-sm space-y-4"
        noValidate
        aria-label="New recovery codes"
        onSubmit={(e) => {
          e.preventDefault();
          replace.mutate(code.trim(), { onSuccess: (answer) => onDone(answer.recovery_codes) });
        }}
      >
        <p className="text-sm text-slate-600">
          Enter a code from your authenticator app. Your old recovery codes stop working.
        </p>
        <CodeInput
          value={code}
          onChange={setCode}
          error={replace.isError ? messageOf(replace.error) : undefined}
          autoFocus
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" loading={replace.isPending}>
            Make new codes
          </Button>
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </CardBody>
  );
}
