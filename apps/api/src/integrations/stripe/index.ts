export * from './port.ts';
export * from './subscriptionStatus.ts';
export * from './webhookReducer.ts';
export * from './stripeBilling.ts';
