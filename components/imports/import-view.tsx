"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { NotAllowed } from "@/components/shell/not-allowed";
import { PageHeader } from "@/components/shell/page-header";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState, errorMessage } from "@/components/ui/error-state";
import { Notice } from "@/components/ui/notice";
import { LoadingBlock } from "@/components/ui/spinner";
import { formatDateTime } from "@/lib/format";
import { ApiClientError } from "@/lib/query/api-client";
import {
  type ImportMapping,
  type ImportResponse,
  type ImportType,
  isRunning,
  useCancelImport,
  useDeleteImport,
  useDryRunImport,
  useImport,
  useImports,
  useImportTypes,
  useStartImport,
  useUploadImport,
} from "@/lib/query/imports";
import { useSession } from "@/lib/query/session";
import { IMPORT_MAX_BYTES } from "@/lib/schemas/imports";
import { useUrlState } from "@/lib/query/url-state";
import { ImportMappingTable, mappingIsValid } from "./import-mapping";
import { ImportProgress } from "./import-progress";
import { RefusedRows, ResultNumbers } from "./import-result";
import { formatBytes, rowsText, sameMapping, STEPS, stepOf } from "./import-steps";

const TYPE_WORDS: Record<ImportType, { many: string; Many: string }> = {
  leads: { many: "leads", Many: "Leads" },
  customers: { many: "customers", Many: "Customers" },
};

/** /import: a CSV of leads or customers, mapped, checked (dry run), then imported. */
export function ImportView() {
  const { data: session } = useSession();
  const types = useImportTypes();
  if (!session) return <LoadingBlock />;
  if (types.length === 0) return <NotAllowed what="Import" who="administrators and managers" />;
  return <ImportFlow types={types} />;
}

function ImportFlow({ types }: { types: ImportType[] }) {
  // The import being worked on is in the URL, so a reload (or Back) shows it again.
  const [url, setUrl] = useUrlState({ id: "", type: "" });
  const id = url.id || null;
  // Without one in the URL, a dry run or import still running for the company is picked up again.
  const imports = useImports(id === null);
  const running = id === null ? imports.data?.data.find((imp) => isRunning(imp.status)) : undefined;
  useEffect(() => {
    if (running) setUrl({ id: running.id }, { history: "replace" });
  }, [running, setUrl]);

  const current = useImport(id);
  const imported = current.data ?? null;
  const step = stepOf(imported);
  const startOver = () => setUrl({ id: null }, { history: "push" });

  let body: React.ReactNode;
  if (id === null) {
    body =
      imports.isPending || running ? (
        <LoadingBlock label="Looking for a running import" />
      ) : (
        <UploadCard
          types={types}
          initialType={types.includes(url.type as ImportType) ? (url.type as ImportType) : types[0]!}
          onUploaded={(created) => setUrl({ id: created.id, type: created.type }, { history: "push" })}
        />
      );
  } else if (current.isPending) {
    body = <LoadingBlock label="Loading the import" />;
  } else if (current.isError) {
    const gone = current.error instanceof ApiClientError && current.error.status === 404;
    body = (
      <Card as="div">
        <ErrorState
          error={current.error}
          title={gone ? "This import is no longer here" : "Could not load the import"}
          onRetry={gone ? undefined : () => current.refetch()}
        />
        <div className="flex justify-center pb-8">
          <Button variant="secondary" onClick={startOver}>
            Upload a file
          </Button>
        </div>
      </Card>
    );
  } else {
    body = <ImportPanels key={current.data.id} imported={current.data} onStartOver={startOver} />;
  }

  return (
    <>
      <PageHeader
        title="Import"
        description="Bring leads or customers in from a spreadsheet (CSV). Nothing is written until you have checked the file and started the import."
      />
      <Steps current={step} done={imported?.status === "done"} />
      <div className="space-y-6">{body}</div>
    </>
  );
}

