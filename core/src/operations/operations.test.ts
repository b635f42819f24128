// Every operation a transport may run, who may run it and the unit of work it runs in, listed
// explicitly: a new operation, or a change to who may call one or how it runs, is a decision made
// here in sight (core/README.md, "Layering").
import { describe, expect, test } from "vitest";
import { OPERATIONS } from "./index.ts";

/**
 * "unit of work: callers", "[role]" the least role a dashboard session needs, and "(key as presented)"
 * where the operation resolves a merchant's API key itself.
 */
const DECLARED: Record<string, string> = {
  // Payments
  authenticate: "read: merchant",
  // The hot paths: no BEGIN/COMMIT around the whole request (creation and link pay are one statement each).
  create_payment: "statement: merchant (key as presented)",
  get_payment: "read: merchant, operator, session [viewer]",
  list_payments: "read: merchant, operator, session [viewer]",
  cancel_payment: "steps: merchant, operator, session [admin]",
  simulate_payment: "transaction: operator",
  // Checkout (the hosted pages)
  resolve_checkout: "steps: public",
  get_checkout_session: "steps: public",
  get_hosted_payment: "steps: public",
  verify_embed_token: "read: public",
  submit_card: "steps: public",
  complete_challenge: "steps: public",
  start_bank_transfer: "steps: public",
  cancel_checkout: "steps: public",
  // Merchants and keys
  create_merchant: "transaction: operator",
  create_api_key: "transaction: operator, session [developer]",
  revoke_api_key: "transaction: operator, session [developer]",
  list_api_keys: "read: operator, session [developer]",
  roll_api_key: "transaction: operator, session [developer]",
  set_embed_origins: "transaction: operator",
  set_return_origins: "transaction: operator",
  // Payment links
  create_link: "transaction: merchant, operator, session [admin] (key as presented)",
  list_links: "read: merchant, operator, session [viewer]",
  get_link: "read: merchant, operator, session [viewer]",
  deactivate_link: "transaction: merchant, operator, session [admin]",
  get_public_link: "read: public",
  pay_link: "statement: public",
  get_link_payment: "read: public",
  // Refunds
  create_refund: "steps: merchant, operator, session [admin] (key as presented)",
  get_refund: "read: merchant, operator, session [viewer]",
  list_refunds: "read: merchant, operator, session [viewer]",
  // Webhook endpoints and events
  create_endpoint: "steps: operator, session [developer]",
  list_endpoints: "read: operator, session [developer]",
  update_endpoint: "transaction: operator, session [developer]",
  rotate_endpoint_secret: "transaction: merchant, operator, session [developer]",
  delete_endpoint: "transaction: merchant, operator, session [developer]",
  reveal_endpoint_secret: "transaction: session [developer]",
  create_webhook_endpoint: "steps: merchant (key as presented)",
  list_webhook_endpoints: "read: merchant, session [developer]",
  get_webhook_endpoint: "read: merchant, session [developer]",
  update_webhook_endpoint: "steps: merchant",
  list_events: "read: merchant, session [viewer]",
  get_event: "read: merchant, session [viewer]",
  trigger_event: "steps: operator",
  // Deliveries
  record_deliveries: "transaction: operator, dispatcher",
  claim_due_deliveries: "steps: operator, dispatcher",
  record_attempts: "steps: operator, dispatcher",
  release_deliveries: "transaction: operator, dispatcher",
  // One endpoint's delivery log, for its merchant (the dashboard's endpoint page, or the API key)
  list_endpoint_deliveries: "read: merchant, session [developer]",
  replay_endpoint_delivery: "transaction: merchant, session [developer]",
  replay_failed_since: "transaction: merchant, session [developer]",
  send_test_event: "transaction: merchant, session [developer]",
  list_deliveries: "read: operator, session [viewer]",
  get_delivery: "read: operator, session [viewer]",
  replay_delivery: "transaction: operator, session [developer]",
  replay_failed_deliveries: "transaction: operator, session [developer]",
  list_recent_events: "read: operator",
  // Chargebacks, bank accounts, payouts
  simulate_chargeback: "transaction: operator",
  open_chargeback: "transaction: operator",
  win_chargeback: "transaction: operator",
  add_bank_account: "transaction: operator, session [admin]",
  list_bank_accounts: "read: operator, session [viewer]",
  pay_out_now: "steps: operator, session [admin]",
  get_payout: "read: merchant, operator, session [viewer]",
  list_payouts: "read: merchant, operator, session [viewer]",
  get_chargeback: "read: merchant, operator, session [viewer]",
  list_chargebacks: "read: merchant, operator, session [viewer]",
  // Ledger
  verify_ledger: "read: operator",
  get_balances: "read: merchant, operator, session [viewer]",
  list_payment_ledger: "read: operator, session [viewer]",
  // The dashboard's own: signing in, invites and resets (the facade, for a browser without a
  // session), the session's own, Team (owners and admins change it) and Security; `paytami users`.
  sign_in: "statement: facade",
  get_invite_info: "read: facade",
  accept_invite: "steps: facade",
  reset_password: "steps: facade",
  sign_out: "statement: session [viewer]",
  get_me: "read: session [viewer]",
  switch_merchant: "statement: session [viewer]",
  switch_mode: "statement: session [viewer]",
  list_members: "read: session [viewer]",
  invite_user: "transaction: operator, session [admin]",
  change_role: "transaction: session [admin]",
  remove_member: "transaction: session [admin]",
  issue_password_reset: "transaction: operator",
  list_users: "read: operator",
  list_sessions: "read: session [viewer]",
  sign_out_everywhere: "statement: session [viewer]",
  start_totp: "statement: session [viewer]",
  enable_totp: "statement: session [viewer]",
  disable_totp: "statement: session [viewer]",
  list_audit_log: "read: session [admin]",
  // Dashboard views
  get_home_summary: "read: operator, session [viewer]",
  list_dashboard_payments: "read: operator, session [viewer]",
  get_payment_detail: "read: operator, session [viewer]",
  list_link_payments: "read: operator, session [viewer]",
  export_payments: "read: operator, session [viewer]",
  // Request logs
  list_request_logs: "read: operator, session [developer]",
  get_request_log: "read: operator, session [developer]",
  tail_request_logs: "read: operator",
  // Settings (profile, branding, logo, embed origins, time zone, language)
  get_merchant_settings: "read: operator, session [admin]",
  update_merchant_settings: "transaction: operator, session [admin]",
  upload_logo: "transaction: operator, session [admin]",
  remove_logo: "transaction: operator, session [admin]",
  get_logo: "read: public",
};

describe("the operations", () => {
  test("each one's unit of work and callers, as declared", () => {
    const declared = Object.fromEntries(
      OPERATIONS.map((op) => [
        op.name,
        `${op.transaction}: ${op.callers.join(", ")}${op.role ? ` [${op.role}]` : ""}${op.apiKey === "presented" ? " (key as presented)" : ""}`,
      ]),
    );
    expect(declared).toEqual(DECLARED);
  });

  test("each has a name of its own", () => {
    expect(new Set(OPERATIONS.map((op) => op.name)).size).toBe(OPERATIONS.length);
  });
});
