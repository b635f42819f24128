import { expect, test } from "vitest";
import { PageRequest, type Page } from "./list.ts";

// Pages of ids "9" … "0" (newest first), `size` at a time, after a cursor: what the API's keyset lists answer.
function source(size: number) {
  const ids = ["9", "8", "7", "6", "5", "4", "3", "2", "1", "0"];
  const asked: Array<string | undefined> = [];
  const fetchPage = async (after: string | undefined): Promise<Page<{ id: string }>> => {
    asked.push(after);
    const start = after === undefined ? 0 : ids.indexOf(after) + 1;
    const data = ids.slice(start, start + size).map((id) => ({ id }));
    return { data, has_more: start + size < ids.length };
  };
  return { fetchPage, asked };
}

test("awaited: the first page, fetched once however often it is awaited", async () => {
  const { fetchPage, asked } = source(3);
  const request = new PageRequest(fetchPage, undefined);
  expect(await request).toEqual({ data: [{ id: "9" }, { id: "8" }, { id: "7" }], has_more: true });
  await request;
  expect(asked).toEqual([undefined]);
});

test("iterated: every item once, in order, following the last id of each page", async () => {
  const { fetchPage, asked } = source(4);
  const seen: string[] = [];
  for await (const item of new PageRequest(fetchPage, undefined)) seen.push(item.id);
  expect(seen).toEqual(["9", "8", "7", "6", "5", "4", "3", "2", "1", "0"]);
  expect(asked).toEqual([undefined, "6", "2"]);
});

test("from a cursor; stopping the loop stops the fetching; toArray bounded", async () => {
  const { fetchPage, asked } = source(2);
  const seen: string[] = [];
  for await (const item of new PageRequest(fetchPage, "7")) {
    seen.push(item.id);
    if (item.id === "5") break;
  }
  expect(seen).toEqual(["6", "5"]);
  expect(asked).toEqual(["7"]);
  expect((await new PageRequest(source(3).fetchPage, undefined).toArray(5)).map((i) => i.id)).toEqual(["9", "8", "7", "6", "5"]);
});
