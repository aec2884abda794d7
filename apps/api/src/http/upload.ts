// The `file` field of a multipart upload (a logo, a receipt), parsed by Hono (the platform's
// FormData parser; never by hand). The size was already checked by the route's body limit
// (app.ts); what fails here is the wrong kind of body, a broken envelope, or no file.
import type { Context } from 'hono';
import { BadRequest, Invalid, UnsupportedType } from '../errors.ts';
import type { AppEnv } from './env.ts';

export async function uploadedFile(c: Context<AppEnv>, words: { notMultipart: string; missing: string }): Promise<File> {
  if (!/^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '')) throw new UnsupportedType(words.notMultipart);
  let body: Record<string, string | File | (string | File)[]>;
  try {
    body = await c.req.parseBody();
  } catch {
    throw new BadRequest('The upload could not be read. Please choose the file again.');
  }
  const file = body.file;
  if (!(file instanceof File)) throw new Invalid(words.missing);
  return file;
}
