// /api/v1/business-settings: the tradie's business details and logo (docs/api/settings.md).
//
//   GET    /                 every field with its default, the signed logo_url, check-digit warnings
//   PUT    /                 saves the fields sent (logo_url ignored); answers like GET, plus warnings.
//                             A GST number, NZBN or bank account that fails its check: 422 by field,
//                             nothing saved, unless kept on purpose (`keep_as_entered`)
//   POST   /logo             multipart field `file`: PNG, JPEG or SVG by content, ≤ 2 MB, ≤ 16 megapixels;
//                             kept re-encoded (logoPrepare.ts) → {logo_url}
//   GET    /logo             the logo, to a signed-in caller or through a signed logo_url
//   DELETE /logo             removes it
import { PRICING_MESSAGES, businessSettingsInput, businessSettingsRecord, logoUploadResponse, MAX_LOGO_BYTES, SETTINGS_MESSAGES, type BusinessSettingsRecord } from '@tradie/contracts';
import { BUSINESS_IDENTIFIER_MESSAGES, businessIdentifierWarnings, categoriesOverMargin, checkBusinessIdentifiers, nzDateOf, roundingAppliesFrom, type FieldWarning } from '@tradie/domain';
import type { Sql } from '@tradie/store';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/env.ts';
import { refuseClosedAccount } from '../account/liveness.ts';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody } from '../http/body.ts';
import { uploadedFile } from '../http/upload.ts';
import { ApiError } from '../http/problem.ts';
import { describe } from '../openapi/describe.ts';
import { verificationKeys } from '../appKeys.ts';
import { withUploadSlot } from '../security/uploadGate.ts';
import { prepareLogo } from './logoPrepare.ts';
import { loadPricing } from './pricing.ts';
import { signedLogoUrl, verifyLogoLink } from './logoLink.ts';
import { deleteLogo, loadBusinessSettings, roundingInUse, loadLogo, logoState, logoVersion, saveBusinessSettings, saveLogo, type BusinessSettings } from './repository.ts';

/** Headers on every logo answer: the declared type only, and a document that can do nothing. */
export const LOGO_RESPONSE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'Cache-Control': 'private, max-age=300',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;

