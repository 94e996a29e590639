"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState, errorMessage } from "@/components/ui/error-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { LoadingBlock } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { SCOPES, type Scope } from "@/lib/values/scopes";
import { formatDate, formatDateTime, formatNumber } from "@/lib/format";
import { ApiClientError } from "@/lib/query/api-client";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "@/lib/query/settings";
import { createApiKeyBodySchema, type ApiKeyRecord, type CreatedApiKey } from "@/lib/schemas/settings";
import { MobileDetail, MobileList, SettingsTable, Td, Th } from "./table";

const SCOPE_HELP: Record<Scope, string> = {
  "leads:read": "List and read leads (also customers, jobs and pin types)",
  "leads:write": "Create and update leads",
  "customers:read": "List and read customers",
  "customers:write": "Create and update customers",
  "service_plans:read": "Service plan report",
  "jobs:read": "Serviced jobs report",
  "pins:read": "Map pins",
  "pin_types:read": "Pin types",
  "pins:write": "Drop and update map pins",
  "reports:read": "Reports",
  "pipeline:read": "Read the lead pipeline's stages",
};

/** Field errors by top-level field ("scopes.1" → "scopes"), first message wins. */
function topLevelErrors(details: { field: string; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of details) out[d.field.split(".")[0] ?? d.field] ??= d.message;
  return out;
}

export function ApiKeysSection() {
  const keys = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRecord | null>(null);

  return (
    <Card aria-labelledby="api-keys-heading">
      <CardHeader
        id="api-keys-heading"
        title="API keys"
        description="Keys let your other tools call the API. Each key has scopes and a daily request limit."
        actions={<Button onClick={() => setCreating(true)}>Create API key</Button>}
      />
      {keys.isPending ? (
        <LoadingBlock label="Loading API keys" />
      ) : keys.isError ? (
        <ErrorState error={keys.error} title="Could not load the API keys" onRetry={() => keys.refetch()} />
      ) : keys.data.data.length === 0 ? (
        <EmptyState
          title="No API keys yet"
          description="Create a key for each integration, with only the scopes it needs."
          action={
            <Button variant="secondary" onClick={() => setCreating(true)}>
              Create API key
            </Button>
          }
        />
      ) : (
        <>
          <SettingsTable label="API keys" minWidth="64rem">
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Key</Th>
                <Th>Scopes</Th>
                <Th className="text-right">Used today</Th>
                <Th>Last used</Th>
                <Th>Created</Th>
                <Th>Status</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {keys.data.data.map((key) => (
                <tr key={key.id} className={key.revoked_at ? "bg-slate-50/60" : undefined}>
                  <Td className="min-w-36 font-medium text-slate-900">{key.name}</Td>
                  <Td>
                    <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
                      {key.prefix}…
                    </code>
                  </Td>
                  <Td>
                    <div className="flex max-w-80 min-w-56 flex-wrap gap-1">
                      {key.scopes.map((scope) => (
                        <Badge key={scope} className="font-mono">
                          {scope}
                        </Badge>
                      ))}
                    </div>
                  </Td>
                  <Td className="text-right tabular-nums whitespace-nowrap">
                    {formatNumber(key.used_today)}{" "}
                    <span className="text-slate-500">/ {formatNumber(key.daily_limit)}</span>
                  </Td>
                  <Td className="whitespace-nowrap">
                    {key.last_used_at ? formatDateTime(key.last_used_at) : "Never"}
                  </Td>
                  <Td className="whitespace-nowrap">{formatDate(key.created_at)}</Td>
                  <Td>
                    <KeyStatus apiKey={key} />
                  </Td>
                  <Td className="text-right">
                    {key.revoked_at ? null : (
                      <Button
                        variant="danger-ghost"
                        size="sm"
                        onClick={() => setRevoking(key)}
                        aria-label={`Revoke ${key.name}`}
                      >
                        Revoke
                      </Button>
                    )}
                  </Td>
                </tr>
              ))}
            </tbody>
          </SettingsTable>
          <MobileList label="API keys">
            {keys.data.data.map((key) => (
              <li key={key.id} className="space-y-3 px-4 py-4">
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="truncate font-medium text-slate-900" title={key.name}>
                      {key.name}
                    </p>
                    <code className="font-mono text-xs text-slate-500">{key.prefix}…</code>
                  </div>
                  <KeyStatus apiKey={key} />
                </div>
                <div className="flex flex-wrap gap-1">
                  {key.scopes.map((scope) => (
                    <Badge key={scope} className="font-mono">
                      {scope}
                    </Badge>
                  ))}
                </div>
                <dl className="space-y-1">
                  <MobileDetail label="Used today">
                    {formatNumber(key.used_today)} / {formatNumber(key.daily_limit)}
                  </MobileDetail>
                  <MobileDetail label="Last used">
                    {key.last_used_at ? formatDateTime(key.last_used_at) : "Never"}
                  </MobileDetail>
                  <MobileDetail label="Created">{formatDate(key.created_at)}</MobileDetail>
                </dl>
                {key.revoked_at ? null : (
                  <Button
                    variant="danger-ghost"
                    size="sm"
                    className="w-full ring-1 ring-red-200 ring-inset"
                    onClick={() => setRevoking(key)}
                  >
                    Revoke {key.name}
                  </Button>
                )}
              </li>
            ))}
          </MobileList>
        </>
      )}

      {creating ? (
        <CreateKeyDialog
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setCreated(key);
          }}
        />
      ) : null}
      <NewKeyDialog created={created} onClose={() => setCreated(null)} />
      <RevokeKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}

