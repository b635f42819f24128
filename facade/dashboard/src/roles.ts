/** DESIGN §5's roles, least first: each may do what the ones before it may, and more. */
export const ROLES = ["viewer", "developer", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];

/**
 * Whether `role` reaches `least`. The app uses it to hide what a role may not do; the core checks
 * every call itself, so hiding is a courtesy, never the permission.
 */
export function atLeast(role: string | undefined, least: Role): boolean {
  const rank = ROLES.indexOf(role as Role);
  return rank >= 0 && rank >= ROLES.indexOf(least);
}
