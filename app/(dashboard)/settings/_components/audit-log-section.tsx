"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { LoadingBlock } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { formatDateTime } from "@/lib/format";
import { AUDIT_PAGE_SIZE, downloadAuditLog, useAuditLog, type AuditLogFilters } from "@/lib/query/accounts";
import { useUsers } from "@/lib/query/settings";
import type { AuditEntry } from "@/lib/schemas/audit";
import { AUDIT_KINDS, auditKindLabel } from "@/lib/values/audit";
import { MobileList, SettingsTable, Td, Th } from "./table";

const NO_FILTERS: AuditLogFilters = { actor: "", kind: "", from: "", to: "" };

/** A value of a change in words: lists joined, a stage or type by its label, nothing as a dash. */
function valueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.map(valueText).join(", ");
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object") {
    const named = (value as { label?: unknown; name?: unknown }).label ?? (value as { name?: unknown }).name;
    return typeof named === "string" ? named : JSON.stringify(value);
  }
  return String(value);
}

function Changes({ entry }: { entry: AuditEntry }) {
  if (entry.changes.length === 0) return <span className="text-slate-400">—</span>;
  return (
    <ul className="space-y-0.5">
      {entry.changes.map((change) => {
        const text = `${valueText(change.from)} → ${valueText(change.to)}`;
        return (
          <li key={change.field} className="[overflow-wrap:anywhere]">
            <span className="text-slate-500">{change.field.replace(/_/g, " ")}:</span>{" "}
            <span title={text.length > 120 ? text : undefined}>
              {text.length > 120 ? `${text.slice(0, 117)}…` : text}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** The company's audit log: who changed which setting, filtered, a page at a time, and as CSV. */
export function AuditLogSection() {
  const [filters, setFilters] = useState<AuditLogFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const log = useAuditLog(filters, page);
  const users = useUsers();
  const { notify } = useToast();
  const set =
    (field: keyof AuditLogFilters) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      setFilters((f) => ({ ...f, [field]: event.target.value }));
      setPage(1);
    };
  const targetName = (entry: AuditEntry) =>
    entry.target.type === "user"
      ? (users.data?.data.find((u) => u.id === entry.target.id)?.name ?? entry.target.id)
      : (entry.target.id ?? entry.target.type.replace(/_/g, " "));
  const filtered = Object.values(filters).some(Boolean);
  const pagination = log.data?.pagination;
  const lastPage = pagination ? Math.max(1, Math.ceil(pagination.total / AUDIT_PAGE_SIZE)) : 1;

  return (
    <Card aria-labelledby="audit-heading">
      <CardHeader
        id="audit-heading"
        title="Audit log"
        description="Every change of these settings: who made it, when, from where, and what it was before and after."
        actions={
          <Button
            variant="secondary"
            loading={exporting}
            onClick={async () => {
              setExporting(true);
              try {
                await downloadAuditLog(filters);
              } catch (error) {
                notify({ tone: "danger", title: "Export failed", description: (error as Error).message });
              } finally {
                setExporting(false);
              }
            }}
          >
            Export CSV
          </Button>
        }
      />
      <form
        className="grid gap-3 border-b border-slate-100 px-4 py-3 sm:grid-cols-2 sm:px-5 lg:grid-cols-4"
        aria-label="Audit log filters"
        onSubmit={(event) => event.preventDefault()}
      >
        <Field label="Person">
          <Select
            value={filters.actor}
            onChange={set("actor")}
            placeholder="Everyone"
            options={(users.data?.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
          />
        </Field>
        <Field label="Kind">
          <Select
            value={filters.kind}
            onChange={set("kind")}
            placeholder="All kinds"
            options={AUDIT_KINDS.map((kind) => ({ value: kind, label: auditKindLabel(kind) }))}
          />
        </Field>
        <Field label="From">
          <Input type="date" value={filters.from} onChange={set("from")} max={filters.to || undefined} />
        </Field>
        <Field label="To">
          <Input type="date" value={filters.to} onChange={set("to")} min={filters.from || undefined} />
        </Field>
      </form>
      {log.isPending ? (
        <LoadingBlock label="Loading the audit log" />
      ) : log.isError ? (
        <ErrorState error={log.error} title="Could not load the audit log" onRetry={() => log.refetch()} />
      ) : log.data.data.length === 0 ? (
        <EmptyState
          title={filtered ? "No changes match" : "No changes yet"}
          description={
            filtered
              ? "Try another person, kind or dates."
              : "Changes of users, API keys, the pipeline, pin types and territories show here."
          }
        />
      ) : (
        <>
          <SettingsTable label="Audit log" minWidth="56rem">
            <thead>
              <tr>
                <Th>When</Th>
                <Th>Who</Th>
                <Th>What</Th>
                <Th>Changes</Th>
                <Th>IP</Th>
              </tr>
            </thead>
            <tbody>
              {log.data.data.map((entry) => (
                <tr key={entry.id}>
                  <Td className="whitespace-nowrap">
                    <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                  </Td>
                  <Td className="font-medium text-slate-900">{entry.actor.name}</Td>
                  <Td>
                    <span className="block">{auditKindLabel(entry.kind)}</span>
                    <span className="block text-xs [overflow-wrap:anywhere] text-slate-500">
                      {targetName(entry)}
                    </span>
                  </Td>
                  <Td className="max-w-md text-sm">
                    <Changes entry={entry} />
                  </Td>
                  <Td className="whitespace-nowrap text-slate-500">{entry.ip ?? "—"}</Td>
                </tr>
              ))}
            </tbody>
          </SettingsTable>
          <MobileList label="Audit log">
            {log.data.data.map((entry) => (
              <li key={entry.id} className="space-y-1 px-4 py-3 text-sm">
                <p className="font-medium text-slate-900">
                  {auditKindLabel(entry.kind)}{" "}
                  <span className="font-normal [overflow-wrap:anywhere] text-slate-500">
                    {targetName(entry)}
                  </span>
                </p>
                <p className="text-slate-500">
                  {entry.actor.name} · <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                  {entry.ip ? ` · ${entry.ip}` : ""}
                </p>
                <div className="text-slate-700">
                  <Changes entry={entry} />
                </div>
              </li>
            ))}
          </MobileList>
          <nav
            aria-label="Audit log pages"
            className="flex items-center justify-between gap-3 border-t border-slate-100 px-4 py-3 text-sm sm:px-5"
          >
            <span className="text-slate-500">
              Page {page} of {lastPage} · {pagination?.total} change{pagination?.total === 1 ? "" : "s"}
            </span>
            <span className="flex gap-2">
              <Button
                variant="secondary"
                size="sm"
                disabled={page <= 1}
                onClick={() => setPage((p) => p - 1)}
              >
                Newer
              </Button>
              <Button
                variant="secondary"
                size="sm"
                disabled={!pagination?.has_more}
                onClick={() => setPage((p) => p + 1)}
              >
                Older
              </Button>
            </span>
          </nav>
        </>
      )}
    </Card>
  );
}
