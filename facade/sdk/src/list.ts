/** One page of a list: newest first; `has_more` says whether a page follows. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
}

/** What a list method takes besides its filters: the page size and the cursor. */
export interface PageParams {
  /** 1 to 100; the API's default is 25. */
  limit?: number;
  /** The id of the last item of the previous page. */
  starting_after?: string;
}

/**
 * What every `list` method returns: `await` it for one page, or `for await` over it for every item
 * of every page from there on, each once, in the list's order (newest first). Pages follow the
 * keyset cursor (`starting_after` = the last id seen), so objects created meanwhile never shift
 * them or repeat an item. Each page is fetched when the loop reaches it; stopping the loop stops
 * the fetching.
 */
export class PageRequest<T extends { id: string }> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #fetchPage: (startingAfter: string | undefined) => Promise<Page<T>>;
  readonly #startingAfter: string | undefined;
  #first: Promise<Page<T>> | undefined;

  constructor(fetchPage: (startingAfter: string | undefined) => Promise<Page<T>>, startingAfter: string | undefined) {
    this.#fetchPage = fetchPage;
    this.#startingAfter = startingAfter;
  }

  /** The first page, fetched once however often it is awaited. */
  #firstPage(): Promise<Page<T>> {
    return (this.#first ??= this.#fetchPage(this.#startingAfter));
  }

  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let page = await this.#firstPage();
    for (;;) {
      yield* page.data;
      const last = page.data.at(-1);
      if (!page.has_more || last === undefined) return;
      page = await this.#fetchPage(last.id);
    }
  }

  /** Every item of every page into an array (at most `max`, 10 000 unless given, so a mistake cannot fill memory). */
  async toArray(max = 10_000): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) {
      if (items.length === max) break;
      items.push(item);
    }
    return items;
  }
}
