// What the auth routes share: where the request came from.
import type { Context } from 'hono';
import type { AppDeps } from '../deps.ts';
import { clientIp } from '../security/clientIp.ts';
import type { Origin } from './commands/shared.ts';

export const originOf = (deps: Pick<AppDeps, 'config'>, c: Context): Origin => ({ ip: clientIp(c, deps.config.trustedProxies), userAgent: c.req.header('user-agent') });
