// Input → operation input mappings several routers share.

/** A page of a list, as a procedure's input names it. */
export const pageQuery = (input: { limit?: number | undefined; starting_after?: string | undefined }) => ({
  limit: input.limit,
  starting_after: input.starting_after,
});
