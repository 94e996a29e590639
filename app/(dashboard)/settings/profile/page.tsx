import type { Metadata } from "next";
import { ProfileView } from "../_components/profile-view";

export const metadata: Metadata = { title: "Your account" };

/** /settings/profile: the signed-in user's own account, for every role. */
export default function ProfilePage() {
  return <ProfileView />;
}
