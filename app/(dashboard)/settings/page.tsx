import type { Metadata } from "next";
import { SettingsView } from "./_components/settings-view";

export const metadata: Metadata = { title: "Settings" };

/** /settings: API keys and users (admins; other roles see a "not allowed" state). */
export default function SettingsPage() {
  return <SettingsView />;
}
