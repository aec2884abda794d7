// How a client is named in pickers, lists and reports. Zod-free (see clients/client.ts for the
// fields' schema) so a browser bundle that only names clients can leave zod out.

/** The picker's rule: 'business_name (name)' for a business with a business name, else name. */
export function clientDisplayName(c: { name: string; is_business: 'true' | 'false'; business_name: string }): string {
  return c.is_business === 'true' && c.business_name ? `${c.business_name} (${c.name})` : c.name;
}
