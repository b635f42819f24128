// CSV (RFC 4180) that a spreadsheet opens as text, never as a formula.

// OWASP "CSV Injection": a cell starting with one of these is read as a formula by spreadsheets.
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: a leading formula character is prefixed with ' (OWASP), and quoted when it must be. */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) || text !== value ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record with its CRLF (RFC 4180). */
export function csvRow(cells: readonly (string | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