export function settingsRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const auth = requireAuth(deps);
  async function record(sql: Sql, accountId: string, extraWarnings: FieldWarning[] = []): Promise<BusinessSettingsRecord> {
    const s = await loadBusinessSettings(sql, accountId);
    const sha = await logoVersion(sql, accountId);
    // Registered without a number: saved, but nothing can be sent until the number is there.
    const gstNumberNeeded: FieldWarning[] = s.gst_registered && s.gst_number.trim() === '' ? [{ field: 'gst_number', message: SETTINGS_MESSAGES.gstNumberNeeded }] : [];
    const logoLeftOut: FieldWarning[] = sha && (await logoState(sql, accountId)) === 'unreadable' ? [{ field: 'logo_url', message: SETTINGS_MESSAGES.logoLeftOut }] : [];
    const inUse = roundingInUse(s, nzDateOf(deps.clock.now()));
    // A change already due is simply the method in use.
    const next = s.gst_rounding_next && s.gst_rounding_next.rounding !== inUse ? { ...s.gst_rounding_next, applies_from: roundingAppliesFrom(s.gst_rounding_next.from) } : null;
    return {
      ...(s as BusinessSettings & { default_currency: 'NZD'; enable_multi_currency: false }),
      gst_rounding: inUse,
      gst_rounding_next: next,
      logo_url: sha ? signedLogoUrl(deps.secrets.linkKey, accountId, sha, deps.clock.now()) : '',
      warnings: [...businessIdentifierWarnings(s), ...gstNumberNeeded, ...logoLeftOut, ...extraWarnings],
    };
  }

  r.get('/', describe({ tag: 'Business settings', summary: 'Every business setting with its default', response: { status: 200, schema: businessSettingsRecord } }), auth, async (c) => c.json(await record(deps.store.db, c.get('accountId'))));

  r.put('/', describe({ tag: 'Business settings', summary: 'Save business, email and currency settings (logo_url ignored)', body: businessSettingsInput, response: { status: 200, schema: businessSettingsRecord }, errors: [422] }), auth, async (c) => {
    const { keep_as_entered: keep, ...patch } = await parseBody(c, businessSettingsInput);
    // A number sent as it is already saved was checked (or kept on purpose) when it was saved.
    const saved = await loadBusinessSettings(deps.store.db, c.get('accountId'));
    const changed = (f: 'gst_number' | 'nzbn' | 'bank_account_number') => (patch[f] !== undefined && patch[f].trim() !== saved[f].trim() ? patch[f] : undefined);
    const checked = checkBusinessIdentifiers({ gst_number: changed('gst_number'), nzbn: changed('nzbn'), bank_account_number: changed('bank_account_number') }, keep);
    if (checked.errors.length > 0) {
      throw new ApiError(422, checked.errors.length === 1 ? checked.errors[0]!.message : BUSINESS_IDENTIFIER_MESSAGES.summary(checked.errors.length), { code: 'check_numbers', errors: checked.errors });
    }
    if (checked.bankAccountNumber !== undefined) patch.bank_account_number = checked.bankAccountNumber;
    // Every category's percentage is read on the basis: a markup above 95 % is no margin a price can have.
    if (patch.margin_basis === 'margin' && saved.margin_basis !== 'margin') {
      const over = categoriesOverMargin((await loadPricing(deps.store.db, c.get('accountId'))).categories);
      if (over.length > 0) throw new ApiError(422, PRICING_MESSAGES.basisTooHigh(over.map((o) => `${o.name} (${o.percent}%)`).join(', ')));
    }
    const accountId = c.get('accountId');
    const answer = await deps.store.db.tx(async (tx) => {
      const { previousGstRounding } = await saveBusinessSettings(tx, accountId, patch, deps.clock.now());
      const answer = await record(tx, accountId);
      // Asked for the other method: say from when it applies.
      const waiting = patch.gst_rounding !== undefined && patch.gst_rounding !== previousGstRounding && answer.gst_rounding_next;
      return waiting ? { ...answer, warnings: [...answer.warnings, { field: 'gst_rounding', message: answer.gst_rounding_next!.applies_from }] } : answer;
    });
    return c.json(answer);
  });

  r.post('/logo', describe({ tag: 'Business settings', summary: 'Upload the logo: PNG, JPEG or SVG (checked by content, SVG sanitised), at most 2 MB', bodyNote: 'multipart/form-data with a `file` field', response: { status: 200, schema: logoUploadResponse }, errors: [413, 422, 429] }), auth, async (c) => {
    const accountId = c.get('accountId');
    // One of the account's few upload places and the hour's count, before the body is read.
    const sha256 = await withUploadSlot(deps, accountId, async () => {
      const file = await uploadedFile(c, { notMultipart: SETTINGS_MESSAGES.logoNotMultipart, missing: SETTINGS_MESSAGES.logoMissing });
      if (file.size > MAX_LOGO_BYTES) throw new ApiError(413, SETTINGS_MESSAGES.logoTooLarge);
      // Decoded and re-encoded (rasters, and the rasters inside an SVG); only the result is kept.
      const logo = await prepareLogo(new Uint8Array(await file.arrayBuffer()));
      if (!logo.ok) throw new ApiError(422, logo.detail);
      await saveLogo(deps.store.db, accountId, logo, deps.clock.now());
      return logo.sha256;
    });
    return c.json({ logo_url: signedLogoUrl(deps.secrets.linkKey, accountId, sha256, deps.clock.now()) });
  });

  r.get('/logo', describe({ tag: 'Business settings', summary: 'The logo (signed-in, or with the signature logo_url carries)', auth: false, response: { status: 200, contentType: 'image/*', description: 'The logo, served with nosniff and a sandboxing Content-Security-Policy' }, errors: [403, 404, 410] }), async (c, next) => {
    // A signed link (an <img> cannot send the bearer token) or the signed-in account.
    if (c.req.query('sig') === undefined) return auth(c, next);
    const accountId = verifyLogoLink(verificationKeys(deps.secrets, 'linkKey'), c.req.query(), deps.clock.now());
    if (!accountId) throw new ApiError(403, SETTINGS_MESSAGES.logoLinkInvalid);
    // The logo of a business that deleted its account is not shown any more (account/liveness.ts).
    await refuseClosedAccount(deps.store.db, accountId);
    c.set('accountId', accountId);
    await next();
  }, async (c) => {
    const logo = await loadLogo(deps.store.db, c.get('accountId'));
    if (!logo) throw new ApiError(404, SETTINGS_MESSAGES.noLogo);
    return c.body(new Uint8Array(logo.bytes), 200, { ...LOGO_RESPONSE_HEADERS, 'Content-Type': logo.contentType, 'Content-Length': String(logo.bytes.length) });
  });

  r.delete('/logo', describe({ tag: 'Business settings', summary: 'Remove the logo', response: { status: 200, schema: z.object({ detail: z.string() }) } }), auth, async (c) => {
    await deleteLogo(deps.store.db, c.get('accountId'));
    // Deleting what is already gone is the same success: the screen's state is what was asked for.
    return c.json({ logo_url: '' });
  });

  return r;
}

