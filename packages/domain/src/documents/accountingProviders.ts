// The accounting systems a business can connect, by the name the product gives them in words. A
// leaf module: the decider and the totals comparison both name the provider.
const PROVIDER_NAMES: Record<string, string> = { xero: 'Xero' };

/** 'Xero' for xero; an unknown provider is 'Your accounting software'. */
export const accountingProviderName = (provider: string): string => PROVIDER_NAMES[provider] ?? 'Your accounting software';
