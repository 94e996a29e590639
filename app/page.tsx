import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { homePathFor } from "@/components/shell/nav-items";
import { SESSION_COOKIE } from "@/lib/auth/credentials";
import { sessionFromToken } from "@/lib/domain/users/current-session";

/** "/": the signed-in user's first section (leads for most roles, the map for technicians). */
export default async function Home() {
  const session = await sessionFromToken((await cookies()).get(SESSION_COOKIE)?.value);
  redirect(session ? homePathFor(session) : "/sign-in");
}
