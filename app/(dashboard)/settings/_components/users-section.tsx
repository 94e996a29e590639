"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState, errorMessage } from "@/components/ui/error-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { Select } from "@/components/ui/select";
import { LoadingBlock } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { formatDate } from "@/lib/format";
import { ApiClientError } from "@/lib/query/api-client";
import { useCreateUser, useInvites, useSetUserActive, useUsers } from "@/lib/query/settings";
import { useChangeUserRole, useSignOutUser } from "@/lib/query/accounts";
import { ROLE_LABELS, USER_ROLES } from "@/lib/values/roles";
import { createUserBodySchema, PASSWORD_MIN_LENGTH, type UserRecord } from "@/lib/schemas/settings";
import { MobileList, SettingsTable, Td, Th } from "./table";
import {
  InviteDialog,
  InvitesState,
  OnceLinkDialog,
  PendingInvites,
  ResetPasswordDialog,
  type OnceLink,
} from "./invites";

const ROLE_HELP: Record<(typeof USER_ROLES)[number], string> = {
  admin: "Everything, including users and API keys",
  manager: "Everything except users and API keys",
  sales_rep: "Leads and customers, the map",
  technician: "Customers, jobs and the map (read only)",
};

/** The role of a user, changed in place; the server refuses demoting the last admin (409). */
function RoleSelect({ user }: { user: UserRecord }) {
  const change = useChangeUserRole();
  const { notify } = useToast();
  if (!user.active) return <Badge>{ROLE_LABELS[user.role]}</Badge>;
  return (
    <Select
      aria-label={`Role of ${user.name}`}
      className="h-9 w-36 text-sm"
      value={user.role}
      disabled={change.isPending}
      options={USER_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
      onChange={(event) => {
        const role = event.target.value as UserRecord["role"];
        change.mutate(
          { id: user.id, role },
          {
            onSuccess: () =>
              notify({
                title: `${user.name} is now ${ROLE_LABELS[role].toLowerCase()}`,
                description: "It applies to their open sessions at their next request.",
              }),
            onError: (error) =>
              notify({
                tone: "danger",
                title: "Could not change the role",
                description: errorMessage(error),
              }),
          },
        );
      }}
    />
  );
}

/** Ends every session of another user (they can sign in again). */
function SignOutButton({ user, className }: { user: UserRecord; className?: string }) {
  const signOut = useSignOutUser();
  const { notify } = useToast();
  return (
    <Button
      variant="ghost"
      size="sm"
      className={className}
      loading={signOut.isPending}
      aria-label={`Sign ${user.name} out everywhere`}
      onClick={() =>
        signOut.mutate(user.id, {
          onSuccess: () =>
            notify({ title: `${user.name} signed out everywhere`, description: "They can sign in again." }),
          onError: (error) =>
            notify({ tone: "danger", title: "Could not sign them out", description: errorMessage(error) }),
        })
      }
    >
      Sign out
    </Button>
  );
}

export function UsersSection({ currentUserId }: { currentUserId: string }) {
  const users = useUsers();
  const setActive = useSetUserActive();
  const { notify } = useToast();
  const [adding, setAdding] = useState(false);
  const [deactivating, setDeactivating] = useState<UserRecord | null>(null);
  const invites = useInvites();
  const [inviting, setInviting] = useState(false);
  const [resetting, setResetting] = useState<UserRecord | null>(null);
  const [onceLink, setOnceLink] = useState<OnceLink | null>(null);

  function reactivate(user: UserRecord) {
    setActive.mutate(
      { id: user.id, active: true },
      {
        onSuccess: () =>
          notify({ title: `${user.name} reactivated`, description: "They can sign in again." }),
        onError: (error) =>
          notify({ tone: "danger", title: "Could not reactivate", description: errorMessage(error) }),
      },
    );
  }

  return (
    <Card aria-labelledby="users-heading">
      <CardHeader
        id="users-heading"
        title="Users"
        description="People who sign in to the dashboard. Their role decides what they can see and do."
        actions={
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setAdding(true)}>
              Add user
            </Button>
            <Button onClick={() => setInviting(true)}>Invite</Button>
          </div>
        }
      />
      <InvitesState invites={invites} />
      {users.isPending ? (
        <LoadingBlock label="Loading users" />
      ) : users.isError ? (
        <ErrorState error={users.error} title="Could not load the users" onRetry={() => users.refetch()} />
      ) : users.data.data.length === 0 ? (
        <EmptyState title="No users" />
      ) : (
        <>
          <SettingsTable label="Users" minWidth="52rem">
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Email</Th>
                <Th>Role</Th>
                <Th>Status</Th>
                <Th>Added</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {users.data.data.map((user) => {
                const self = user.id === currentUserId;
                return (
                  <tr key={user.id} className={user.active ? undefined : "bg-slate-50/60"}>
                    <Td className="font-medium text-slate-900">
                      <span className={user.active ? undefined : "text-slate-500"}>{user.name}</span>
                      {self ? (
                        <Badge tone="brand" className="ml-2">
                          You
                        </Badge>
                      ) : null}
                    </Td>
                    <Td className="break-all">{user.email}</Td>
                    <Td>
                      <RoleSelect user={user} />
                    </Td>
                    <Td>
                      {user.active ? (
                        <Badge tone="success">Active</Badge>
                      ) : (
                        <Badge tone="warning">Deactivated</Badge>
                      )}
                    </Td>
                    <Td className="whitespace-nowrap">{formatDate(user.created_at)}</Td>
                    <Td className="text-right whitespace-nowrap">
                      {self ? null : user.active ? <SignOutButton user={user} /> : null}
                      {self ? null : user.active ? (
                        <>
                          <Button
                            variant="ghost"
                            size="sm"
                            onClick={() => setResetting(user)}
                            aria-label={`Reset the password of ${user.name}`}
                          >
                            Reset password
                          </Button>
                          <Button
                            variant="danger-ghost"
                            size="sm"
                            onClick={() => setDeactivating(user)}
                            aria-label={`Deactivate ${user.name}`}
                          >
                            Deactivate
                          </Button>
                        </>
                      ) : (
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => reactivate(user)}
                          disabled={setActive.isPending}
                          aria-label={`Reactivate ${user.name}`}
                        >
                          Reactivate
                        </Button>
                      )}
                    </Td>
                  </tr>
                );
              })}
            </tbody>
          </SettingsTable>
          <MobileList label="Users">
            {users.data.data.map((user) => (
              <li key={user.id} className="space-y-2 px-4 py-4">
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="flex items-center gap-2 font-medium text-slate-900">
                      <span className="truncate" title={user.name}>
                        {user.name}
                      </span>
                      {user.id === currentUserId ? (
                        <Badge tone="brand" className="shrink-0">
                          You
                        </Badge>
                      ) : null}
                    </p>
                    <p className="truncate text-sm text-slate-500" title={user.email}>
                      {user.email}
                    </p>
                  </div>
                  {user.active ? (
                    <Badge tone="success">Active</Badge>
                  ) : (
                    <Badge tone="warning">Deactivated</Badge>
                  )}
                </div>
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <RoleSelect user={user} />
                  {user.id === currentUserId || !user.active ? null : (
                    <SignOutButton user={user} className="ring-1 ring-slate-200 ring-inset" />
                  )}
                  {user.id === currentUserId ? null : user.active ? (
                    <div className="flex gap-2">
                      <Button
                        variant="secondary"
                        size="sm"
                        onClick={() => setResetting(user)}
                        aria-label={`Reset the password of ${user.name}`}
                      >
                        Reset password
                      </Button>
                      <Button
                        variant="danger-ghost"
                        size="sm"
                        className="ring-1 ring-red-200 ring-inset"
                        onClick={() => setDeactivating(user)}
                      >
                        Deactivate
                      </Button>
                    </div>
                  ) : (
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => reactivate(user)}
                      disabled={setActive.isPending}
                    >
                      Reactivate
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </MobileList>
        </>
      )}

      {invites.data ? <PendingInvites invites={invites.data} /> : null}

      {adding ? <AddUserDialog onClose={() => setAdding(false)} /> : null}
      {inviting ? <InviteDialog onClose={() => setInviting(false)} onLink={setOnceLink} /> : null}
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} onLink={setOnceLink} />
      <OnceLinkDialog link={onceLink} onClose={() => setOnceLink(null)} />
      <DeactivateDialog user={deactivating} onClose={() => setDeactivating(null)} />
    </Card>
  );
}

function AddUserDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateUser();
  const { notify } = useToast();
  const [values, setValues] = useState({ name: "", email: "", role: "sales_rep", password: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const set =
    (field: keyof typeof values) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      setValues((v) => ({ ...v, [field]: event.target.value }));
      setErrors((current) => {
        const next = { ...current };
        delete next[field];
        return next;
      });
    };

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const parsed = createUserBodySchema.safeParse(values);
    if (!parsed.success) {
      const out: Record<string, string> = {};
      for (const issue of parsed.error.issues) out[String(issue.path[0])] ??= issue.message;
      setErrors(out);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (user) => {
        notify({ title: `${user.name} added`, description: `They can sign in as ${user.email}.` });
        onClose();
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
      title="Add user"
      description="They sign in with this email and the initial password."
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        {formError ? <Notice tone="danger">{formError}</Notice> : null}
        <Field label="Name" error={errors.name} required>
          <Input value={values.name} onChange={set("name")} autoComplete="off" data-autofocus />
        </Field>
        <Field label="Email" error={errors.email} required>
          <Input type="email" value={values.email} onChange={set("email")} autoComplete="off" />
        </Field>
        <Field
          label="Role"
          error={errors.role}
          hint={ROLE_HELP[values.role as (typeof USER_ROLES)[number]]}
          required
        >
          <Select
            value={values.role}
            onChange={set("role")}
            options={USER_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
          />
        </Field>
        <Field
          label="Initial password"
          error={errors.password}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters. Share it with them privately.`}
          required
        >
          <Input
            type="password"
            value={values.password}
            onChange={set("password")}
            autoComplete="new-password"
          />
        </Field>
        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Add user
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function DeactivateDialog({ user, onClose }: { user: UserRecord | null; onClose: () => void }) {
  const setActive = useSetUserActive();
  const { notify } = useToast();
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      open={user !== null}
      onClose={() => {
        setError(null);
        onClose();
      }}
      title={user ? `Deactivate ${user.name}?` : "Deactivate user"}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="danger"
            loading={setActive.isPending}
            onClick={() =>
              user &&
              setActive.mutate(
                { id: user.id, active: false },
                {
                  onSuccess: () => {
                    notify({
                      title: `${user.name} deactivated`,
                      description: "They have been signed out everywhere.",
                    });
                    setError(null);
                    onClose();
                  },
                  onError: (err) => setError(errorMessage(err)),
                },
              )
            }
          >
            Deactivate
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-slate-600">
        {error ? <Notice tone="danger">{error}</Notice> : null}
        <p>
          They are signed out everywhere at once and can no longer sign in. You can reactivate them later.
        </p>
      </div>
    </Dialog>
  );
}
