/**
 * The token of an `Authorization: Bearer <token>` value (an HTTP header or the gRPC
 * `authorization` metadata), or undefined when the value is absent or has another form.
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
}
