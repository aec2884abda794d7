// The context every request carries through the Hono app: its request id, and once signed in the
// user and the account. A leaf module, so the app and its sub-apps both name it without a cycle.
export type AppEnv = { Variables: { requestId: string; accountId: string; userId: string } };
