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
import { Input, Textarea } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { LoadingBlock } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { formatDate, formatDateTime } from "@/lib/format";
import { ApiClientError } from "@/lib/query/api-client";
import {
  useDeleteWebhook,
  useRotateWebhookSecret,
  useSendTestWebhook,
  useUpsertWebhook,
  useWebhookEndpoints,
} from "@/lib/query/webhooks";
import {
  upsertWebhookBodySchema,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_URL_MAX,
  type WebhookEndpoint,
} from "@/lib/schemas/webhooks";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/lib/values/enums";
import { MobileDetail, MobileList, SettingsTable, Td, Th } from "./table";
import { WebhookDeliveriesDialog } from "./webhook-deliveries";

const EVENT_HELP: Record<WebhookEventType, string> = {
  "lead.created": "A lead is added",
  "lead.updated": "A lead changes (stage, owner, details)",
  "customer.created": "A lead becomes a customer, or a customer is added",
  "customer.updated": "A customer changes",
  "pin.created": "A pin is dropped on the map",
  "pin.updated": "A pin changes",
};

/** A secret to show once: after a create or a rotation. */
type ShownSecret = { url: string; secret: string; rotated: boolean; previousUntil?: string };

/** Field errors by top-level field ("events.1" → "events"), first message wins. */
function topLevelErrors(details: { field: string; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of details) out[d.field.split(".")[0] ?? d.field] ??= d.message;
  return out;
}

export function WebhooksSection() {
  const endpoints = useWebhookEndpoints();
  // null: closed; "new": the create form; an endpoint: its edit form.
  const [editing, setEditing] = useState<WebhookEndpoint | "new" | null>(null);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [logOf, setLogOf] = useState<WebhookEndpoint | null>(null);
  const sendTest = useSendTestWebhook();
  const { notify } = useToast();

  const test = (endpoint: WebhookEndpoint) =>
    sendTest.mutate(endpoint.id, {
      onSuccess: () =>
        notify({ title: "Test event queued", description: "See the deliveries log for the result." }),
      onError: (error) =>
        notify({ title: "Could not send the test event", description: errorMessage(error), tone: "danger" }),
    });

  const actions = (endpoint: WebhookEndpoint, wide = false) => (
    <div className={wide ? "grid grid-cols-2 gap-2" : "flex flex-wrap justify-end gap-1"}>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => setLogOf(endpoint)}
        aria-label={`Deliveries of ${endpoint.url}`}
      >
        Deliveries
      </Button>
      <Button
        variant="secondary"
        size="sm"
        loading={sendTest.isPending && sendTest.variables === endpoint.id}
        disabled={!endpoint.enabled}
        onClick={() => test(endpoint)}
        aria-label={`Send test event to ${endpoint.url}`}
      >
        Send test event
      </Button>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => setEditing(endpoint)}
        aria-label={`Edit ${endpoint.url}`}
      >
        Edit
      </Button>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => setRotating(endpoint)}
        aria-label={`Rotate the secret of ${endpoint.url}`}
      >
        Rotate secret
      </Button>
      <Button
        variant="danger-ghost"
        size="sm"
        className={wide ? "col-span-2 ring-1 ring-red-200 ring-inset" : undefined}
        onClick={() => setDeleting(endpoint)}
        aria-label={`Delete ${endpoint.url}`}
      >
        Delete
      </Button>
    </div>
  );

  return (
    <Card aria-labelledby="webhooks-heading">
      <CardHeader
        id="webhooks-heading"
        title="Webhooks"
        description="Endpoints receive a signed POST (Standard Webhooks) when leads, customers or pins change."
        actions={<Button onClick={() => setEditing("new")}>Add endpoint</Button>}
      />
      {endpoints.isPending ? (
        <LoadingBlock label="Loading webhook endpoints" />
      ) : endpoints.isError ? (
        <ErrorState
          error={endpoints.error}
          title="Could not load the webhook endpoints"
          onRetry={() => endpoints.refetch()}
        />
      ) : endpoints.data.data.length === 0 ? (
        <EmptyState
          title="No webhook endpoints yet"
          description="Add an endpoint to push changes to your other systems as they happen."
          action={
            <Button variant="secondary" onClick={() => setEditing("new")}>
              Add endpoint
            </Button>
          }
        />
      ) : (
        <>
          <SettingsTable label="Webhook endpoints" minWidth="64rem">
            <thead>
              <tr>
                <Th>Endpoint</Th>
                <Th>Events</Th>
                <Th>Status</Th>
                <Th>Created</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {endpoints.data.data.map((endpoint) => (
                <tr key={endpoint.id} className={endpoint.enabled ? undefined : "bg-slate-50/60"}>
                  <Td className="max-w-80 min-w-56">
                    <p className="font-mono text-xs break-all text-slate-900">{endpoint.url}</p>
                    {endpoint.description ? (
                      <p className="mt-0.5 text-xs text-slate-500">{endpoint.description}</p>
                    ) : null}
                  </Td>
                  <Td>
                    <EventBadges events={endpoint.events} />
                  </Td>
                  <Td className="min-w-40">
                    <EndpointStatus endpoint={endpoint} />
                  </Td>
                  <Td className="whitespace-nowrap">{formatDate(endpoint.created_at)}</Td>
                  <Td className="min-w-64">{actions(endpoint)}</Td>
                </tr>
              ))}
            </tbody>
          </SettingsTable>
          <MobileList label="Webhook endpoints">
            {endpoints.data.data.map((endpoint) => (
              <li key={endpoint.id} className="space-y-3 px-4 py-4">
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="font-mono text-xs break-all text-slate-900">{endpoint.url}</p>
                    {endpoint.description ? (
                      <p className="mt-0.5 text-xs text-slate-500">{endpoint.description}</p>
                    ) : null}
                  </div>
                </div>
                <EndpointStatus endpoint={endpoint} />
                <EventBadges events={endpoint.events} />
                <dl>
                  <MobileDetail label="Created">{formatDate(endpoint.created_at)}</MobileDetail>
                </dl>
                {actions(endpoint, true)}
              </li>
            ))}
          </MobileList>
        </>
      )}

      {editing ? (
        <EndpointDialog
          endpoint={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onCreated={(shown) => {
            setEditing(null);
            setSecret(shown);
          }}
        />
      ) : null}
      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
      <RotateDialog
        endpoint={rotating}
        onClose={() => setRotating(null)}
        onRotated={(shown) => {
          setRotating(null);
          setSecret(shown);
        }}
      />
      <DeleteDialog endpoint={deleting} onClose={() => setDeleting(null)} />
      <WebhookDeliveriesDialog endpoint={logOf} onClose={() => setLogOf(null)} />
    </Card>
  );
}

