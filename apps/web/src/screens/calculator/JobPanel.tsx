// What the job is and where: a job title and the site address, on a new document and while
// editing one. The site address starts as the client's address and can be typed over. A quote can
// also ask for a deposit on acceptance: the client's link issues the deposit invoice when they
// accept, and takes them to pay it.
import './details-panel.css';
import { memo } from 'react';
import { JOB_LIMITS } from '@tradie/domain';
import { Card } from '../../ui/Card.tsx';
import { FormField } from '../../ui/FormField.tsx';
import type { DocumentType } from './calculatorModel.ts';
import type { DepositKind, JobDetails } from './editDocument.ts';

const DEPOSIT_LABELS: Record<DepositKind, string> = { none: 'No deposit', percent: 'A percentage of the quote', amount: 'A fixed amount' };

export const JobPanel = memo(function JobPanel({ type, job, onChange }: { type: DocumentType; job: JobDetails; onChange: (job: JobDetails) => void }) {
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
      {type === 'quote' && (
        <div className="calc-details calc-details--wide">
          <FormField id="calc-deposit-kind" label="Deposit on acceptance" hint="When the client accepts online, the deposit invoice is issued and they can pay it straight away">
            {(describedBy) => (
              <select
                id="calc-deposit-kind"
                className="input"
                aria-describedby={describedBy}
                value={job.depositKind}
                onChange={(e) => onChange({ ...job, depositKind: e.target.value as DepositKind })}
              >
                {(Object.keys(DEPOSIT_LABELS) as DepositKind[]).map((k) => (
                  <option key={k} value={k}>
                    {DEPOSIT_LABELS[k]}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          {job.depositKind !== 'none' && (
            <FormField id="calc-deposit-value" label={job.depositKind === 'percent' ? 'Deposit (%)' : 'Deposit ($, incl. GST)'}>
              {() => (
                <input
                  id="calc-deposit-value"
                  className="input"
                  type="text"
                  inputMode="decimal"
                  autoComplete="off"
                  maxLength={20}
                  placeholder={job.depositKind === 'percent' ? 'e.g. 30' : 'e.g. 500.00'}
                  value={job.depositText}
                  onChange={(e) => onChange({ ...job, depositText: e.target.value })}
                />
              )}
            </FormField>
          )}
        </div>
      )}
    </Card>
  );
});