function KeyStatus({ apiKey }: { apiKey: ApiKeyRecord }) {
  return apiKey.revoked_at ? (
    <Badge tone="danger" title={`Revoked ${formatDateTime(apiKey.revoked_at)}`}>
      Revoked {formatDate(apiKey.revoked_at)}
    </Badge>
  ) : (
    <Badge tone="success">Active</Badge>
  );
}

function CreateKeyDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const create = useCreateApiKey();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [dailyLimit, setDailyLimit] = useState("1000");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const clearError = (field: string) =>
    setErrors((current) => {
      const next = { ...current };
      delete next[field];
      return next;
    });

  function toggle(scope: Scope, on: boolean) {
    clearError("scopes");
    setScopes((current) =>
      on ? SCOPES.filter((s) => s === scope || current.includes(s)) : current.filter((s) => s !== scope),
    );
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const input = { name, scopes, daily_limit: dailyLimit.trim() === "" ? undefined : Number(dailyLimit) };
    // The API's own schema, so the form says exactly what the server would.
    const parsed = createApiKeyBodySchema.safeParse(input);
    if (!parsed.success) {
      setErrors(
        topLevelErrors(parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message }))),
      );
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: onCreated,
      onError: (error) => {
        if (error instanceof ApiClientError && error.details.length > 0)
          setErrors(topLevelErrors(error.details));
        else setFormError(errorMessage(error));
      },
    });
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="Create API key"
      description="The key is shown once, right after you create it."
      size="lg"
    >
      <form id="create-key-form" onSubmit={submit} noValidate className="space-y-5">
        {formError ? <Notice tone="danger">{formError}</Notice> : null}
        <Field label="Name" error={errors.name} hint="What the key is for, e.g. “Website form”." required>
          <Input
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              clearError("name");
            }}
            data-autofocus
            maxLength={100}
          />
        </Field>
        <fieldset aria-describedby={errors.scopes ? "scopes-error" : undefined}>
          <div className="flex items-center justify-between gap-2">
            <legend className="text-sm font-medium text-slate-800">
              Scopes
              <span className="ml-0.5 text-red-600" aria-hidden="true">
                *
              </span>
            </legend>
            <div className="flex gap-1">
              <Button variant="ghost" size="sm" onClick={() => setScopes([...SCOPES])}>
                Select all
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setScopes([])}>
                Clear
              </Button>
            </div>
          </div>
          <div className="mt-2 grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-2">
            {SCOPES.map((scope) => (
              <Checkbox
                key={scope}
                name="scopes"
                value={scope}
                label={<span className="font-mono text-[13px]">{scope}</span>}
                description={SCOPE_HELP[scope]}
                checked={scopes.includes(scope)}
                onChange={(e) => toggle(scope, e.target.checked)}
              />
            ))}
          </div>
          {errors.scopes ? (
            <p id="scopes-error" className="mt-1.5 text-xs font-medium text-red-600">
              {errors.scopes}
            </p>
          ) : null}
        </fieldset>
        <Field
          label="Daily limit"
          error={errors.daily_limit}
          hint="Requests per day (UTC); the count resets at midnight UTC."
        >
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={dailyLimit}
            onChange={(e) => {
              setDailyLimit(e.target.value);
              clearError("daily_limit");
            }}
            className="max-w-48"
          />
        </Field>
        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create key
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function NewKeyDialog({ created, onClose }: { created: CreatedApiKey | null; onClose: () => void }) {
  return (
    <Dialog
      open={created !== null}
      onClose={onClose}
      title="Your new API key"
      description={
        created
          ? `“${created.name}” with ${created.scopes.length} scope${created.scopes.length === 1 ? "" : "s"}.`
          : undefined
      }
      dismissable={false}
      footer={<Button onClick={onClose}>Done</Button>}
    >
      {created ? (
        <div className="space-y-4">
          <Notice tone="warning" title="Copy this key now">
            It will not be shown again: only a fingerprint of it is stored. If you lose it, revoke it and
            create a new one.
          </Notice>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <code
              data-testid="new-api-key"
              aria-label="New API key"
              className="block min-w-0 flex-1 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900 select-all"
            >
              {created.key}
            </code>
            <CopyButton value={created.key} label="Copy key" />
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}

function RevokeKeyDialog({ apiKey, onClose }: { apiKey: ApiKeyRecord | null; onClose: () => void }) {
  const revoke = useRevokeApiKey();
  const { notify } = useToast();
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      open={apiKey !== null}
      onClose={() => {
        setError(null);
        onClose();
      }}
      title={apiKey ? `Revoke “${apiKey.name}”?` : "Revoke key"}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="danger"
            loading={revoke.isPending}
            onClick={() =>
              apiKey &&
              revoke.mutate(apiKey.id, {
                onSuccess: () => {
                  notify({ title: "API key revoked", description: `“${apiKey.name}” no longer works.` });
                  setError(null);
                  onClose();
                },
                onError: (err) => setError(errorMessage(err)),
              })
            }
          >
            Revoke key
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-slate-600">
        {error ? <Notice tone="danger">{error}</Notice> : null}
        <p>Integrations using this key stop working at once. This cannot be undone.</p>
      </div>
    </Dialog>
  );
}
