"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState, errorMessage } from "@/components/ui/error-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { Select } from "@/components/ui/select";
import { useToast } from "@/components/ui/toast";
import { formatDate } from "@/lib/format";
import { ApiClientError } from "@/lib/query/api-client";
import { useCreateInvite, useInvites, useIssuePasswordReset, useRevokeInvite } from "@/lib/query/settings";
import { createInviteBodySchema, type InviteList, type InviteRecord } from "@/lib/schemas/accounts";
import type { UserRecord } from "@/lib/schemas/settings";
import { ROLE_LABELS, USER_ROLES } from "@/lib/values/roles";

/** What the settings page says when the server sends no email (SMTP_URL unset). */
export const EMAIL_NOT_CONFIGURED = "Email is not configured: invite links are shown to you once";

/** A link shown once, to pass on by hand (no email was sent). */
export interface OnceLink {
  title: string;
  description: string;
  url: string;
}

/** The open invites under the users table: who, role, until when, and revoke. */
export function PendingInvites({ invites }: { invites: InviteList }) {
  const [revoking, setRevoking] = useState<InviteRecord | null>(null);
  if (invites.data.length === 0) return null;
  return (
    <section aria-labelledby="invites-heading" className="border-t border-slate-100 px-4 py-4 sm:px-6">
      <h3 id="invites-heading" className="text-sm font-semibold text-slate-900">
        Pending invites
      </h3>
      <ul className="mt-2 divide-y divide-slate-100" aria-label="Pending invites">
        {invites.data.map((invite) => (
          <li key={invite.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
            <div className="min-w-0">
              <p className="truncate font-medium text-slate-900" title={invite.email}>
                {invite.email}
              </p>
              <p className="text-sm text-slate-500">
                {ROLE_LABELS[invite.role]} ·{" "}
                {invite.status === "expired"
                  ? `expired ${formatDate(invite.expires_at)}`
                  : `link works until ${formatDate(invite.expires_at)}`}
              </p>
            </div>
            <div className="flex items-center gap-2">
              {invite.status === "expired" ? <Badge tone="warning">Expired</Badge> : <Badge>Pending</Badge>}
              <Button
                variant="danger-ghost"
                size="sm"
                onClick={() => setRevoking(invite)}
                aria-label={`Revoke the invite for ${invite.email}`}
              >
                Revoke
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <RevokeInviteDialog invite={revoking} onClose={() => setRevoking(null)} />
    </section>
  );
}

/** The invites query's own states, for the users card: loading says nothing, an error offers a retry. */
export function InvitesState({ invites }: { invites: ReturnType<typeof useInvites> }) {
  if (invites.isError) {
    return (
      <div className="border-t border-slate-100 px-4 py-4 sm:px-6">
        <ErrorState
          error={invites.error}
          title="Could not load the invites"
          onRetry={() => invites.refetch()}
        />
      </div>
    );
  }
  if (!invites.data) return null;
  return (
    <>
      {invites.data.email_configured ? null : (
        <div className="px-4 pb-4 sm:px-6">
          <Notice tone="info">{EMAIL_NOT_CONFIGURED}.</Notice>
        </div>
      )}
    </>
  );
}

function RevokeInviteDialog({ invite, onClose }: { invite: InviteRecord | null; onClose: () => void }) {
  const revoke = useRevokeInvite();
  const { notify } = useToast();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <Dialog
      open={invite !== null}
      onClose={close}
      title={invite ? `Revoke the invite for ${invite.email}?` : "Revoke invite"}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            variant="danger"
            loading={revoke.isPending}
            onClick={() =>
              invite &&
              revoke.mutate(invite.id, {
                onSuccess: () => {
                  notify({
                    title: "Invite revoked",
                    description: `The link sent to ${invite.email} no longer works.`,
                  });
                  close();
                },
                onError: (err) => setError(errorMessage(err)),
              })
            }
          >
            Revoke
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-slate-600">
        {error ? <Notice tone="danger">{error}</Notice> : null}
        <p>The link stops working at once. You can invite them again later.</p>
      </div>
    </Dialog>
  );
}

const ROLE_HELP: Record<(typeof USER_ROLES)[number], string> = {
  admin: "Everything, including users and API keys",
  manager: "Everything except users and API keys",
  sales_rep: "Leads and customers, the map",
  technician: "Customers, jobs and the map (read only)",
};

/** "Invite": email and role; the link is emailed, or handed back to show once. */
export function InviteDialog({ onClose, onLink }: { onClose: () => void; onLink: (link: OnceLink) => void }) {
  const create = useCreateInvite();
  const { notify } = useToast();
  const [values, setValues] = useState({ email: "", role: "sales_rep" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const parsed = createInviteBodySchema.safeParse(values);
    if (!parsed.success) {
      const out: Record<string, string> = {};
      for (const issue of parsed.error.issues) out[String(issue.path[0])] ??= issue.message;
      setErrors(out);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (invite) => {
        onClose();
        if (invite.url) {
          onLink({
            title: `Invite link for ${invite.email}`,
            description: `Send it to them yourself: it works once, until ${formatDate(invite.expires_at)}.`,
            url: invite.url,
          });
        } else {
          notify({ title: "Invite sent", description: `${invite.email} has an email with their link.` });
        }
      },
      onError: (error) => {
        if (error instanceof ApiClientError && error.details.length > 0) setErrors(error.fieldErrors());
        else if (error instanceof ApiClientError && error.code === "CONFLICT")
          setErrors({ email: error.message });
        else setFormError(errorMessage(error));
      },
    });
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="Invite a user"
      description="They get a link to choose their name and password. It works once, for 7 days."
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        {formError ? <Notice tone="danger">{formError}</Notice> : null}
        <Field label="Email" error={errors.email} required>
          <Input
            type="email"
            value={values.email}
            onChange={(e) => {
              setValues((v) => ({ ...v, email: e.target.value }));
              setErrors((current) => {
                const next = { ...current };
                delete next.email;
                return next;
              });
            }}
            autoComplete="off"
            data-autofocus
          />
        </Field>
        <Field
          label="Role"
          error={errors.role}
          hint={ROLE_HELP[values.role as (typeof USER_ROLES)[number]]}
          required
        >
          <Select
            value={values.role}
            onChange={(e) => setValues((v) => ({ ...v, role: e.target.value }))}
            options={USER_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
          />
        </Field>
        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Send invite
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** "Reset password" for a user: confirm, then the link is emailed or handed back to show once. */
export function ResetPasswordDialog({
  user,
  onClose,
  onLink,
}: {
  user: UserRecord | null;
  onClose: () => void;
  onLink: (link: OnceLink) => void;
}) {
  const issue = useIssuePasswordReset();
  const { notify } = useToast();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <Dialog
      open={user !== null}
      onClose={close}
      title={user ? `Send ${user.name} a password reset link?` : "Reset password"}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            loading={issue.isPending}
            onClick={() =>
              user &&
              issue.mutate(user.id, {
                onSuccess: (issued) => {
                  close();
                  if (issued.url) {
                    onLink({
                      title: `Password reset link for ${user.name}`,
                      description: `Send it to them yourself: it works once, for 1 hour.`,
                      url: issued.url,
                    });
                  } else {
                    notify({
                      title: "Reset link sent",
                      description: `${user.email} has an email with the link.`,
                    });
                  }
                },
                onError: (err) => setError(errorMessage(err)),
              })
            }
          >
            Create link
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-slate-600">
        {error ? <Notice tone="danger">{error}</Notice> : null}
        <p>
          The link lets them choose a new password within 1 hour. Their current password keeps working until
          then; setting a new one signs them out everywhere.
        </p>
      </div>
    </Dialog>
  );
}

/** A link shown this once (no email configured): copy it and pass it on. */
export function OnceLinkDialog({ link, onClose }: { link: OnceLink | null; onClose: () => void }) {
  return (
    <Dialog
      open={link !== null}
      onClose={onClose}
      title={link?.title ?? "Link"}
      description={link?.description}
      dismissable={false}
      footer={<Button onClick={onClose}>Done</Button>}
    >
      {link ? (
        <div className="space-y-4">
          <Notice tone="warning" title="Copy this link now">
            It will not be shown again: only a fingerprint of it is stored.
          </Notice>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <code
              data-testid="once-link"
              aria-label="Link"
              className="block min-w-0 flex-1 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900 select-all"
            >
              {link.url}
            </code>
            <CopyButton value={link.url} label="Copy link" />
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
