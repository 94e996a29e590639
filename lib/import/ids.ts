import "server-only";
import { hashApiKey, sha256Hex } from "@/lib/auth/secrets";
import { ID_PREFIX, newId } from "@/lib/ids";
import type { ParsedDocument, SectionName } from "./format";

const PREFIX: Record<Exclude<SectionName, "api_keys">, string> = {
  companies: ID_PREFIX.company,
  users: ID_PREFIX.user,
  pin_types: ID_PREFIX.pinType,
  pins: ID_PREFIX.pin,
  customers: ID_PREFIX.customer,
  leads: ID_PREFIX.lead,
  service_plans: ID_PREFIX.servicePlan,
  jobs: ID_PREFIX.job,
};

const CHILD_SUFFIX = { visits: "v", crew: "c", line_items: "li", payments: "pay" } as const;

/**
 * Ids of a job's children that the file does not give (visits and crew never have one): derived
 * from the job id and the position, so importing the same file again rewrites the same rows.
 */
export function childId(jobId: string, kind: keyof typeof CHILD_SUFFIX, index: number): string {
  return `${jobId}:${CHILD_SUFFIX[kind]}${index}`;
}

/** An imported key's row id, derived from its hash so that a second import updates the same row. */
export function apiKeyRowId(keyHash: string): string {
  return `${ID_PREFIX.apiKey}_${sha256Hex(`api-key-id:${keyHash}`).slice(0, 26)}`;
}

/** The ids the import writes, fixed once per import: given ids, or new ones for records without. */
export interface PreparedIds {
  /** Records of a section as they are parsed (before any of their ids is asked for). */
  register<S extends SectionName>(section: S, entries: ParsedDocument[S]): void;
  recordId(section: Exclude<SectionName, "api_keys">, index: number): string;
  apiKeyHash(index: number): string;
  apiKeyId(index: number): string;
  /** The file's key is already stored (same company) under another id: update that row. */
  useExistingApiKeyId(index: number, id: string): void;
}

/**
 * Records without an id get a new one (lib/ids): they are created again by every import of the
 * file, so only records with ids are idempotent.
 */
export function prepareIds(): PreparedIds {
  // By section, by position in the file: the given id, or the one made for the record.
  const known = new Map<string, (string | undefined)[]>();
  const hashes = new Map<number, string>();
  const keyIds = new Map<number, string>();
  return {
    register(section, entries) {
      if (section === "api_keys") {
        for (const { index, record } of entries as ParsedDocument["api_keys"]) {
          const hash = hashApiKey(record.key);
          hashes.set(index, hash);
          keyIds.set(index, apiKeyRowId(hash));
        }
        return;
      }
      let ids = known.get(section);
      if (!ids) known.set(section, (ids = []));
      for (const { index, record } of entries) ids[index] = (record as { id?: string }).id || undefined;
    },
    recordId(section, index) {
      let ids = known.get(section);
      if (!ids) known.set(section, (ids = []));
      let id = ids[index];
      if (!id) {
        id = newId(PREFIX[section]);
        ids[index] = id;
      }
      return id;
    },
    apiKeyHash: (index) => hashes.get(index)!,
    apiKeyId: (index) => keyIds.get(index)!,
    useExistingApiKeyId(index, id) {
      keyIds.set(index, id);
    },
  };
}
