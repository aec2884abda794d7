// What the job is and where: a job title and the site address, on a new document and while
// editing one. The site address starts as the client's address and can be typed over.
import { memo } from 'react';
import { JOB_LIMITS } from '@tradie/domain';
import { Card } from '../../ui/Card.tsx';
import { FormField } from '../../ui/FormField.tsx';
import type { JobDetails } from './editDocument.ts';

export const JobPanel = memo(function JobPanel({ job, onChange }: { job: JobDetails; onChange: (job: JobDetails) => void }) {
  return (
    <Card titleId="calc-job-title" title="The job">
      <FormField id="calc-job-name" label="Job title" hint="Shown on the PDF and the client's page">
        {(describedBy) => (
          <input
            id="calc-job-name"
            className="input"
            type="text"
            autoComplete="off"
            maxLength={JOB_LIMITS.jobTitle}
            placeholder="e.g. Heat pump install"
            aria-describedby={describedBy}
            value={job.jobTitle}
            onChange={(e) => onChange({ ...job, jobTitle: e.target.value })}
          />
        )}
      </FormField>
      <FormField id="calc-site-address" label="Site address" hint="Where the work is. The client's address unless you change it">
        {(describedBy) => (
          <textarea
            id="calc-site-address"
            className="input"
            rows={3}
            autoComplete="off"
            maxLength={JOB_LIMITS.siteAddress}
            aria-describedby={describedBy}
            value={job.siteAddress}
            onChange={(e) => onChange({ ...job, siteAddress: e.target.value, siteTyped: true })}
          />
        )}
      </FormField>
    </Card>
  );
});
