import { expect, test, type Page } from "@playwright/test";
import {
  API_HEADERS,
  expectAccessible,
  expectNoPageScrollX,
  screenshotBoth,
  signIn,
  unique,
} from "./helpers";

// The lead pipeline: an admin edits it (a stage in use cannot go); a rep picks stages and moves
// leads on the board by drag and keyboard, but cannot edit the pipeline.

const saved = (page: Page) =>
  page.getByRole("region", { name: "Notifications" }).getByText("Pipeline saved").last();
const pipelineSection = (page: Page) => page.getByRole("region", { name: "Pipeline" });
const stageNames = (page: Page) => pipelineSection(page).getByRole("textbox", { name: /^Name of stage/ });

async function createLead(page: Page, body: Record<string, unknown>) {
  const res = await page.request.post("/api/leads", { headers: API_HEADERS, data: body });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; stage: string | null };
}

test("an admin adds, renames and reorders stages; a stage in use cannot be removed", async ({ page }) => {
  const id = unique();
  await signIn(page, "admin", { next: "/settings" });
  const section = pipelineSection(page);
  await expect(stageNames(page)).toHaveCount(5);
  await expect(stageNames(page).first()).toHaveValue("New");
  // The demo leads use every default stage: none can be removed, and each says why.
  await expect(section.getByRole("button", { name: "Remove Won" })).toBeDisabled();
  await expect(section.getByText(/^In use by [\d,]+ leads?/).first()).toBeVisible();

  // Add a stage (it goes before the first closed stage, Won), save; rename it and move it up with
  // the keyboard, save again.
  await section.getByRole("button", { name: "Add stage" }).click();
  await expect(stageNames(page).nth(3)).toBeFocused();
  await expect(stageNames(page).nth(4)).toHaveValue("Won");
  await page.keyboard.type(`Site visit ${id}`);
  await section.getByRole("button", { name: "Save pipeline" }).click();
  await expect(saved(page)).toBeVisible();
  await expect(stageNames(page)).toHaveCount(6);

  const renamed = `Inspection ${id}`;
  await stageNames(page).nth(3).fill(renamed);
  await section.getByRole("button", { name: `Move ${renamed} up` }).focus();
  await page.keyboard.press("Enter");
  await expect(section.getByRole("button", { name: `Move ${renamed} up` })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(stageNames(page).nth(1)).toHaveValue(renamed);
  await screenshotBoth(page, "settings-pipeline");
  await section.getByRole("button", { name: "Save pipeline" }).click();
  await expect(saved(page)).toBeVisible();

  await page.reload();
  await expect(stageNames(page).nth(1)).toHaveValue(renamed);
  const pipeline = await (await page.request.get("/api/pipeline", { headers: API_HEADERS })).json();
  expect(pipeline.data[1]).toMatchObject({ key: `site-visit-${id}`, label: renamed, kind: "open" });
  await expectAccessible(page);

  // A lead moves into it behind the page's back: removing it now is refused by the server.
  await createLead(page, { name: `In inspection ${id}`, stage: renamed.toUpperCase() });
  await section.getByRole("button", { name: `Remove ${renamed}` }).click();
  await expect(stageNames(page)).toHaveCount(5);
  await section.getByRole("button", { name: "Save pipeline" }).click();
  await expect(
    section.getByText(`The stage "${renamed}" (site-visit-${id}) is used by 1 lead`),
  ).toBeVisible();
  await page.reload();
  await expect(section.getByRole("button", { name: `Remove ${renamed}` })).toBeDisabled();
  await expect(section.getByText("In use by 1 lead")).toBeVisible();
});

test("a sales rep picks stages in the lead form; a new lead starts in the first", async ({ page }) => {
  const id = unique();
  await signIn(page, "sales_rep", { next: false });

  // A new lead starts in the first stage; the picker lists the pipeline.
  await page.goto("/leads");
  await page.getByRole("button", { name: "New lead" }).click();
  const dialog = page.getByRole("dialog", { name: "New lead" });
  const stage = dialog.getByLabel("Stage");
  await expect(stage).toHaveValue("new");
  await expect(stage.locator("option")).toContainText([
    "No stage",
    "New",
    "Contacted",
    "Quoted",
    "Won",
    "Lost",
  ]);
  await dialog.getByLabel("Name", { exact: true }).fill(`Picked lead ${id}`);
  await stage.selectOption({ label: "Contacted" });
  await dialog.getByRole("button", { name: "Save lead" }).click();
  await expect(dialog).toBeHidden();
  const picked = await page.request.get(`/api/leads?search=${encodeURIComponent(`Picked lead ${id}`)}`, {
    headers: API_HEADERS,
  });
  expect((await picked.json()).data.map((l: { stage: string }) => l.stage)).toEqual(["contacted"]);

  // Left as it starts, a new lead's stage is the pipeline's first.
  const firstStage = `First stage lead ${id}`;
  await page.getByRole("button", { name: "New lead" }).click();
  await dialog.getByLabel("Name", { exact: true }).fill(firstStage);
  await dialog.getByRole("button", { name: "Save lead" }).click();
  await expect(dialog).toBeHidden();
  const created = await page.request.get(`/api/leads?search=${encodeURIComponent(firstStage)}`, {
    headers: API_HEADERS,
  });
  expect((await created.json()).data.map((l: { stage: string }) => l.stage)).toEqual(["new"]);

  // A stage outside the pipeline is kept and said so.
  const legacy = await createLead(page, { name: `Legacy lead ${id}`, stage: `  Waiting ${id} ` });
  expect(legacy.stage).toBe(`Waiting ${id}`);
  await page.goto(`/leads/${legacy.id}`);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(page.getByLabel("Stage")).toHaveValue(`Waiting ${id}`);
  await expect(page.getByLabel("Stage").locator("option:checked")).toHaveText(
    `Waiting ${id} (not in pipeline)`,
  );
});

test("a sales rep moves leads on the board by keyboard and by drag and drop", async ({ page }) => {
  const id = unique();
  await signIn(page, "sales_rep", { next: false });
  await createLead(page, { name: `Board lead ${id}`, stage: "contacted", projected_value: 4321 });
  await createLead(page, { name: `Legacy lead ${id}`, stage: `Waiting ${id}` });

  // The whole board, then only this test's leads (the search is shared with the table).
  await page.goto("/leads");
  await page.getByRole("button", { name: "Board" }).click();
  await expect(page).toHaveURL(/view=board/);
  const column = (name: string) => page.getByRole("region", { name, exact: true });
  await expect(column("New")).toBeVisible();
  await expect(column("New").getByRole("listitem").first()).toBeVisible();
  await screenshotBoth(page, "board");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoPageScrollX(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectAccessible(page);

  await page.getByLabel("Search", { exact: true }).fill(id);
  await expect(page).toHaveURL(new RegExp(`search=${id}`));
  await expect(column("Contacted")).toContainText("1 lead");
  await expect(column("Contacted")).toContainText("$4,321.00");
  await expect(column(`Waiting ${id} (not in pipeline)`)).toContainText(`Legacy lead ${id}`);

  // Keyboard: the card's "Move to" menu.
  await column("Contacted")
    .getByLabel(`Move Board lead ${id} to another stage`)
    .selectOption({ label: "Quoted" });
  await expect(column("Quoted").getByText(`Board lead ${id}`)).toBeVisible();
  await expect(column("Quoted")).toContainText("$4,321.00");
  await expect(column("Contacted")).toContainText("0 leads");
  await expect(page.getByText(`Board lead ${id} moved to Quoted`)).toBeAttached();

  // Drag and drop, on a screen wide enough to show both columns (the board scrolls sideways).
  await page.setViewportSize({ width: 2560, height: 900 });
  // Held by its corner (its middle may be a control); a drop lost on a loaded machine is retried.
  await expect(async () => {
    const card = column("Quoted")
      .getByRole("listitem")
      .filter({ hasText: `Board lead ${id}` });
    if ((await card.count()) > 0) await card.dragTo(column("Won"), { sourcePosition: { x: 6, y: 6 } });
    await expect(column("Won").getByText(`Board lead ${id}`)).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  await expect(column("Won")).toContainText("1 lead");
  await expect(column("Quoted")).toContainText("0 leads");
  // The board moves the card at once; the write it sends lands a moment later.
  await expect
    .poll(async () => {
      const stored = await page.request.get(`/api/leads?search=${encodeURIComponent(`Board lead ${id}`)}`, {
        headers: API_HEADERS,
      });
      return (await stored.json()).data[0].stage;
    })
    .toBe("won");
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshotBoth(page, "board-filtered");

  // The filters are shared: the table shows the same leads, and a stage filter narrows the board.
  await page.getByRole("button", { name: "Table" }).click();
  await expect(page).not.toHaveURL(/view=board/);
  await expect(page.getByRole("table", { name: "Leads" }).getByRole("row")).toHaveCount(3);
  await page.getByLabel("Stage").selectOption({ label: "Won" });
  await page.getByRole("button", { name: "Board" }).click();
  await expect(column("New")).toHaveCount(0);
  await expect(column("Won")).toContainText(`Board lead ${id}`);
});

test("a board move shows a toast with Undo, and the moved card stays in view", async ({ page }) => {
  const id = unique();
  await signIn(page, "sales_rep", { next: false });
  // The moved lead is the oldest: its new column's first page (newest first) is full without it.
  const mover = `Mover ${id}`;
  await createLead(page, { name: mover, stage: "new" });
  for (let i = 0; i < 21; i++) await createLead(page, { name: `Quoted ${i} ${id}`, stage: "quoted" });

  await page.goto(`/leads?view=board&search=${id}`);
  const column = (name: string) => page.getByRole("region", { name, exact: true });
  await expect(column("Quoted")).toContainText("21 leads");
  const moveToQuoted = () =>
    column("New").getByLabel(`Move ${mover} to another stage`).selectOption({ label: "Quoted" });
  const toasts = page.getByRole("region", { name: "Notifications" });
  // The newest toast of this move, the one holding its Undo button.
  const toast = toasts
    .locator("div")
    .filter({ hasText: `${mover} moved to Quoted` })
    .filter({ has: page.getByRole("button", { name: "Undo" }) })
    .last();

  // Undo moves it back through the same API, to the stage it had.
  await moveToQuoted();
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect(toasts.getByText(`${mover} moved back to New`)).toBeVisible();
  await expect(column("New").getByRole("listitem").filter({ hasText: mover })).toBeVisible();
  await expect
    .poll(async () => {
      const stored = await page.request.get(`/api/leads?search=${encodeURIComponent(mover)}`, {
        headers: API_HEADERS,
      });
      return (await stored.json()).data[0].stage;
    })
    .toBe("new");
  await expect(column("Quoted")).toContainText("21 leads");

  // Once the column is read again (its count from the server), the card is still there, marked.
  await moveToQuoted();
  await expect(toast).toBeVisible();
  await expect(column("Quoted")).toContainText("22 leads");
  const card = column("Quoted").getByRole("listitem").filter({ hasText: mover });
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute("data-moved", "true");
  await expect(card).toBeInViewport();
  await expect(column("New")).toContainText("0 leads");
  await screenshotBoth(page, "board-moved");
});

test("a sales rep cannot edit the pipeline", async ({ page }) => {
  await signIn(page, "sales_rep", { next: "/settings" });
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(pipelineSection(page)).toHaveCount(0);
  const read = await page.request.get("/api/pipeline", { headers: API_HEADERS });
  expect(read.status()).toBe(200);
  const write = await page.request.put("/api/settings/pipeline", {
    headers: API_HEADERS,
    data: { stages: [{ label: "Mine", color: "#000000", kind: "open" }] },
  });
  expect(write.status()).toBe(403);
});
