// TypeScript shapes of the main contracts, for code that has validated an item
// (conforms() in index.ts narrows to them). They mirror the YAML schemas at
// `must` level: what a schema leaves optional is optional here too, and
// unknown extra fields are allowed.
import type { ContractName } from './load.ts';

type Extra = { [field: string]: unknown };

interface TokenResponse extends Extra {
  access_token: string;
  expires_in: number;
  refresh_token: string;
  refresh_expires_in: number;
  /** bearer, in any letter case */
  token_type: string;
  session_state?: string | null;
  scope?: string | null;
}

interface TokenError extends Extra {
  error: string;
  error_description?: string | null;
}

interface Party extends Extra { name: string | null; iban: string | null }

interface BodyBase extends Extra {
  referenceId: string;
  debtor?: Party | null;
  status: string;
  createdDate: string;
  lastModifiedDate: string;
}

interface NormalPayment extends Extra {
  amount?: number | string | null;
  originalAmount: number;
  currency: string;
  remittanceInfo?: string | null;
  scheduledDate?: string | null;
  cardPaymentId?: string | null;
  transactionStatus?: string | null;
}

interface WebhookNormalBody extends BodyBase {
  id: string;
  payment: NormalPayment;
  creditor: Party;
  abortReason?: string | null;
  endToEndId?: string | null;
}

interface BatchPayment extends Extra {
  amount?: number | string | null;
  originalAmount: number;
  currency: string;
  remittanceInfo?: string | null;
  paymentScheduledDate?: string | null;
  scheduledDate?: string | null;
  transactionStatus?: string | null;
  creditorData: Extra & { creditor: Party };
}

interface WebhookBatchBody extends BodyBase {
  id: string;
  payments: BatchPayment[];
  abortReason?: string | null;
  endToEndId?: string | null;
}

interface WebhookOlderBody extends BodyBase {
  payment: Extra & { amount?: number | string | null; currency: string; remittanceInfo?: string | null };
  creditor: Party;
}

/** The optional fields of a checkout request beyond those first agreed (docs/control-api.md): a target may ignore them. */
export const CONTROL_EXTENSIONS = ['sca', 'endToEndId', 'referenceId'] as const;
export type ControlExtension = typeof CONTROL_EXTENSIONS[number];

/** The control API's checkout request (contracts/control-request.yaml). */
export interface ControlCheckoutRequest {
  kind: 'normal' | 'batch';
  /** Batch only, default 2. */
  payments?: number;
  statuses: string[];
  abortReason?: string;
  /** YYYY-MM-DD: a scheduled payment (spec 2.2 scheduledDate, 2.3 either spelling). */
  scheduledDate?: string;
  /** The payment needs strong customer authentication: PAYMENT_CREATED comes before PAYMENT_INITIATED (spec 3.1, 6.2). */
  sca?: boolean;
  /** Returned unchanged in every webhook body (spec 2.2). */
  endToEndId?: string;
  referenceId?: string;
  webhook?: { url: string; apiKey?: string };
}

/** Contract name -> the type an item has once it conforms (records without a type here are plain objects). */
export type ContractTypes = { [N in ContractName]: Extra } & {
  'token-response': TokenResponse;
  'token-error': TokenError;
  'webhook-normal': WebhookNormalBody;
  'webhook-batch': WebhookBatchBody;
  'webhook-older': WebhookOlderBody;
  'control-request': ControlCheckoutRequest;
};
