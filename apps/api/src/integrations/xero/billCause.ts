// The outbox cause of "a cost sent to Xero kept a new receipt" (a leaf module, as changeCause.ts
// is): the Costs route that keeps the receipt queues it (billQueue.ts), and the xero-bill reaction
// (reactions/registry.ts) follows it, without importing each other.

/** Not a domain event: the receipt is a file beside the cost, not part of its stream. */
export const COST_RECEIPT_KEPT = 'CostReceiptKept';
