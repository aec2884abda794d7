import { NotBuiltYet } from '../../ui/NotBuiltYet.tsx';

/** Placeholder: replaced when this screen is built. */
export function CalculatorScreen() {
  return <NotBuiltYet title="Quote & Profit Calculator" purpose="Price a job, see costs, profit and the price to charge, and create a quote or invoice." />;
}
