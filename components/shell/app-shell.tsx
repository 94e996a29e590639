"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { cn } from "@/components/ui/cn";
import { formatNumber } from "@/lib/format";
import { useOutboxSender, usePendingCount } from "@/lib/query/pin-outbox";
import { useCan, useSession } from "@/lib/query/session";
import { Icon, Logo } from "./icons";
import { isActivePath, navItemsFor } from "./nav-items";
import { UserMenu } from "./user-menu";

/** The section whose entry counts the changes waiting on this device. */
const PENDING_HREF = "/map";

/**
 * The dashboard frame: sidebar or phone menu, header and <main>. Navigation shows only what the
 * role may use; the session is seeded into the query cache by the server layout.
 */
export function AppShell({ children }: { children: React.ReactNode }) {
  const { data: session } = useSession();
  const pathname = usePathname();
  const [menuOpen, setMenuOpen] = useState(false);
  const items = session ? navItemsFor(session) : [];
  // Knocks and outcome changes kept on this device: counted on the Map entry, as on the map.
  const pendingCount = usePendingCount(session?.user.id);
  const pendingLabel = `${formatNumber(pendingCount)} ${pendingCount === 1 ? "change" : "changes"} waiting to be sent`;
  const showPending = pendingCount > 0 && items.some((item) => item.href === PENDING_HREF);
  const canKnock = useCan("pins:write");
  // The map sends (and shows refusals) itself; every other page sends in the background.
  useOutboxSender(session?.user.id, canKnock && !isActivePath(PENDING_HREF, pathname));

  // Close the phone menu after navigating (the adjust-state-on-prop-change pattern, no effect).
  const [lastPath, setLastPath] = useState(pathname);
  if (lastPath !== pathname) {
    setLastPath(pathname);
    setMenuOpen(false);
  }

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setMenuOpen(false);
        document.getElementById("main-menu-button")?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  const navList = (
    <ul className="space-y-1">
      {items.map((item) => {
        const active = isActivePath(item.href, pathname);
        const pending = showPending && item.href === PENDING_HREF;
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={active ? "page" : undefined}
              aria-label={pending ? `${item.label}, ${pendingLabel}` : undefined}
              className={cn(
                "group flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors",
                "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600",
                active
                  ? "bg-brand-50 text-brand-700"
                  : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
              )}
            >
              <Icon
                name={item.icon}
                className={cn(
                  "size-5 shrink-0",
                  active ? "text-brand-600" : "text-slate-400 group-hover:text-slate-600",
                )}
              />
              {item.label}
              {pending ? (
                <span
                  aria-hidden="true"
                  data-testid="nav-pending"
                  data-count={pendingCount}
                  className="ml-auto inline-flex min-w-6 items-center justify-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300"
                >
                  {formatNumber(pendingCount)}
                </span>
              ) : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );

  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 text-sm font-medium text-brand-700 shadow-lg ring-2 ring-brand-600 focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>

      {/* Desktop sidebar */}
      <aside className="fixed inset-y-0 left-0 z-20 hidden w-60 flex-col border-r border-slate-200 bg-white lg:flex">
        <div className="flex h-16 items-center gap-2.5 px-5">
          <Logo className="size-8" />
          <span className="text-base font-semibold tracking-tight text-slate-900">FieldCRM</span>
        </div>
        <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
          {navList}
        </nav>
        {session ? (
          <div className="border-t border-slate-200 px-5 py-4 text-xs text-slate-500">
            Signed in to <span className="font-medium text-slate-700">{session.company.name}</span>
          </div>
        ) : null}
      </aside>

      <div className="flex min-h-screen flex-col lg:pl-60">
        <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/80">
          <div className="flex h-16 items-center gap-3 px-4 sm:px-6 lg:px-8">
            <button
              id="main-menu-button"
              type="button"
              className="relative -ml-1 rounded-md p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 lg:hidden"
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              aria-label={(menuOpen ? "Close menu" : "Open menu") + (showPending ? ` (${pendingLabel})` : "")}
              onClick={() => setMenuOpen((open) => !open)}
            >
              <Icon name={menuOpen ? "close" : "menu"} className="size-6" />
              {showPending && !menuOpen ? (
                // On a phone the menu is closed: its button shows that changes wait.
                <span
                  aria-hidden="true"
                  data-testid="menu-pending"
                  className="absolute -top-0.5 -right-1 inline-flex min-w-5 items-center justify-center rounded-full bg-amber-100 px-1 text-[11px] leading-5 font-semibold text-amber-900 ring-2 ring-white"
                >
                  {formatNumber(pendingCount)}
                </span>
              ) : null}
            </button>
            <Link
              href="/"
              className="flex items-center gap-2 rounded-md focus-visible:outline-2 focus-visible:outline-brand-600 lg:hidden"
              aria-label="FieldCRM home"
            >
              <Logo className="size-7" />
            </Link>
            <div className="flex min-w-0 flex-1 items-center gap-2 text-sm text-slate-600">
              <Icon name="building" className="hidden size-5 shrink-0 text-slate-400 sm:block" />
              <span className="truncate font-medium text-slate-800" data-testid="company-name">
                {session?.company.name}
              </span>
            </div>
            {session ? <UserMenu session={session} /> : null}
          </div>
          {menuOpen ? (
            <nav
              id="mobile-menu"
              aria-label="Main"
              className="border-t border-slate-200 bg-white px-3 py-3 shadow-sm lg:hidden"
            >
              {navList}
            </nav>
          ) : null}
        </header>

        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          <div className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6 lg:px-8 lg:py-8">{children}</div>
        </main>
      </div>
    </div>
  );
}