function EventBadges({ events }: { events: readonly string[] }) {
  return (
    <div className="flex max-w-72 flex-wrap gap-1">
      {events.map((event) => (
        <Badge key={event} className="font-mono">
          {event}
        </Badge>
      ))}
    </div>
  );
}

function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <div className="space-y-1">
      {endpoint.enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="danger">Disabled</Badge>}
      {!endpoint.enabled && endpoint.disabled_reason ? (
        <p className="text-xs text-slate-600">{endpoint.disabled_reason}</p>
      ) : null}
      {endpoint.failing_since ? (
        <p className="text-xs font-medium text-amber-800">
          Failing since {formatDateTime(endpoint.failing_since)}
        </p>
      ) : null}
      {endpoint.secret_rotating_until ? (
        <p className="text-xs text-slate-500">
          Previous secret valid until {formatDateTime(endpoint.secret_rotating_until)}
        </p>
      ) : null}
    </div>
  );
}

function EndpointDialog({
  endpoint,
  onClose,
  onCreated,
}: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
  onCreated: (shown: ShownSecret) => void;
}) {
  const upsert = useUpsertWebhook();
  const { notify } = useToast();
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const [events, setEvents] = useState<WebhookEventType[]>(endpoint?.events ?? []);
  const [description, setDescription] = useState(endpoint?.description ?? "");
  const [enabled, setEnabled] = useState(endpoint?.enabled ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const clearError = (field: string) =>
    setErrors((current) => {
      const next = { ...current };
      delete next[field];
      return next;
    });

  function toggle(event: WebhookEventType, on: boolean) {
    clearError("events");
    setEvents((current) =>
      on
        ? WEBHOOK_EVENT_TYPES.filter((t) => t === event || current.includes(t))
        : current.filter((t) => t !== event),
    );
  }

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setFormError(null);
    const input = endpoint
      ? { id: endpoint.id, url, events, description, enabled }
      : { url, events, description, enabled };
    // The API's own schema, so the form says what the server would.
    const parsed = upsertWebhookBodySchema.safeParse(input);
    if (!parsed.success) {
      setErrors(
        topLevelErrors(parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message }))),
      );
      return;
    }
    setErrors({});
    upsert.mutate(parsed.data, {
      onSuccess: (saved) => {
        if ("secret" in saved) {
          onCreated({ url: saved.url, secret: saved.secret, rotated: false });
          return;
        }
        notify({ title: "Endpoint saved", description: saved.url });
        onClose();
      },
      onError: (error) => {
        if (error instanceof ApiClientError && error.details.length > 0)
          setErrors(topLevelErrors(error.details));
        else setFormError(errorMessage(error));
      },
    });
  }

  const title = endpoint ? "Edit endpoint" : "Add endpoint";
  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      description={
        endpoint ? undefined : "The signing secret is shown once, right after you add the endpoint."
      }
      size="lg"
    >
      <form onSubmit={submit} noValidate className="space-y-5">
        {formError ? <Notice tone="danger">{formError}</Notice> : null}
        <Field
          label="URL"
          error={errors.url}
          hint="Where events are POSTed, e.g. https://hooks.example.com/crm."
          required
        >
          <Input
            type="url"
            inputMode="url"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              clearError("url");
            }}
            data-autofocus
            maxLength={WEBHOOK_URL_MAX}
            required
          />
        </Field>
        <fieldset aria-describedby={errors.events ? "webhook-events-error" : undefined}>
          <legend className="text-sm font-medium text-slate-800">
            Events
            <span className="ml-0.5 text-red-600" aria-hidden="true">
              *
            </span>
          </legend>
          <div className="mt-2 grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-2">
            {WEBHOOK_EVENT_TYPES.map((event) => (
              <Checkbox
                key={event}
                name="events"
                value={event}
                label={<span className="font-mono text-[13px]">{event}</span>}
                description={EVENT_HELP[event]}
                checked={events.includes(event)}
                onChange={(e) => toggle(event, e.target.checked)}
              />
            ))}
          </div>
          {errors.events ? (
            <p id="webhook-events-error" className="mt-1.5 text-xs font-medium text-red-600">
              {errors.events}
            </p>
          ) : null}
        </fieldset>
        <Field
          label="Description"
          error={errors.description}
          hint="What the endpoint is for, e.g. “Accounting sync”."
        >
          <Textarea
            value={description}
            rows={2}
            onChange={(e) => {
              setDescription(e.target.value);
              clearError("description");
            }}
            maxLength={WEBHOOK_DESCRIPTION_MAX}
          />
        </Field>
        <Checkbox
          label="Enabled"
          description="Disabled endpoints get no events; enabling one also clears a disable by the system."
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
        />
        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={upsert.isPending}>
            {endpoint ? "Save endpoint" : "Add endpoint"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function SecretDialog({ shown, onClose }: { shown: ShownSecret | null; onClose: () => void }) {
  return (
    <Dialog
      open={shown !== null}
      onClose={onClose}
      title={shown?.rotated ? "Your new signing secret" : "Your endpoint's signing secret"}
      description={shown ? `For ${shown.url}.` : undefined}
      dismissable={false}
      footer={<Button onClick={onClose}>Done</Button>}
    >
      {shown ? (
        <div className="space-y-4">
          <Notice tone="warning" title="Copy this secret now">
            You will not see it again. The receiver needs it to verify each request&apos;s signature; if you
            lose it, rotate the secret.
            {shown.previousUntil
              ? ` The previous secret also signs until ${formatDateTime(shown.previousUntil)}.`
              : null}
          </Notice>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <code
              data-testid="webhook-secret"
              aria-label="Signing secret"
              className="block min-w-0 flex-1 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900 select-all"
            >
              {shown.secret}
            </code>
            <CopyButton value={shown.secret} label="Copy secret" />
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}

function RotateDialog({
  endpoint,
  onClose,
  onRotated,
}: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
  onRotated: (shown: ShownSecret) => void;
}) {
  const rotate = useRotateWebhookSecret();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <Dialog
      open={endpoint !== null}
      onClose={close}
      title="Rotate the signing secret?"
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            loading={rotate.isPending}
            onClick={() =>
              endpoint &&
              rotate.mutate(endpoint.id, {
                onSuccess: (rotated) => {
                  setError(null);
                  onRotated({
                    url: endpoint.url,
                    secret: rotated.secret,
                    rotated: true,
                    previousUntil: rotated.previous_secret_expires_at,
                  });
                },
                onError: (err) => setError(errorMessage(err)),
              })
            }
          >
            Rotate secret
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-slate-600">
        {error ? <Notice tone="danger">{error}</Notice> : null}
        <p>
          A new secret signs from now on. For 24 hours requests carry both signatures, so the receiver can
          switch without missing events.
        </p>
      </div>
    </Dialog>
  );
}

function DeleteDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const remove = useDeleteWebhook();
  const { notify } = useToast();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <Dialog
      open={endpoint !== null}
      onClose={close}
      title="Delete this endpoint?"
      description={endpoint?.url}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            variant="danger"
            loading={remove.isPending}
            onClick={() =>
              endpoint &&
              remove.mutate(endpoint.id, {
                onSuccess: () => {
                  notify({ title: "Endpoint deleted", description: endpoint.url });
                  close();
                },
                onError: (err) => setError(errorMessage(err)),
              })
            }
          >
            Delete endpoint
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-slate-600">
        {error ? <Notice tone="danger">{error}</Notice> : null}
        <p>It gets no more events, and its deliveries log is deleted with it. This cannot be undone.</p>
      </div>
    </Dialog>
  );
}
