/**
 * A value the core sends (a status, a method, a reason) in the page's words: its label when the
 * messages have one, the value itself otherwise (a state added to the core before the app knows it
 * still shows, as the API names it).
 */
export function label(labels: Readonly<Record<string, string>>, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value]! : value;
}
