// A public object's optional fields cross three shapes: null in the domain's view and in the public
// JSON, absent in its gRPC message (proto3 `optional`). These two turn one into the other for every
// field at once, in the order the fields come, so an object's fields are listed once: in its view
// type and its message (the generated message keeps the proto's order, which is the contract's).

/** `T` with each nullable field made optional instead. */
type NullAsAbsent<T> = { [K in keyof T]: null extends T[K] ? Exclude<T[K], null> | undefined : T[K] };

/** `T` with each optional field made nullable instead (and present). */
type AbsentAsNull<T> = { [K in keyof T]-?: undefined extends T[K] ? Exclude<T[K], undefined> | null : T[K] };

/** A domain view as its message's fields: each null becomes absent. */
export function nullAsAbsent<T extends object>(view: T): NullAsAbsent<T> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(view)) fields[key] = value === null ? undefined : value;
  return fields as NullAsAbsent<T>;
}

/** A message as the public JSON's fields: each absent field becomes null. */
export function absentAsNull<T extends object>(message: T): AbsentAsNull<T> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) fields[key] = value === undefined ? null : value;
  return fields as AbsentAsNull<T>;
}
