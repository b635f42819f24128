import { describe, expect, test } from "vitest";
import { csvCell, csvRow } from "./csv.ts";

describe("CSV cells", () => {
  test("plain text as is; commas, quotes and line breaks quoted (RFC 4180)", () => {
    expect(csvCell("Pedido 42")).toBe("Pedido 42");
    expect(csvCell(null)).toBe("");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
  });

  test.each(["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])("a cell starting with a formula character (%j) is prefixed with ' (OWASP)", (value) => {
    expect(csvCell(value)).toBe(`"'${value}"`);
  });

  test("a row ends with CRLF", () => {
    expect(csvRow(["a", null, "=x"])).toBe(`a,,"'=x"\r\n`);
  });
});
