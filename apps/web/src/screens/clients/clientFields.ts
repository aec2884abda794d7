// The client form's fields, in the order they show: one entry per field, read by one loop in
// ClientForm.tsx. Labels, ids, limits and the check-digit warnings live here; the Client Type
// choice above them is the form's own.
import type { HTMLAttributes } from 'react';
import { nameLabel, type ClientFormValues } from './clientForm.ts';

export type ClientFieldName = Exclude<keyof ClientFormValues, 'is_business'>;

/** The blocks the fields sit in: contact details, Business Details (a business only), then the rest. */
export type ClientFormSection = 'contact' | 'business' | 'more';

interface FieldBase {
  /** The value it edits, and the control's name attribute. */
  name: ClientFieldName;
  /** The end of the control's id (`${useId()}-${id}`); the name when absent. */
  id?: string;
  /** The label, or how the values choose it. */
  label: string | ((v: ClientFormValues) => string);
  /** 'wide' spans the grid's row; 'half' shares it. */
  width: 'wide' | 'half';
  section: ClientFormSection;
  /** A line under the field, read with it (aria-describedby). */
  hint?: string;
}

export interface InputField extends FieldBase {
  control: 'input';
  type: 'text' | 'email' | 'tel';
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  autoComplete: string;
  maxLength: number;
  required?: boolean;
  /**
   * 'check-digits': the domain's soft check-digit warning (formWarnings) shows under the field once
   * it has been left (at once when editing a saved client), and never blocks saving.
   */
  warning?: 'check-digits';
}

export interface TextareaField extends FieldBase {
  control: 'textarea';
  rows: number;
  maxLength: number;
}

/** Payment terms: the usual ones in a list or another number of days, with the due date they give (PaymentTermsControl). */
export interface TermsField extends FieldBase {
  control: 'terms';
}

export type ClientField = InputField | TextareaField | TermsField;

export const CLIENT_FIELDS: readonly ClientField[] = [
  { section: 'contact', name: 'name', label: (v) => nameLabel(v.is_business), width: 'wide', control: 'input', type: 'text', required: true, maxLength: 200, autoComplete: 'off' },
  { section: 'contact', name: 'email', label: 'Email', width: 'half', control: 'input', type: 'email', maxLength: 254, autoComplete: 'off' },
  { section: 'contact', name: 'phone', label: 'Phone', width: 'half', control: 'input', type: 'tel', maxLength: 50, autoComplete: 'off' },
  { section: 'business', name: 'business_name', label: 'Business/Trading Name', width: 'wide', control: 'input', type: 'text', maxLength: 200, autoComplete: 'off' },
  {
    section: 'business',
    name: 'company_number',
    label: 'NZBN / Company Number',
    width: 'half',
    control: 'input',
    type: 'text',
    maxLength: 50,
    autoComplete: 'off',
    warning: 'check-digits',
  },
  { section: 'business', name: 'gst_number', label: 'GST Number', width: 'half', control: 'input', type: 'text', maxLength: 50, autoComplete: 'off', warning: 'check-digits' },
  { section: 'more', name: 'address', label: 'Address', width: 'wide', control: 'textarea', rows: 3, maxLength: 1000 },
  { section: 'more', name: 'default_payment_terms', id: 'terms', label: 'Default Payment Terms', width: 'half', control: 'terms' },
  { section: 'more', name: 'notes', label: 'Notes (Internal)', width: 'wide', control: 'textarea', rows: 3, maxLength: 5000 },
];

export const labelOf = (field: ClientField, values: ClientFormValues): string => (typeof field.label === 'function' ? field.label(values) : field.label);

/** The fields whose warning waits until they are left: when editing a saved client, all of them start left. */
export const leftWhenEditing = (): Record<string, boolean> =>
  Object.fromEntries(CLIENT_FIELDS.filter((f) => f.control === 'input' && f.warning !== undefined).map((f) => [f.name, true]));
