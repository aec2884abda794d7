// What a quote or invoice is for and where: a job title in the tradie's words and the site address
// (the client's address unless the work is somewhere else). The address keeps its lines apart:
// stored one a line, shown one a line on the PDF and the client's page, and joined with commas
// where it has to sit on one line (the list, an email).
import { invalid } from '../errors.ts';

export const JOB_LIMITS = { jobTitle: 200, siteAddress: 1000, siteAddressLines: 8 } as const;

/** A site address as stored: each line trimmed, blank lines and trailing commas dropped, one a line. */
export function normaliseSiteAddress(address: string): string {
  return siteAddressLines(address).join('\n');
}

/** The lines of a site address, each as it is printed. */
export function siteAddressLines(address: string): string[] {
  return address
    .split(/\r\n|\r|\n/)
    // Trailing commas and spaces go together (', ,' leaves nothing), so tidying twice changes nothing.
    .map((part) => part.trim().replace(/[\s,]+$/, ''))
    .filter((part) => part !== '');
}

/** A job title as stored: one line, its spaces tidied. */
export const normaliseJobTitle = (title: string): string => title.replace(/\s+/g, ' ').trim();

/** The job title and site address a document is saved with; refuses what is too long. */
export function jobDetails(input: { jobTitle?: string | undefined; siteAddress?: string | undefined }): { jobTitle: string; siteAddress: string } {
  const jobTitle = normaliseJobTitle(input.jobTitle ?? '');
  const siteAddress = normaliseSiteAddress(input.siteAddress ?? '');
  if (jobTitle.length > JOB_LIMITS.jobTitle) throw invalid(`The job title can be at most ${JOB_LIMITS.jobTitle} characters`);
  if (siteAddress.length > JOB_LIMITS.siteAddress) throw invalid(`The site address can be at most ${JOB_LIMITS.siteAddress.toLocaleString('en-NZ')} characters`);
  if (siteAddressLines(siteAddress).length > JOB_LIMITS.siteAddressLines) throw invalid(`The site address can have at most ${JOB_LIMITS.siteAddressLines} lines`);
  return { jobTitle, siteAddress };
}
