import { describe, expect, test } from "vitest";
import { PublicError } from "../public-error.ts";
import { parseJsonText } from "./json-body.ts";

function fault(text: string): string | undefined {
  try {
    parseJsonText(text);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(PublicError);
    expect((error as PublicError).code).toBe("validation_error");
    return (error as PublicError).message;
  }
}

describe("parseJsonText", () => {
  test.each([
    ['{"amount":"1","amount":"2"}', /"amount" appears twice in the body/],
    ['{ "amount" : "1" ,\n "amount"\t: "1" }', /"amount" appears twice in the body/],
    ['{"amount":"1","amo\\u0075nt":"2"}', /"amount" appears twice/],
    ['{"customer":{"name":"a","name":"b"}}', /"name" appears twice in customer;/],
    ['{"a":{"b":[1,{"c":1,"c":2}]}}', /"c" appears twice in a\.b\[\];/],
    ['{"a":1,"b":{"a":1},"b":2}', /"b" appears twice in the body/],
    [`{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(",")},"k3":0}`, /"k3" appears twice/],
    [`{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(",")},"k39":0}`, /"k39" appears twice/],
  ])("duplicate key: %s", (text, message) => {
    expect(fault(text)).toMatch(message);
  });

  test.each([
    ['{"description":"\\ud800x"}', /^description must be well-formed Unicode/],
    ['{"description":"x\\udc00"}', /^description must be well-formed Unicode/],
    ['{"description":"\\ude00\\ud83d"}', /^description must be well-formed Unicode/],
    ['{"customer":{"name":"\\uD800"}}', /^customer\.name must be well-formed Unicode/],
    ['{"customer":{"\\ud800":"x"}}', /^customer must be well-formed Unicode/],
    ['["\\ud800"]', /^\[\] must be well-formed Unicode/],
    ['"\\ud800"', /^The body must be well-formed Unicode/],
  ])("unpaired surrogate: %s", (text, message) => {
    expect(fault(text)).toMatch(message);
  });

  test.each([
    ['{"a":[{"k":1},{"k":1}],"b":{"k":1},"k":1}', { a: [{ k: 1 }, { k: 1 }], b: { k: 1 }, k: 1 }],
    ['{"description":"\\ud83d\\ude00 \\"quoted\\" \\\\","k":"\\\\"}', { description: '😀 "quoted" \\', k: "\\" }],
    ['{"u":"https:\\/\\/shop.example.com\\/x","v":"\\"a\\":1"}', { u: "https://shop.example.com/x", v: '"a":1' }],
    ['{"a":"x:", "b":"y"}', { a: "x:", b: "y" }],
    ['{"A":1,"a":2}', { A: 1, a: 2 }],
  ])("accepts %s", (text, value) => {
    expect(parseJsonText(text)).toEqual(value);
  });

  test("text that is not JSON", () => {
    expect(fault('{"a":1,')).toBe("The body is not valid JSON.");
  });

  // Speed is the benchmark's business, not a test's: here only that the largest bodies are read right
  // (thousands of keys switch the comparison to a Set; nesting as deep as JSON.parse allows).
  test("reads a 64 KiB object of distinct keys and deep nesting", () => {
    const many = `{${Array.from({ length: 8000 }, (_, i) => `"${i}":0`).join(",")}}`;
    expect(Object.keys(parseJsonText(many) as object)).toHaveLength(8000);
    expect(fault(many.replace(/}$/, ',"7999":1}'))).toMatch(/"7999" appears twice/);
    expect(fault("[".repeat(5000) + '"\\ud800"' + "]".repeat(5000))).toMatch(/must be well-formed Unicode/);
  });
});