/** Where the user is: Upload → Map columns → Check → Import. */
function Steps({ current, done }: { current: ReturnType<typeof stepOf>; done: boolean }) {
  const index = STEPS.findIndex((s) => s.step === current);
  return (
    <ol aria-label="Steps" className="mb-6 grid grid-cols-4 gap-2 text-xs sm:text-sm">
      {STEPS.map((s, i) => {
        const complete = i < index || (done && i === index);
        const active = i === index && !done;
        return (
          <li
            key={s.step}
            aria-current={active ? "step" : undefined}
            className={cn(
              "flex flex-col gap-1.5 border-t-4 pt-2 font-medium sm:flex-row sm:items-center sm:gap-2",
              complete
                ? "border-brand-600 text-brand-700"
                : active
                  ? "border-brand-600 text-slate-900"
                  : "border-slate-200 text-slate-500",
            )}
          >
            <span
              className={cn(
                "inline-flex size-6 shrink-0 items-center justify-center rounded-full text-xs",
                complete
                  ? "bg-brand-600 text-white"
                  : active
                    ? "bg-brand-50 text-brand-700 ring-1 ring-brand-600"
                    : "bg-slate-100 text-slate-600",
              )}
              aria-hidden="true"
            >
              {complete ? "✓" : i + 1}
            </span>
            <span>
              {s.label}
              {complete ? <span className="sr-only"> (done)</span> : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** Step 1: what the file holds and the file; the upload streams it to the server. */
function UploadCard({
  types,
  initialType,
  onUploaded,
}: {
  types: ImportType[];
  initialType: ImportType;
  onUploaded: (imported: ImportResponse) => void;
}) {
  const [type, setType] = useState<ImportType>(initialType);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const upload = useUploadImport();
  const fileId = useId();
  const typeName = useId();

  const choose = (chosen: File | null) => {
    setFile(chosen);
    upload.reset();
    if (!chosen) return setProblem(null);
    if (chosen.size === 0)
      return setProblem("This file is empty: choose a CSV file with a header row and data.");
    if (chosen.size > IMPORT_MAX_BYTES)
      return setProblem(`This file is ${formatBytes(chosen.size)}: the largest file you can import is 1 GB.`);
    setProblem(null);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!file) return setProblem("Choose a CSV file to upload.");
    if (problem) return;
    upload.mutate({ type, file }, { onSuccess: onUploaded });
  };

  const error = problem ?? (upload.isError ? errorMessage(upload.error) : null);
  return (
    <Card aria-labelledby="upload-heading">
      <CardHeader
        id="upload-heading"
        title="Upload a CSV file"
        description="Comma, semicolon or tab separated, UTF-8 or Windows-1252, with a header row. Up to 1 GB."
      />
      <CardBody>
        <form onSubmit={submit} className="space-y-5" noValidate>
          {types.length > 1 ? (
            <fieldset>
              <legend className="mb-2 text-sm font-medium text-slate-800">The file holds</legend>
              <div className="flex flex-wrap gap-2">
                {types.map((t) => (
                  <label
                    key={t}
                    className={cn(
                      "flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm font-medium",
                      type === t
                        ? "border-brand-600 bg-brand-50 text-brand-800"
                        : "border-slate-300 text-slate-700 hover:bg-slate-50",
                    )}
                  >
                    <input
                      type="radio"
                      name={typeName}
                      value={t}
                      checked={type === t}
                      onChange={() => setType(t)}
                      className="size-4 accent-brand-600"
                    />
                    {TYPE_WORDS[t].Many}
                  </label>
                ))}
              </div>
            </fieldset>
          ) : (
            <p className="text-sm text-slate-700">
              The file holds <strong>{TYPE_WORDS[type].many}</strong>.
            </p>
          )}

          <div
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(event) => {
              event.preventDefault();
              setDragging(false);
              choose(event.dataTransfer.files[0] ?? null);
            }}
            className={cn(
              "rounded-lg border-2 border-dashed px-4 py-6 text-center transition-colors sm:px-6",
              dragging ? "border-brand-500 bg-brand-50" : "border-slate-300",
            )}
          >
            <label htmlFor={fileId} className="block text-sm font-medium text-slate-800">
              CSV file
            </label>
            <p id={`${fileId}-hint`} className="mt-1 text-xs text-slate-500">
              Choose a file or drop it here.
            </p>
            <input
              id={fileId}
              type="file"
              accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain"
              aria-describedby={`${fileId}-hint${error ? ` ${fileId}-error` : ""}`}
              aria-invalid={error ? true : undefined}
              onChange={(event) => choose(event.target.files?.[0] ?? null)}
              className="mx-auto mt-3 block w-full max-w-md text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800 file:shadow-sm file:ring-1 file:ring-slate-300 file:ring-inset hover:file:bg-slate-50"
            />
            {file && !problem ? (
              <p className="mt-2 text-xs text-slate-600" data-testid="chosen-file">
                {file.name} · {formatBytes(file.size)}
              </p>
            ) : null}
          </div>
          {error ? (
            <p id={`${fileId}-error`} role="alert" className="text-sm font-medium text-red-600">
              {error}
            </p>
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end">
            {upload.isPending ? (
              <p role="status" className="text-sm text-slate-600">
                Uploading {file?.name}…
              </p>
            ) : null}
            <Button type="submit" loading={upload.isPending}>
              Upload and map columns
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}

/** The heading of the panel each status shows first (focus moves there). */
const HEADING_OF: Record<ImportResponse["status"], string> = {
  uploaded: "mapping-heading",
  failed: "mapping-heading",
  cancelled: "mapping-heading",
  checking: "running-heading",
  importing: "running-heading",
  checked: "result-heading",
  done: "result-heading",
};

/** Steps 2 to 4 of an uploaded file: the mapping, the dry run's result, the import. */
function ImportPanels({ imported, onStartOver }: { imported: ImportResponse; onStartOver: () => void }) {
  // The mapping being edited; null: the import's own (the guess, or the last checked one).
  const [draft, setDraft] = useState<ImportMapping | null>(null);
  const mapping = draft ?? imported.mapping;
  const changed = !sameMapping(mapping, imported.mapping);
  const running = isRunning(imported.status);
  const dryRun = useDryRunImport();
  const start = useStartImport();
  const remove = useDeleteImport();
  const words = TYPE_WORDS[imported.type];

  // Focus follows the flow: to the result when a dry run or the import ends, and to the panel now
  // shown when the control that had focus went away (the upload form, the cancelled run's button).
  const lastStatus = useRef<ImportResponse["status"] | null>(null);
  useEffect(() => {
    const before = lastStatus.current;
    if (before === imported.status) return;
    lastStatus.current = imported.status;
    const heading = document.getElementById(HEADING_OF[imported.status]);
    const lost = !document.activeElement || document.activeElement === document.body;
    const ended = before !== null && (imported.status === "checked" || imported.status === "done");
    if (heading && (lost || ended)) {
      heading.setAttribute("tabindex", "-1");
      // Moved there for screen readers and the keyboard; no ring, as the user did not tab there.
      heading.classList.add("focus:outline-none");
      heading.focus();
    }
  }, [imported.status]);

  const check = () => dryRun.mutate({ id: imported.id, mapping }, { onSuccess: () => setDraft(null) });
  const startOver = () => {
    if (running) return onStartOver();
    // The staged rows are of no more use; a failed delete leaves them for the server's clean-up.
    remove.mutate(imported.id, { onSettled: onStartOver });
  };

  const showMapping = imported.status !== "importing" && imported.status !== "done";
  const checkedResult = imported.status === "checked" && !changed ? imported.result : null;
  const importable = checkedResult ? checkedResult.created + checkedResult.updated : 0;
  const mappingError = dryRun.isError ? dryRun.error : null;

  return (
    <>
      <FileSummary imported={imported} onStartOver={startOver} busy={remove.isPending} />

      {imported.status === "failed" ? (
        <Notice tone="danger" title="The last run stopped with an error">
          <p>{imported.error ?? "Something went wrong; nothing was written."}</p>
          <p className="mt-1">Check the file again, or upload another.</p>
        </Notice>
      ) : null}
      {imported.status === "cancelled" ? (
        <Notice tone="info" title="Cancelled">
          Nothing was written. You can check the file again, or upload another.
        </Notice>
      ) : null}

      {showMapping ? (
        <Card aria-labelledby="mapping-heading">
          <CardHeader
            id="mapping-heading"
            title="Map the columns"
            description={`Pick the ${words.many.slice(0, -1)} field each column fills, or ignore it. We guessed from the headers.`}
          />
          <ImportMappingTable
            imported={imported}
            mapping={mapping}
            onChange={setDraft}
            disabled={running || dryRun.isPending}
          />
          <div className="flex flex-col gap-3 border-t border-slate-100 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-5">
            <p className="text-sm text-slate-600" aria-live="polite">
              {imported.status === "checked" && changed
                ? "You changed the mapping: check the file again before importing."
                : `${mapping.filter((f) => f !== null).length} of ${imported.headers.length} columns imported.`}
            </p>
            <Button
              variant={imported.status === "checked" && !changed ? "secondary" : "primary"}
              loading={dryRun.isPending}
              disabled={running || !mappingIsValid(imported, mapping)}
              onClick={check}
            >
              {imported.status === "checked" ? "Check again" : "Check file"}
            </Button>
          </div>
          {mappingError ? (
            <div className="px-4 pb-4 sm:px-5">
              <Notice tone="danger" title="Could not check the file">
                {errorMessage(mappingError)}
                {mappingError instanceof ApiClientError && mappingError.details.length > 0 ? (
                  <ul className="mt-1 list-disc pl-5">
                    {mappingError.details.map((d) => (
                      <li key={d.field}>
                        {columnOfDetail(d.field, imported.headers)}: {d.message}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </Notice>
            </div>
          ) : null}
        </Card>
      ) : null}

      {imported.status === "checking" ? (
        <RunningCard
          title="Checking the file"
          description="A dry run: every row is converted and matched exactly as the import would, and nothing is written."
          imported={imported}
        />
      ) : null}

      {checkedResult ? (
        <Card aria-labelledby="result-heading">
          <div className="border-b border-slate-100 px-4 py-4 sm:px-5">
            <h2
              id="result-heading"
              tabIndex={-1}
              className="text-base font-semibold text-slate-900 focus:outline-none"
            >
              What the import would do
            </h2>
            <p className="mt-0.5 text-sm text-slate-500">
              {rowsText(imported.row_count)} checked; nothing is written yet.
            </p>
          </div>
          <CardBody className="space-y-5">
            <ResultNumbers result={checkedResult} done={false} />
            {checkedResult.refused > 0 ? (
              <>
                <Notice tone="warning" title={`${rowsText(checkedResult.refused)} would be refused`}>
                  The import writes all rows or none. Fix the refused rows: ignore a column above and check
                  again, or correct the file (download the refused rows to see them) and upload it again.
                </Notice>
                <RefusedRows imported={imported} />
              </>
            ) : null}
            {start.isError ? (
              <Notice tone="danger" title="Could not start the import">
                {errorMessage(start.error)}
              </Notice>
            ) : null}
            <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-end">
              {checkedResult.refused > 0 ? (
                <Button variant="secondary" onClick={startOver}>
                  Upload a fixed file
                </Button>
              ) : null}
              <Button
                disabled={checkedResult.refused > 0 || importable === 0}
                loading={start.isPending}
                onClick={() => start.mutate(imported.id)}
                aria-describedby={checkedResult.refused > 0 ? "import-blocked" : undefined}
              >
                Import {rowsText(importable)}
              </Button>
            </div>
            {checkedResult.refused > 0 ? (
              <p id="import-blocked" className="text-right text-xs text-slate-500">
                The import is possible once no row is refused.
              </p>
            ) : null}
          </CardBody>
        </Card>
      ) : null}

      {imported.status === "importing" ? (
        <RunningCard
          title={`Importing ${words.many}`}
          description="All rows are written together at the end; you can leave this page and come back."
          imported={imported}
        />
      ) : null}

      {imported.status === "done" && imported.result ? (
        <Card aria-labelledby="result-heading">
          <div className="border-b border-slate-100 px-4 py-4 sm:px-5">
            <h2
              id="result-heading"
              tabIndex={-1}
              className="text-base font-semibold text-slate-900 focus:outline-none"
            >
              Import done
            </h2>
            <p className="mt-0.5 text-sm text-slate-500">
              {imported.file_name}: {rowsText(imported.row_count)} imported
              {imported.finished_at ? ` on ${formatDateTime(imported.finished_at)}` : ""}.
            </p>
          </div>
          <CardBody className="space-y-5">
            <ResultNumbers result={imported.result} done />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="secondary" onClick={onStartOver}>
                Import another file
              </Button>
              <Link href={`/${imported.type}`} className={buttonClasses("primary")}>
                View {words.many}
              </Link>
            </div>
          </CardBody>
        </Card>
      ) : null}
    </>
  );
}

/** "mapping[2]" → the column's header, for the server's details. */
function columnOfDetail(field: string, headers: readonly string[]): string {
  const index = /^mapping\[(\d+)\]$/.exec(field)?.[1] ?? /^mapping\.(\d+)$/.exec(field)?.[1];
  const header = index === undefined ? undefined : headers[Number(index)];
  return header === undefined ? field : `Column “${header}”`;
}

/** The uploaded file: name, rows, encoding and separator, who uploaded it, and a way to start over. */
function FileSummary({
  imported,
  onStartOver,
  busy,
}: {
  imported: ImportResponse;
  onStartOver: () => void;
  busy: boolean;
}) {
  const running = isRunning(imported.status);
  const delimiter = { ",": "comma", ";": "semicolon", "\t": "tab" }[imported.delimiter] ?? imported.delimiter;
  return (
    <Card
      as="div"
      className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-5"
    >
      <div className="min-w-0">
        <p className="truncate text-sm font-semibold text-slate-900" data-testid="import-file-name">
          {imported.file_name}
        </p>
        <p className="mt-0.5 text-xs text-slate-500">
          {TYPE_WORDS[imported.type].Many} · {rowsText(imported.row_count)} ·{" "}
          {imported.encoding.toUpperCase()} · {delimiter} separated
          {imported.created_by ? ` · uploaded by ${imported.created_by.name}` : ""}
        </p>
      </div>
      {imported.status !== "done" && !running ? (
        <Button variant="ghost" size="sm" loading={busy} onClick={onStartOver}>
          Upload another file
        </Button>
      ) : null}
    </Card>
  );
}

/** A running dry run or import: its progress and a way to cancel it (nothing is written). */
function RunningCard({
  title,
  description,
  imported,
}: {
  title: string;
  description: string;
  imported: ImportResponse;
}) {
  const cancel = useCancelImport();
  const [asking, setAsking] = useState(false);
  const importing = imported.status === "importing";
  return (
    <Card aria-labelledby="running-heading">
      <CardHeader id="running-heading" title={title} description={description} />
      <CardBody className="space-y-4">
        <ImportProgress label={title} progress={imported.progress} />
        {cancel.isError ? <Notice tone="danger">{errorMessage(cancel.error)}</Notice> : null}
        <div className="flex justify-end">
          <Button
            variant="secondary"
            loading={cancel.isPending}
            onClick={() => (importing ? setAsking(true) : cancel.mutate(imported.id))}
          >
            {importing ? "Cancel import" : "Cancel check"}
          </Button>
        </div>
      </CardBody>
      <Dialog
        open={asking}
        onClose={() => setAsking(false)}
        title="Cancel the import?"
        description={`It stops after the current batch and nothing of ${imported.file_name} is written.`}
        role="alertdialog"
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setAsking(false)}>
              Keep importing
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                setAsking(false);
                cancel.mutate(imported.id);
              }}
            >
              Cancel import
            </Button>
          </>
        }
      />
    </Card>
  );
}
