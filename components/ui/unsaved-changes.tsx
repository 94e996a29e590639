"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "./button";
import { Dialog, useDialogCloseGuard } from "./dialog";

/**
 * The link a click would follow away from this page, in this tab: same origin, another path or
 * query (a hash-only link stays), no modifier key (those open a new tab or window), no download.
 */
export function leavingLink(event: MouseEvent, here: Location): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute("download")) return null;
  if (anchor.target && anchor.target !== "_self") return null;
  const url = new URL(anchor.href, here.href);
  // Another origin is a full page load: the browser's own beforeunload question covers it.
  if (url.origin !== here.origin) return null;
  if (url.pathname === here.pathname && url.search === here.search) return null;
  return anchor;
}

/** The first field of a form that can take the focus. */
function firstField(form: HTMLFormElement | null): HTMLElement | null {
  return (
    form?.querySelector<HTMLElement>(
      "input:not([type=hidden]):not(:disabled), select:not(:disabled), textarea:not(:disabled)",
    ) ?? null
  );
}

/**
 * Asks "Discard changes?" before a dirty form's input is lost: dialog close, in-app links (caught
 * before Next's Link, since the App Router cannot block), browser Back, and beforeunload.
 */
export function useUnsavedChangesGuard(dirty: boolean) {
  // A callback ref (state): the hook's result is read during render, which a ref object may not be.
  const [form, bindForm] = useState<HTMLFormElement | null>(null);
  // The question's answers: the action waiting (closing the dialog, following the link, going
  // back) and what "Keep editing" does besides.
  const [pending, setPending] = useState<{ discard: () => void; keep?: () => void } | null>(null);
  // What to do once the question has closed: the action (Discard) or focusing the form (Keep editing).
  const afterClose = useRef<(() => void) | null>(null);
  // The field last in focus: Keep editing returns there, also after a click on a link took the focus.
  const lastField = useRef<HTMLElement | null>(null);
  // While a discarded page is being left: the link's replayed click and its unload go through.
  const leaving = useRef(false);

  /** Runs `proceed` now when the form is clean, else after "Discard". */
  const confirm = useCallback(
    (proceed: () => void, keep?: () => void) => {
      if (!dirty) return proceed();
      setPending({ discard: proceed, keep });
    },
    [dirty],
  );
  useDialogCloseGuard(confirm);
  const back = useBackGuard(dirty, leaving, confirm);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      // Browsers that predate preventDefault() here ask only when returnValue is set.
      event.returnValue = "";
    };
    const onClick = (event: MouseEvent) => {
      const anchor = leaving.current ? null : leavingLink(event, window.location);
      if (!anchor) return;
      event.preventDefault();
      event.stopPropagation();
      confirm(() => {
        leaving.current = true;
        // Off the Back guard's entry first, so the link's entry replaces it in the history.
        back.release(() => {
          anchor.click();
          // A plain link's unload (and its beforeunload) starts within click(); Next's Link navigates in a transition.
          leaving.current = false;
        });
      });
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    window.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("click", onClick, true);
    };
  }, [dirty, confirm, back]);

  useEffect(() => {
    if (!form) return;
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement && event.target.matches("input, select, textarea")) {
        lastField.current = event.target;
      }
    };
    form.addEventListener("focusin", onFocusIn);
    return () => form.removeEventListener("focusin", onFocusIn);
  }, [form]);

  // Runs after the question's own dialog has closed (its effect runs first: it is a child).
  useEffect(() => {
    if (pending) return;
    const next = afterClose.current;
    afterClose.current = null;
    next?.();
  }, [pending]);

  const keepEditing = () => {
    const keep = pending?.keep;
    afterClose.current = () => {
      keep?.();
      const last = lastField.current;
      (last && form?.contains(last) ? last : firstField(form))?.focus();
    };
    setPending(null);
  };
  const discard = () => {
    afterClose.current = pending?.discard ?? null;
    setPending(null);
  };

  const dialog = (
    <Dialog
      open={pending !== null}
      role="alertdialog"
      size="sm"
      onClose={keepEditing}
      title="Discard changes?"
      description="Your changes in this form have not been saved. Discarding them cannot be undone."
      footer={
        <>
          <Button variant="secondary" onClick={keepEditing} data-autofocus>
            Keep editing
          </Button>
          <Button variant="danger" onClick={discard}>
            Discard
          </Button>
        </>
      }
    />
  );

  return { bindForm, confirmDiscard: confirm, discardDialog: dialog };
}

type Confirm = (proceed: () => void, keep?: () => void) => void;

/**
 * Browser Back while dirty: a copy of the current entry is pushed, so Back steps off it and asks.
 * Limit: after reloading a dirty page the copy stays (one Back with no visible change).
 */
function useBackGuard(dirty: boolean, leaving: React.RefObject<boolean>, confirm: Confirm) {
  // "pushed": the copy is the current entry; "popping": our history.back() is on its way.
  const state = useRef<"none" | "pushed" | "popping">("none");
  const afterPop = useRef<(() => void) | null>(null);
  const latest = useRef({ dirty, confirm });
  useEffect(() => {
    latest.current = { dirty, confirm };
  });

  const api = useMemo(
    () => ({
      push() {
        if (state.current !== "none") return;
        window.history.pushState({ unsavedChangesGuard: true }, "");
        state.current = "pushed";
      },
      release(then?: () => void) {
        if (state.current === "none") return then?.();
        afterPop.current = then ?? null;
        if (state.current === "popping") return;
        state.current = "popping";
        window.history.back();
      },
    }),
    [],
  );

  useEffect(() => {
    const onPopState = () => {
      if (state.current === "popping") {
        state.current = "none";
        const then = afterPop.current;
        afterPop.current = null;
        if (then) then();
        // Typed again while the copy was being taken off.
        else if (latest.current.dirty && !leaving.current) api.push();
        return;
      }
      if (state.current !== "pushed") return;
      // Back stepped off the copy: still on this page, with its input.
      state.current = "none";
      latest.current.confirm(
        () => {
          leaving.current = true;
          window.history.back();
        },
        () => api.push(),
      );
    };
    window.addEventListener("popstate", onPopState);
    const href = window.location.href;
    return () => {
      window.removeEventListener("popstate", onPopState);
      // Unmounted on this page (its dialog closed): the copy goes. Left by a route change: not ours to touch.
      if (state.current === "pushed" && window.location.href === href) window.history.back();
    };
  }, [api, leaving]);

  useEffect(() => {
    if (dirty && !leaving.current) api.push();
    if (!dirty) api.release();
  }, [dirty, api, leaving]);

  return api;
}
